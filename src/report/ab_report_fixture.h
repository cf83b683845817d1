// A fixed `tare ab` cohort report for the report tests (ledger_test.cc, ledger_agreement_test.cc):
// two cells of ab_knob, a FAIL and a control cell INCONCLUSIVE by a failed sample, with a null arm,
// a gate and a bound, two cohorts and a note. The golden ledger testdata/ledger_fail.md renders it.
#pragma once

#include <string>

#include "report/ab_report.h"

namespace tare::report::fixture {

inline AbMetricResult Wall(double est, double lo, double hi, Verdict v) {
  AbMetricResult m;
  m.metric = "wall_ns";
  m.unit = "ns";
  m.allowance = "noise";
  m.pairs = 40;
  m.confidence = 0.9875;
  m.estimate = est;
  m.lo = lo;
  m.hi = hi;
  m.base_median = 12.1e6;
  m.head_median = 12.1e6 * (1 + est);
  m.has_null = true;
  m.null_estimate = 0.0005;
  m.null_lo = -0.0040;
  m.null_hi = 0.0061;
  m.noise_floor = 0.0061;
  m.delta = 0.0061;
  m.pass_bound = 0.0061;
  m.verdict = v;
  return m;
}

inline AbReport Fixed() {
  AbReport r;
  r.campaign_name = "ab_knob: +3% extra work";
  r.campaign_sha256 = "3f2a9c1e4b7d2a0f3f2a9c1e4b7d2a0f3f2a9c1e4b7d2a0f3f2a9c1e4b7d2a0f";
  r.campaign_source = "file:/src/tare/examples/ab_knob/campaign.toml";
  r.run_id = 14;
  r.cohort = 2;
  r.state = CohortState::kComplete;
  r.resumed = 1;
  r.lock_sha256 = "9c1e4b7d2a0f9c1e4b7d2a0f9c1e4b7d2a0f9c1e4b7d2a0f9c1e4b7d2a0f9c1e";
  r.tare_version = "0.1.0";
  r.started_unix_ns = 1735787045000000000;  // 2025-01-02 03:04:05 UTC
  r.ended_unix_ns = 1735787105000000000;
  r.host = "AMD EPYC 7B13, 2 logical CPUs, Linux 6.1.0-18-cloud-amd64";
  r.fingerprint_digest = "4d5e6f7a8b9c4d5e6f7a8b9c4d5e6f7a8b9c4d5e6f7a8b9c4d5e6f7a8b9c4d5e";
  r.host_warnings = {"load average 2.1 on 2 CPUs; stop other work while measuring"};
  r.kind = TargetKind::kCommand;
  r.args = {"--work", "8"};
  r.arm_order = "rotating-reversed-blocks-v1";
  r.sampling = {10, 10, 40};
  r.budget_ns = 60'000'000'000;
  r.budget_default = true;
  r.confidence = 0.95;
  r.look_scheme = "bonferroni-v1";
  r.per_look_confidence = 0.9875;
  r.look_pairs = {10, 20, 30, 40};
  r.noise_floor_rule = "null-interval-edge-v1";
  r.noise_cap = 0.02;
  r.arms = {{"base", ArmRole::kBase, "/b/ab_knob_base", "/w/.tare/bin/base", std::string(64, 'a')},
            {"head", ArmRole::kHead, "/b/ab_knob_plus3", "/w/.tare/bin/head", std::string(64, 'b')},
            {"null", ArmRole::kNull, "/b/ab_knob_base", "/w/.tare/bin/null", std::string(64, 'a')}};
  AbComparison fail;
  fail.cell = "--work 8";
  fail.head = "head";
  fail.blocks = 40;
  fail.looks = 4;
  fail.verdict = Verdict::kFail;
  fail.metrics = {Wall(0.0302, 0.0241, 0.0370, Verdict::kFail)};
  AbComparison control;
  control.cell = "--work 2";
  control.role = CellRole::kControl;
  control.head = "head";
  control.blocks = 10;
  control.looks = 1;
  control.verdict = Verdict::kInconclusive;
  control.failed_samples = 1;
  control.reasons = {
      "1 failed sample in this cell (first: null block 4: killed by signal 9); blocks with a "
      "failed sample are left out of the pairs, and no PASS is certified"};
  AbMetricResult m = Wall(-0.0012, -0.0090, 0.0071, Verdict::kPass);
  m.pairs = 9;
  m.allowance = "2%";
  m.declared = 0.02;
  m.delta = 0.02;
  m.pass_bound = 0.02;
  m.base_median = 3.2e6;
  m.head_median = 3.1962e6;
  control.metrics = {m};
  r.comparisons = {fail, control};
  r.checks = {{CheckKind::kGate, "peak_rss_bytes(head) <= 1.5 * peak_rss_bytes(base) + 8MiB", "--work 8", "head", 1.5e6,
               10.6e6, "bytes", true},
              {CheckKind::kBound, "p95(wall_ns, head) <= 25ms", "--work 8", "head", 12.9e6, 25e6, "ns", true}};
  r.cohorts = {{1,
                12,
                1735786000000000000,
                CohortState::kInterrupted,
                "",
                "",
                std::string(64, '1'),
                {std::string(64, 'b')},
                45,
                false},
               {2,
                14,
                1735787045000000000,
                CohortState::kComplete,
                "",
                "FAIL",
                r.lock_sha256,
                {std::string(64, 'b')},
                240,
                true}};
  r.notes = {"Iteration counts: fixed by the target (whole-process commands)."};
  r.samples = 240;
  r.outcome = Verdict::kFail;
  r.has_verdicts = true;
  return r;
}

}  // namespace tare::report::fixture
