// What `tare attribute` compares: the callgrind profile parts of a base side and a head side, read
// from two files or from a store (one cell of a `tare ab --instrument sim` cohort, or one benchmark
// in two `tare run --instrument sim` runs), each with its executable when it is known and
// unchanged (the symbol tables and `--asm` read it).
//
// Errors say what to do: a missing file or store, a run of the wrong kind, a cell that is not there
// (with the list of those that are), a run that kept no profile.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "instrument/callgrind_profile.h"
#include "model/run.h"
#include "store/store.h"

namespace tare::attribute {

// One side's input: its parts, a label for the output, and the executable if known.
struct Side {
  std::vector<instrument::Profile> parts;
  std::string label;
  std::string executable;   // "" = unknown
  std::string exe_problem;  // why there is none, for the notes
};

struct Sides {
  Side base;
  Side head;
};

// Two callgrind files, base then head; each side's executable is the first word of its "cmd:"
// line when that file exists.
StatusOr<Sides> SidesFromFiles(const std::string& base_path, const std::string& head_path);

// NotFound naming the commands that make one when `path` holds no store.
Status RequireSimStore(const std::string& path);

// The base and `head_arm` sides of `cell` ("" when the cohort has one cell) of a loaded `tare ab`
// cohort; executables from the run's records, when still present with the recorded sha256.
StatusOr<Sides> SidesOfCohortCell(store::Store& store, const RunData& data, const std::string& cell,
                                  const std::string& head_arm);

// The `tare ab` cohort `selector` names (InvalidArgument for any other kind of run), `cell` of it.
StatusOr<Sides> SidesOfCohort(store::Store& store, const std::string& selector, const std::string& cell);

// One benchmark (`cell`, "" when the run has one) of the `tare run` `selector` names; `role`
// ("base" or "head") names the flag in errors.
StatusOr<Side> SideOfRun(store::Store& store, const std::string& selector, const std::string& cell,
                         const std::string& role);

}  // namespace tare::attribute
