#include "instrument/sim.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <tuple>
#include <utility>

#include "instrument/callgrind_profile.h"
#include "model/metric_names.h"

namespace tare::instrument {
namespace {

constexpr char kProfilePrefix[] = "callgrind.out.";
constexpr char kClientRequest[] = "Client Request: ";

// The dump triggers of kGoogleBenchmark windows, as callgrind names them ("desc: Trigger:").
constexpr char kGbStartKeepRunning[] = "benchmark::State::StartKeepRunning()";
constexpr char kGbFinishKeepRunning[] = "benchmark::State::FinishKeepRunning()";
constexpr char kGbPauseTiming[] = "benchmark::State::PauseTiming()";
constexpr char kGbResumeTiming[] = "benchmark::State::ResumeTiming()";

std::string DumpAfter(const char* fn) { return fmt::format("--dump-after={}", fn); }
std::string DumpBefore(const char* fn) { return fmt::format("--dump-before={}", fn); }

// Integers without decimals, fractions with three. The range check comes first: converting a
// double outside int64_t's range is undefined behaviour, and the values come from the profile's
// totals, which a hostile profile can set anywhere up to 2^64 - 1.
std::string Num(double v) {
  bool integral = std::fabs(v) < 0x1p63 && v == std::trunc(v);
  return integral ? fmt::format("{}", static_cast<int64_t>(v)) : fmt::format("{:.3f}", v);
}

// The pid or dump number in a profile's file name, or nullopt for anything valgrind cannot have
// written: digits only, and within 64 bits. The benchmark can create files in its profile
// directory, so the name is input: a 23-digit "pid" once aborted tare through std::stoull's
// out_of_range exception.
std::optional<uint64_t> FileNameNumber(std::string_view s) {
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// Events whose metric names differ from sim.<event>.
const std::map<std::string, std::string>& MetricNames() {
  static const std::map<std::string, std::string> kNames = {{"sysCount", metric_name::kSimSyscalls},
                                                            {"sysTime", metric_name::kSimSyscallNs},
                                                            {"sysCpuTime", metric_name::kSimSyscallCpuNs}};
  return kNames;
}

// callgrind states the unit of its time events in their long names: "sysTime (elapsed ns)",
// "(elapsed us)", "(elapsed ms)" for --collect-systime=nsec/usec/msec; "(system cpu ns)".
uint64_t NanosPerUnit(const Profile& p, const std::string& event) {
  auto it = p.event_long_names.find(event);
  if (it == p.event_long_names.end()) return 1;
  const std::string& name = it->second;
  if (name.find(" us)") != std::string::npos) return 1000;
  if (name.find(" ms)") != std::string::npos) return 1000000;
  return 1;
}

// A window's totals by event name, time events in ns.
std::map<std::string, uint64_t> WindowTotals(const Profile& p) {
  std::map<std::string, uint64_t> out;
  for (size_t i = 0; i < p.events.size(); ++i) {
    uint64_t v = i < p.totals.size() ? p.totals[i] : 0;
    if (p.events[i] == "sysTime" || p.events[i] == "sysCpuTime") v *= NanosPerUnit(p, p.events[i]);
    out[p.events[i]] = v;
  }
  return out;
}

void Add(std::map<std::string, uint64_t>* acc, const std::map<std::string, uint64_t>& add) {
  for (const auto& [k, v] : add) (*acc)[k] += v;
}

void AddProfile(SimReading* r, const Profile& p) {
  Add(&r->window_totals, WindowTotals(p));
  if (std::find(r->profiles.begin(), r->profiles.end(), p.path) == r->profiles.end()) {
    r->profiles.push_back(p.path);
  }
}

std::string FileList(const std::vector<std::string>& paths) {
  std::string out;
  for (const auto& p : paths) out += (out.empty() ? "" : ", ") + p;
  return out;
}

StatusOr<SimReadings> ReadTareWindows(const std::vector<Profile>& parts, const std::vector<std::string>& paths) {
  SimReadings out;
  std::map<std::string, size_t> index;
  for (const auto& p : parts) {
    if (p.trigger.rfind(kClientRequest, 0) != 0) continue;  // the exit dump: outside every window
    std::string name = p.trigger.substr(sizeof(kClientRequest) - 1);
    auto [it, inserted] = index.emplace(name, out.benchmarks.size());
    if (inserted) {
      out.benchmarks.emplace_back();
      out.benchmarks.back().benchmark = name;
    }
    SimReading& r = out.benchmarks[it->second];
    AddProfile(&r, p);
    ++r.windows;
  }
  if (out.benchmarks.empty()) {
    return Status::FailedPrecondition(
        fmt::format("no measurement window in {}: the program never called CALLGRIND_DUMP_STATS_AT; is it a "
                    "tare benchmark binary run with TARE_INSTRUMENT=sim? (use --instrument sim on a command "
                    "to measure a whole process)",
                    FileList(paths)));
  }
  return out;
}

// Google Benchmark windows. Per timed run the dumps come in this order (observed with
// libbenchmark 1.7.1, see sim_test.cc):
//   after ResumeTiming (inside StartKeepRunning)  setup before the loop     -> dropped
//   after StartKeepRunning                        opens the run's window
//   before PauseTiming / after ResumeTiming       user pauses: the part up to the pause is kept,
//                                                 the paused part is dropped
//   before FinishKeepRunning                      the loop: kept; closes the run
//   before PauseTiming (inside FinishKeepRunning) -> dropped
// The last complete run is the one Google Benchmark reports.
StatusOr<SimReadings> ReadGbenchWindows(const std::vector<Profile>& parts, const std::vector<std::string>& paths) {
  const std::string after_start = DumpAfter(kGbStartKeepRunning);
  const std::string after_resume = DumpAfter(kGbResumeTiming);
  const std::string before_pause = DumpBefore(kGbPauseTiming);
  const std::string before_finish = DumpBefore(kGbFinishKeepRunning);
  bool in_run = false, open = false;
  SimReading current;
  std::vector<SimReading> runs;
  for (const auto& p : parts) {
    const std::string& t = p.trigger;
    if (t == after_start) {
      if (in_run) {
        return Status::FailedPrecondition(
            fmt::format("{}: a Google Benchmark timing window opened inside another one; several threads "
                        "are running the benchmark, which sim cannot separate: use the wall instrument, or "
                        "build the benchmark against tare/gbench_compat.hpp",
                        p.path));
      }
      in_run = open = true;
      current = SimReading{};
    } else if (t == after_resume) {
      if (in_run) open = true;
    } else if (t == before_pause) {
      if (in_run && open) AddProfile(&current, p);
      open = false;
    } else if (t == before_finish) {
      if (!in_run) {
        return Status::DataLoss(
            fmt::format("{}: Google Benchmark's FinishKeepRunning() was reached without StartKeepRunning(); "
                        "the dumps are incomplete",
                        p.path));
      }
      if (open) AddProfile(&current, p);
      runs.push_back(std::exchange(current, SimReading{}));  // `current` empty until the next start
      in_run = open = false;
    }
  }
  if (runs.empty()) {
    return Status::FailedPrecondition(
        fmt::format("no Google Benchmark timing window in {}: callgrind never saw {} return (is the binary "
                    "stripped, or not a Google Benchmark binary, or did the filter match nothing?)",
                    FileList(paths), kGbStartKeepRunning));
  }
  SimReadings out;
  out.benchmarks.push_back(std::move(runs.back()));
  out.benchmarks.back().windows = static_cast<int64_t>(runs.size());
  return out;
}

}  // namespace

StatusOr<std::string> FindValgrind(const std::string& search_path) {
  std::string path = search_path;
  if (path.empty()) {
    const char* env = std::getenv("PATH");
    path = env ? env : "/usr/local/bin:/usr/bin:/bin";
  }
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t end = path.find(':', pos);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(pos, end - pos);
    std::string candidate = (dir.empty() ? "." : dir) + "/valgrind";
    struct stat st;
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0) {
      return std::filesystem::absolute(candidate).lexically_normal().string();
    }
    pos = end + 1;
  }
  return Status::Unavailable("valgrind is not installed; install the Debian package: apt-get install valgrind");
}

