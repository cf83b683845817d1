// Flame graphs of a callgrind event (issue 24 item 3; docs/attribute.md, "Flame graphs"): the call
// tree of each side, and a differential one base -> head, as self-contained SVG (no script: each
// frame's <title> is its tooltip).
//
// Callgrind records a call graph, not stacks: per caller -> callee edge, the calls and their
// inclusive cost. The tree is grown from the roots (functions nobody calls, such as "(below main)"
// or a measurement window's entry) by sharing each node's cost among its callees in proportion to
// the edges: a node of F with cost C has a child G of cost C * E(F->G) / inclusive(F). A function
// already on the path is not entered again (recursion stays in the frame that started it). This
// is exact for a function called from one place and an average over callers otherwise — the
// usual reading of a call-graph profile as a flame graph. Frames under 0.1% of the root are not
// drawn (their cost stays in the parent). Keys are attribution's (attribution.h): the profiled
// program's object matched across builds, recursion levels folded, code without a symbol one
// frame per object.
//
// Differential: the two trees merged by path. A frame is as wide as the larger of its base and
// head self cost plus its children, so a function gone in head still shows; its colour is the
// change of its inclusive cost, red where head costs more, blue where it costs less, white where
// nothing moved, the saturation proportional to the change.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "instrument/callgrind_profile.h"

namespace tare::attribute {

struct FlameFrame {
  std::string name;    // function (AttributionName)
  std::string object;  // file name of its object (of base's build, for the profiled program)
  std::string key;     // what matches a frame across the sides: the program's object is one key
  double base = 0;     // inclusive cost along this path, each side
  double head = 0;
  std::vector<FlameFrame> children;  // by name
};

struct FlameOptions {
  std::string event = "Ir";
  size_t max_depth = 64;
  double min_fraction = 0.001;  // frames below this share of the root are not drawn
};

// The merged call tree; its root is "all" (every root of either side under it). InvalidArgument
// when a side has no parts or lacks the event.
StatusOr<FlameFrame> BuildFlameTree(const std::vector<instrument::Profile>& base,
                                    const std::vector<instrument::Profile>& head, const FlameOptions& options = {});

// One side's tree alone (head = base in every frame).
StatusOr<FlameFrame> BuildFlameTree(const std::vector<instrument::Profile>& side, const FlameOptions& options = {});

// The SVG document. `differential`: colours by the change (above); otherwise a warm palette by
// name. `title` and every name are escaped for XML; control characters are shown escaped.
std::string RenderFlameSvg(const FlameFrame& root, const std::string& title, const std::string& event,
                           bool differential);

}  // namespace tare::attribute
