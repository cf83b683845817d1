// The names of the metrics that code outside the catalogue produces or reads by name: one constant
// each, and the prefixes of the families. The catalogue (metric.cc) defines what each means; this
// header is only how other modules spell them, so a renamed metric is renamed in one place.
//
// A string literal that is a metric name, outside src/model/, fails `module_rules.sources`
// (tests/module_rules/check_sources.cmake): spell it with a constant here, or — better, where the
// question is about a property — ask the catalogue (`CountsInstructions` in metric.h) instead of
// listing names. A line that holds a dotted name which is not a metric (a host fingerprint field)
// says so with the comment `not a metric`.
#pragma once

namespace tare::metric_name {

// The whole process, from wait4's rusage (instrument/process_metrics.h).
inline constexpr char kUserNs[] = "user_ns";
inline constexpr char kSysNs[] = "sys_ns";

// perf_event counters (instrument/process_metrics.h names them "perf." + the event's name).
inline constexpr char kPerfPrefix[] = "perf.";
inline constexpr char kPerfTaskClockNs[] = "perf.task_clock_ns";
inline constexpr char kPerfInstructions[] = "perf.instructions";

// Google Benchmark's report.
inline constexpr char kGbRealTimeNs[] = "gb.real_time_ns";
inline constexpr char kGbCpuTimeNs[] = "gb.cpu_time_ns";
inline constexpr char kGbIterations[] = "gb.iterations";
inline constexpr char kGbCounterPrefix[] = "gb.counter.";  // user counters: "gb.counter." + name

// The tare library's measurement window.
inline constexpr char kBenchPrefix[] = "bench.";  // counters and gauges: "bench." + name
inline constexpr char kBenchUserPrefix[] = "bench.user.";
inline constexpr char kBenchWallNs[] = "bench.wall_ns";
inline constexpr char kBenchCpuNs[] = "bench.cpu_ns";
inline constexpr char kBenchIterations[] = "bench.iterations";
inline constexpr char kBenchLatencyP50Ns[] = "bench.latency_p50_ns";
inline constexpr char kBenchLatencyP95Ns[] = "bench.latency_p95_ns";
inline constexpr char kBenchLatencyP99Ns[] = "bench.latency_p99_ns";
inline constexpr char kBenchLatencyMaxNs[] = "bench.latency_max_ns";

// valgrind (the sim instrument): callgrind's events are "sim." + the event's name, but for these.
inline constexpr char kSimPrefix[] = "sim.";
inline constexpr char kSimIr[] = "sim.Ir";
inline constexpr char kSimI1mr[] = "sim.I1mr";
inline constexpr char kSimD1mr[] = "sim.D1mr";
inline constexpr char kSimD1mw[] = "sim.D1mw";
inline constexpr char kSimILmr[] = "sim.ILmr";
inline constexpr char kSimDLmr[] = "sim.DLmr";
inline constexpr char kSimDLmw[] = "sim.DLmw";
inline constexpr char kSimSyscalls[] = "sim.syscalls";
inline constexpr char kSimSyscallNs[] = "sim.syscall_ns";
inline constexpr char kSimSyscallCpuNs[] = "sim.syscall_cpu_ns";
inline constexpr char kSimEstCycles[] = "sim.est_cycles";

// The allocation shim (the mem instrument): "mem." + the shim's field.
inline constexpr char kMemPrefix[] = "mem.";
inline constexpr char kMemAllocs[] = "mem.allocs";
inline constexpr char kMemFrees[] = "mem.frees";
inline constexpr char kMemBytesAllocated[] = "mem.bytes_allocated";
inline constexpr char kMemPeakLiveBytes[] = "mem.peak_live_bytes";

// What a program reports about itself in $TARE_METRICS_FILE (target/self_metrics.h).
inline constexpr char kAppPrefix[] = "app.";

}  // namespace tare::metric_name