std::vector<std::string> SimValgrindOptions(const SimOptions& o) {
  std::vector<std::string> args = {
      "--tool=callgrind",
      // The fixed cache model (kSimI1...): counts must not depend on the host's caches.
      "--cache-sim=yes",
      fmt::format("--I1={}", kSimI1),
      fmt::format("--D1={}", kSimD1),
      fmt::format("--LL={}", kSimLL),
      // System calls are not simulated; counting them and their time lets tare say so.
      "--collect-systime=nsec",
      // One file per dump; %p keeps a forked child from overwriting its parent's profile.
      fmt::format("--callgrind-out-file={}/{}%p", o.profile_dir, kProfilePrefix),
      // valgrind's own messages go to a file, so the program's stderr stays the user's.
      fmt::format("--log-file={}/valgrind.%p.log", o.profile_dir),
      // Source lines, not instruction addresses: profiles stay small and diff across builds.
      "--dump-instr=no",
      // Children started with exec are not measured (see docs/sim.md).
      "--trace-children=no",
  };
  switch (o.target) {
    case SimTarget::kTareBinary:
      // The library's client requests open the windows; nothing before them is simulated.
      args.push_back("--instr-atstart=no");
      break;
    case SimTarget::kCommand:
      args.push_back("--instr-atstart=yes");
      break;
    case SimTarget::kGoogleBenchmark:
      args.push_back("--instr-atstart=yes");
      args.push_back(DumpAfter(kGbStartKeepRunning));
      args.push_back(DumpBefore(kGbFinishKeepRunning));
      if (o.gbench_exclude_paused) {
        args.push_back(DumpBefore(kGbPauseTiming));
        args.push_back(DumpAfter(kGbResumeTiming));
      }
      break;
  }
  return args;
}

