// Standalone mode of a benchmark binary (no TARE_CHILD): list, filter, run in this process, print
// a table. See standalone.cc for the flags.
#pragma once

namespace tare::internal {

// Returns the process exit status: 0 ok, 2 bad command line, 3 a benchmark failed.
int RunStandalone(int argc, char** argv);

}  // namespace tare::internal
