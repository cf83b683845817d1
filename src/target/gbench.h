// Google Benchmark binaries, unmodified, driven through their own flags. Each benchmark runs in
// its own fresh process per sample with --benchmark_filter=^<escaped name>$ and JSON written to a
// file (--benchmark_out), so one benchmark's allocator or cache state never leaks into another's.
// Works with Google Benchmark 1.7.1 (Debian 12): only flags that version accepts are used.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"

namespace tare::target {

// Escapes regex metacharacters so a benchmark name matches itself only, in the regex dialect of
// Google Benchmark's filter (std::regex, POSIX extended): "BM_x/8" stays, "BM<int>(1)" ->
// "BM<int>[(]1[)]", "BM[a]{b}" -> "BM[[]a][{]b}".
std::string EscapeRegex(const std::string& name);

// The extra argv for one sample of one benchmark.
std::vector<std::string> GbenchSampleArgs(const std::string& benchmark, const std::string& json_out);
// "--benchmark_min_time=0.05" for 50 ms: seconds as a bare number, which every version reads.
std::string GbenchMinTimeArg(int64_t min_time_ns);
// "--benchmark_min_time=1200x": exactly that many iterations. Google Benchmark 1.8 and later only;
// 1.7.1 expects a double and exits 1 ("unrecognized command-line flag").
std::string GbenchIterationsArg(uint64_t iterations);

// Whether the program's own arguments (argv after the program) or environment already set Google
// Benchmark's minimum time: --benchmark_min_time=VALUE (the only form Google Benchmark parses) or
// BENCHMARK_MIN_TIME, which it reads as the flag's default. tare then adds no length of its own, so
// the user's choice stands (tare's own flags come after the user's, and the last one wins).
bool GbenchMinTimeGiven(const std::vector<std::string>& argv, const std::vector<std::string>& env);

// What one process reported for one benchmark.
struct GbenchReading {
  bool error = false;  // error_occurred (or skipped in newer versions)
  std::string error_message;
  double iterations = 0;
  double real_time_ns = 0;  // per iteration, converted from time_unit
  double cpu_time_ns = 0;
  int threads = 1;                         // "threads": the benchmark's thread count
  std::map<std::string, double> counters;  // user counters (flat numeric keys)
};

// Parses --benchmark_out JSON for `benchmark`. The program under test writes it, so nothing in it is
// trusted: malformed JSON, a missing row and a field of the wrong type are each DataLoss naming the
// benchmark and the field.
StatusOr<GbenchReading> ParseGbenchJson(const std::string& json_text, const std::string& benchmark);

// The user counters that are rates (Counter::kIsRate, and bytes_per_second / items_per_second, which
// SetBytesProcessed / SetItemsProcessed make): the JSON gives only their values, per second, but the
// console line prints each as NAME=VALUE/s, and the sample's console output is kept. Only names
// of `counters` are returned: the console text is the program's, so nothing else in it counts.
std::vector<std::string> GbenchRateCounters(const std::string& console, const std::map<std::string, double>& counters);

// Parses --benchmark_list_tests output: one name per non-empty line. A name holding a newline
// prints as two lines; ListBenchmarks finds such names (GbenchNewlineFilterArg) and refuses them.
std::vector<std::string> ParseGbenchList(const std::string& text);

// `stderr_text` without the context Google Benchmark prints before any benchmark runs (the date,
// "Running PATH", "Run on (N X MHz CPU s)", "CPU Caches:" and its lines, "Load Average: ...",
// "***WARNING*** ..." about CPU scaling or a DEBUG build): the same on every sample of every
// benchmark, it filled the tail a failure is told with (issue 44, item 7). Only that block, at the
// start, is removed; what the benchmark itself wrote after it is kept as it was.
std::string WithoutGbenchContext(const std::string& stderr_text);
// A --benchmark_filter that selects the names holding a newline (a bracket with a newline in it).
std::string GbenchNewlineFilterArg();

}  // namespace tare::target