std::vector<std::string> SimCommand(const SimOptions& options, const std::vector<std::string>& target_argv) {
  std::vector<std::string> argv = {options.valgrind};
  auto opts = SimValgrindOptions(options);
  argv.insert(argv.end(), opts.begin(), opts.end());
  argv.insert(argv.end(), target_argv.begin(), target_argv.end());
  return argv;
}

std::vector<std::string> SimEnvironment(const SimOptions& options, std::vector<std::string> env) {
  env.erase(std::remove_if(env.begin(), env.end(),
                           [](const std::string& kv) {
                             return kv.rfind("VALGRIND_OPTS=", 0) == 0 || kv.rfind("LD_BIND_NOW=", 0) == 0;
                           }),
            env.end());
  if (options.target != SimTarget::kCommand) env.push_back("LD_BIND_NOW=1");
  return env;
}

std::vector<std::string> SetarchPrefix() {
  struct utsname u;
  std::string machine = uname(&u) == 0 ? u.machine : "x86_64";
  return {"setarch", machine, "-R"};
}

GbenchFlagSupport DetectGbenchFlagSupport(const std::string& help_text) {
  GbenchFlagSupport s;
  s.min_warmup_time = help_text.find("--benchmark_min_warmup_time") != std::string::npos;
  // 1.8.0's usage line: [--benchmark_min_time=`<integer>x` OR `<float>s` ]
  s.iteration_suffix = help_text.find("<integer>x") != std::string::npos;
  return s;
}

std::vector<std::string> GoogleBenchmarkSimFlags(const GbenchFlagSupport& support, int64_t iterations) {
  std::vector<std::string> flags = {"--benchmark_repetitions=1"};
  if (support.iteration_suffix) {
    flags.push_back(fmt::format("--benchmark_min_time={}x", iterations > 0 ? iterations : 1));
  } else {
    flags.push_back("--benchmark_min_time=0");
  }
  if (support.min_warmup_time) flags.push_back("--benchmark_min_warmup_time=0.000000001");
  return flags;
}

