// Just enough PNG decoding to tell a rendered page from a blank one: 8-bit RGB/RGBA (what
// chromium's --screenshot writes), IDAT inflated with zlib, the five row filters undone.
#pragma once

#include <cstdint>
#include <string>

namespace tare::e2e {

struct PngStats {
  bool ok = false;
  std::string error;  // why not ok
  uint32_t width = 0, height = 0;
  size_t distinct_colours = 0;  // RGB triples
  double non_white = 0;         // fraction of pixels that are not pure white
};

PngStats AnalysePng(const std::string& bytes);

}  // namespace tare::e2e
