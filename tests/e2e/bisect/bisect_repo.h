// What both bisect e2e suites build their test repositories with: a shell step, and the source of a
// tare benchmark binary with two benchmarks whose work is set per commit.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <string>

namespace tare::e2e {

inline int Sh(const std::string& command) {
  int rc = std::system(command.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

// bm.cc: benchmarks `a` and `b` doing `a_work` and `b_work` rounds of a loop the compiler keeps.
inline std::string TwoBenchmarks(const std::string& a, long a_work, const std::string& b, long b_work,
                                 const std::string& extra = "") {
  return "#include <tare/tare.hpp>\n"
         "static volatile long " +
         a + "_n = " + std::to_string(a_work) +
         ";\n"
         "static volatile long " +
         b + "_n = " + std::to_string(b_work) +
         ";\n"
         "static long Work(long n) { long s = 1; for (long i = 0; i < n; ++i) s = s * 31 + (i ^ (s >> 7)); return s; "
         "}\n"
         "static void " +
         a + "(tare::State& state) { for (auto _ : state) tare::do_not_optimize(Work(" + a +
         "_n)); }\n"
         "static void " +
         b + "(tare::State& state) { for (auto _ : state) tare::do_not_optimize(Work(" + b +
         "_n)); }\n"
         "TARE_BENCHMARK(" +
         a + ");\nTARE_BENCHMARK(" + b + ");\n" + extra + "TARE_MAIN();\n";
}

}  // namespace tare::e2e