StatusOr<std::vector<std::string>> SimProfileFiles(const std::string& profile_dir) {
  std::error_code ec;
  std::filesystem::directory_iterator it(profile_dir, ec);
  // (pid, dump number; the exit dump, which has no number, comes last), path
  std::vector<std::tuple<uint64_t, uint64_t, std::string>> found;
  // The error_code forms throughout: the benchmark controls this directory, and a symlink loop
  // makes the throwing forms of is_regular_file() throw (ELOOP).
  for (; !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::filesystem::directory_entry& entry = *it;
    std::error_code type_ec;
    if (!entry.is_regular_file(type_ec)) continue;
    std::string name = entry.path().filename().string();
    if (name.rfind(kProfilePrefix, 0) != 0) continue;
    std::string rest = name.substr(sizeof(kProfilePrefix) - 1);
    size_t dot = rest.find('.');
    std::optional<uint64_t> pid = FileNameNumber(rest.substr(0, dot));
    std::optional<uint64_t> dump = dot == std::string::npos
                                       ? std::optional<uint64_t>(UINT64_MAX)  // the exit dump: last
                                       : FileNameNumber(rest.substr(dot + 1));
    if (!pid || !dump) continue;  // not a name valgrind writes
    found.emplace_back(*pid, *dump, entry.path().string());
  }
  if (ec) {
    return Status::NotFound(fmt::format("cannot read the profile directory '{}': {}", profile_dir, ec.message()));
  }
  if (found.empty()) {
    return Status::NotFound(fmt::format(
        "valgrind wrote no callgrind profile in '{}'; its messages are in valgrind.<pid>.log there", profile_dir));
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (auto& f : found) out.push_back(std::get<2>(f));
  return out;
}

std::optional<CycleEstimate> EstimateCyclesIaiV1(const std::map<std::string, uint64_t>& t) {
  for (const char* e : {"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"}) {
    if (!t.count(e)) return std::nullopt;
  }
  // Doubles: per-iteration division follows, and every count is far below 2^53.
  double ram = static_cast<double>(t.at("ILmr") + t.at("DLmr") + t.at("DLmw"));
  double l1_misses = static_cast<double>(t.at("I1mr") + t.at("D1mr") + t.at("D1mw"));
  double accesses = static_cast<double>(t.at("Ir") + t.at("Dr") + t.at("Dw"));
  CycleEstimate c;
  c.ram_hits = ram;
  c.ll_hits = l1_misses - ram;  // an LL miss is always an L1 miss first, so this is >= 0
  c.l1_hits = accesses - c.ll_hits - c.ram_hits;
  c.cycles = c.l1_hits + 5 * c.ll_hits + 35 * c.ram_hits;
  return c;
}

void ComputeSimMetrics(SimReading* r) {
  double divisor = r->iterations > 0 ? static_cast<double>(r->iterations) : 1.0;
  r->values.clear();
  r->warnings.clear();
  r->cycle_model.clear();
  for (const auto& [event, total] : r->window_totals) {
    auto it = MetricNames().find(event);
    std::string name = it != MetricNames().end() ? it->second : metric_name::kSimPrefix + event;
    r->values[name] = static_cast<double>(total) / divisor;
  }
  if (auto c = EstimateCyclesIaiV1(r->window_totals)) {
    r->values[metric_name::kSimEstCycles] = c->cycles / divisor;
    r->cycle_model = kSimCycleModel;
  }

  std::string who = r->benchmark.empty() ? "" : r->benchmark + ": ";
  std::string per = r->iterations > 0 ? "per iteration" : "in the whole window";
  double ir = r->values.count(metric_name::kSimIr) ? r->values[metric_name::kSimIr] : 0;
  if (ir < kNoWorkInstructions) {
    r->warnings.push_back({SimWarning::Kind::kMeasuredNoWork,
                           fmt::format("{}measured no work ({} instructions {}): likely optimised away; use "
                                       "tare::do_not_optimize (benchmark::DoNotOptimize in Google Benchmark code) "
                                       "on the result",
                                       who, Num(ir), per)});
  }
  double sys_ns = r->values.count(metric_name::kSimSyscallNs) ? r->values[metric_name::kSimSyscallNs] : 0;
  const double calls_in_window =
      (r->values.count(metric_name::kSimSyscalls) ? r->values[metric_name::kSimSyscalls] : 0) * divisor;
  if (sys_ns > 0 && calls_in_window >= kSyscallHeavyMinCalls) {
    double cycles = r->values.count(metric_name::kSimEstCycles) ? r->values[metric_name::kSimEstCycles] : ir;
    double work_ns = cycles / kNominalCyclesPerNs;
    double share = sys_ns / (sys_ns + work_ns);
    if (share > kSyscallHeavyShare) {
      r->warnings.push_back({SimWarning::Kind::kSyscallHeavy,
                             fmt::format("{}syscall-heavy: {} system calls took {:.0f}% of the estimated time "
                                         "({} ns against {} ns of simulated work at {} GHz); simulation does not "
                                         "count kernel work; compare with the wall instrument",
                                         who, Num(r->values[metric_name::kSimSyscalls]), 100 * share, Num(sys_ns),
                                         Num(std::round(work_ns)), Num(kNominalCyclesPerNs))});
    }
  }
}

StatusOr<SimReadings> ReadSimResults(SimTarget target, const std::vector<std::string>& profile_paths,
                                     int64_t iterations, int gbench_threads) {
  if (profile_paths.empty()) return Status::InvalidArgument("no callgrind profiles to read");
  if (target == SimTarget::kGoogleBenchmark) {
    if (gbench_threads > 1) {
      return Status::FailedPrecondition(
          fmt::format("the benchmark runs on {} threads; callgrind serialises threads and its dumps cover the "
                      "whole process, so per-thread timing windows cannot be separated: measure it with the "
                      "wall instrument, or build it against tare/gbench_compat.hpp",
                      gbench_threads));
    }
    if (iterations <= 0) {
      return Status::InvalidArgument(
          "Google Benchmark under sim needs the iteration count it reported (\"iterations\" in "
          "its JSON output)");
    }
  }
  std::vector<Profile> parts;
  for (const auto& path : profile_paths) {
    TARE_ASSIGN_OR_RETURN(auto file_parts, ReadCallgrindProfile(path));
    for (auto& p : file_parts) parts.push_back(std::move(p));
  }
  // Dump order: by process, then valgrind's part number.
  std::stable_sort(parts.begin(), parts.end(), [](const Profile& a, const Profile& b) {
    return std::tie(a.pid, a.part) < std::tie(b.pid, b.part);
  });

  SimReadings out;
  switch (target) {
    case SimTarget::kTareBinary: {
      TARE_ASSIGN_OR_RETURN(out, ReadTareWindows(parts, profile_paths));
      break;
    }
    case SimTarget::kGoogleBenchmark: {
      TARE_ASSIGN_OR_RETURN(out, ReadGbenchWindows(parts, profile_paths));
      if (out.benchmarks[0].windows > 2) {
        // With GoogleBenchmarkSimFlags() there is one warm-up run and one timed run.
        out.benchmarks[0].warnings.push_back(
            {SimWarning::Kind::kIterationsNotFixed,
             fmt::format("Google Benchmark timed {} runs before reporting, so it calibrated the "
                         "iteration count (the benchmark sets MinTime() or similar): the values "
                         "are exact for the reported run, but the count can change between "
                         "reruns; fix it with ->Iterations(n), or build the benchmark against "
                         "tare/gbench_compat.hpp",
                         out.benchmarks[0].windows)});
      }
      break;
    }
    case SimTarget::kCommand: {
      SimReading r;
      for (const auto& p : parts) {
        AddProfile(&r, p);
        ++r.windows;
      }
      out.benchmarks.push_back(std::move(r));
      break;
    }
  }
  for (auto& r : out.benchmarks) {
    r.iterations = iterations > 0 ? iterations : 0;
    std::vector<SimWarning> earlier = std::move(r.warnings);
    ComputeSimMetrics(&r);
    r.warnings.insert(r.warnings.end(), earlier.begin(), earlier.end());
  }
  return out;
}

}  // namespace tare::instrument
