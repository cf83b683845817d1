// Standalone mode: the benchmark binary run by hand, without tare. Lists or runs the benchmarks in
// this one process and prints a table. Useful while writing benchmarks; for comparisons use
// `tare run`, which starts a fresh process per sample (state such as the allocator's carries from
// one benchmark to the next inside a process: examples/allocator_ripple shows by how much).
#include "lib/standalone.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "lib/calibration.h"
#include "lib/registry.h"
#include "lib/run_context.h"

namespace tare::internal {
namespace {

constexpr const char* kUsage =
    "usage: %s [--list] [--filter REGEX] [--min-time-ms N] [--repetitions N]\n"
    "  --list             print the benchmark names, one per line\n"
    "  --filter REGEX     run only benchmarks whose name matches (search, ECMAScript syntax)\n"
    "  --min-time-ms N    calibrate each benchmark's window to at least N ms (default 100)\n"
    "  --repetitions N    samples per benchmark; the table shows their median (default 3)\n"
    "Google Benchmark spellings --benchmark_list_tests and --benchmark_filter=REGEX also work.\n"
    "Run under tare (`tare run <binary>`) for isolated, compared, stored measurements.\n";

struct Options {
  bool list = false;
  std::string filter;
  uint64_t min_time_ms = 100;
  uint64_t repetitions = 3;
};

bool ParseCount(const std::string& text, uint64_t* out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  *out = std::strtoull(text.c_str(), nullptr, 10);
  return *out > 0;
}

// Returns 0 to go on, or an exit status to stop with (help printed: 0 is returned as -1).
int ParseOptions(int argc, char** argv, Options* opt) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const std::string& flag, std::string* out) {
      if (a == flag && i + 1 < argc) {
        *out = argv[++i];
        return true;
      }
      if (a.rfind(flag + "=", 0) == 0) {
        *out = a.substr(flag.size() + 1);
        return true;
      }
      return false;
    };
    std::string v;
    if (a == "--help" || a == "-h") {
      std::printf(kUsage, argv[0]);
      return -1;
    } else if (a == "--list" || a == "--benchmark_list_tests" || a == "--benchmark_list_tests=true") {
      opt->list = true;
    } else if (value("--filter", &opt->filter) || value("--benchmark_filter", &opt->filter)) {
    } else if (value("--min-time-ms", &v)) {
      if (!ParseCount(v, &opt->min_time_ms)) {
        std::fprintf(stderr, "tare: --min-time-ms needs a positive integer, got '%s'\n", v.c_str());
        return 2;
      }
    } else if (value("--repetitions", &v)) {
      if (!ParseCount(v, &opt->repetitions)) {
        std::fprintf(stderr, "tare: --repetitions needs a positive integer, got '%s'\n", v.c_str());
        return 2;
      }
    } else {
      std::fprintf(stderr, "tare: unknown argument '%s'\n", a.c_str());
      std::fprintf(stderr, kUsage, argv[0]);
      return 2;
    }
  }
  return 0;
}

const char* UnitSuffix(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMicrosecond:
      return "us";
    case TimeUnit::kMillisecond:
      return "ms";
    case TimeUnit::kSecond:
      return "s";
    default:
      return "ns";
  }
}

double UnitScale(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMicrosecond:
      return 1e3;
    case TimeUnit::kMillisecond:
      return 1e6;
    case TimeUnit::kSecond:
      return 1e9;
    default:
      return 1.0;
  }
}

std::string Duration(double ns, TimeUnit unit) {
  char buf[64];
  const double v = ns / UnitScale(unit);
  std::snprintf(buf, sizeof buf,
                v >= 100  ? "%.0f %s"
                : v >= 10 ? "%.1f %s"
                : v >= 1  ? "%.2f %s"
                          : "%.3g %s",
                v, UnitSuffix(unit));
  return buf;
}

std::string Number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int RunStandalone(int argc, char** argv) {
  Options opt;
  if (int rc = ParseOptions(argc, argv, &opt); rc != 0) return rc < 0 ? 0 : rc;

  std::vector<Instance> instances;
  std::string error;
  if (!Registry::Global().Instances(&instances, &error)) {
    std::fprintf(stderr, "tare: %s\n", error.c_str());
    return 3;
  }
  if (!opt.filter.empty()) {
    std::regex re;
    try {
      re = std::regex(opt.filter, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      std::fprintf(stderr, "tare: --filter '%s' is not a valid regular expression: %s\n", opt.filter.c_str(), e.what());
      return 2;
    }
    std::erase_if(instances, [&re](const Instance& i) { return !std::regex_search(i.name, re); });
  }
  if (opt.list) {
    for (const auto& inst : instances) std::printf("%s\n", inst.name.c_str());
    return 0;
  }
  if (instances.empty()) {
    std::fprintf(stderr, "tare: no benchmark matches '%s'; --list shows the names\n", opt.filter.c_str());
    return 2;
  }

  size_t width = 9;
  for (const auto& inst : instances) width = std::max(width, inst.name.size());
  std::printf("%-*s %14s %14s %12s  %s\n", int(width), "benchmark", "wall/iter", "cpu/iter", "iterations",
              "per iteration");
  std::fflush(stdout);
  int status = 0;
  for (const auto& inst : instances) {
    Calibration c = Calibrate(inst, opt.min_time_ms * 1000000, Instrument::kWall, nullptr);
    std::vector<SampleReadings> samples;
    std::string failure = c.error;
    for (uint64_t rep = 0; failure.empty() && rep < opt.repetitions; ++rep) {
      samples.push_back(RunSample(inst, c.iters, Instrument::kWall, nullptr));
      failure = samples.back().error;
    }
    if (!failure.empty()) {
      std::printf("%-*s %14s  %s\n", int(width), inst.name.c_str(), "ERROR", failure.c_str());
      std::fflush(stdout);
      status = 3;
      continue;
    }
    std::vector<double> wall, cpu;
    for (const auto& s : samples) {
      wall.push_back(double(s.wall_ns) / double(s.iters));
      cpu.push_back(double(s.cpu_ns) / double(s.iters));
    }
    const TimeUnit unit = inst.family->time_unit();
    const SampleReadings& first = samples.front();
    std::string extra;
    for (const auto& [name, total] : first.counters) {
      extra += name + "=" + Number(total / double(first.iters)) + " ";
    }
    for (const auto& [name, value] : first.gauges) extra += name + "=" + Number(value) + " ";
    if (first.latency) {
      extra += "p50=" + Duration(double(first.latency->p50_ns), unit) +
               " p99=" + Duration(double(first.latency->p99_ns), unit) + " ";
    }
    std::printf("%-*s %14s %14s %12llu  %s%s\n", int(width), inst.name.c_str(), Duration(Median(wall), unit).c_str(),
                Duration(Median(cpu), unit).c_str(), static_cast<unsigned long long>(c.iters), extra.c_str(),
                c.capped ? "(iteration cap reached: is the work optimised away?)" : "");
    std::fflush(stdout);
  }
  return status;
}

}  // namespace tare::internal
