#include "compare/history.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <span>

#include <fmt/core.h>

#include "base/numbers.h"
#include "base/terminal_text.h"
#include "base/units.h"
#include "stats/change_point.h"
#include "stats/outliers.h"
#include "stats/summary.h"
#include "stats/two_sample_shift.h"

namespace tare::compare {
namespace {

constexpr int64_t kDefaultSegment = 5;   // runs on each side of a change point
constexpr int64_t kShortestSegment = 3;  // the fewest a short series goes down to
constexpr int64_t kOutlierSegment = 5;   // the fewest runs of a level whose outliers are marked
constexpr double kOutlierZ = 3.5;        // robust standard deviations (stats::CountMadOutliers' z)

std::string BranchCode(const RunRecord& r) {
  const Provenance& p = r.provenance;
  std::string code = p.branch;
  if (!p.commit.empty()) code += (code.empty() ? "" : "@") + p.commit.substr(0, 12);
  if (p.dirty && *p.dirty) code += "+";
  return code.empty() ? "-" : code;
}

std::string When(int64_t unix_ns) {
  std::time_t t = static_cast<std::time_t>(unix_ns / 1000000000);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", std::gmtime(&t));
  return buf;
}

std::string StepPct(double f) {
  if (std::isinf(f)) return f > 0 ? "+inf" : "-inf";
  return fmt::format("{:+.2f}%", f * 100);
}

std::string StepText(const HistoryStep& s) {
  if (!s.interval_note.empty() || !std::isfinite(s.lo) || !std::isfinite(s.hi)) {
    return fmt::format("{} (no interval: {})", StepPct(s.change), s.interval_note);
  }
  return fmt::format("{} [{}, {}]", StepPct(s.change), StepPct(s.lo), StepPct(s.hi));
}

}  // namespace

History BuildHistory(std::vector<HistoryInput> inputs, const HistoryOptions& o) {
  History h;
  std::vector<double> series;       // medians of the runs that have values
  std::vector<size_t> series_rows;  // their row index
  for (auto& in : inputs) {
    HistoryRow row;
    row.run = std::move(in.run);
    row.n = in.n;
    row.failed = in.failed;
    row.median = in.n == 0 ? kNaN : in.median;
    if (in.n > 0) {
      series.push_back(row.median);
      series_rows.push_back(h.rows.size());
    }
    h.rows.push_back(std::move(row));
  }
  stats::ChangePointOptions cpo;
  const auto n = static_cast<int64_t>(series.size());
  cpo.min_segment = o.min_segment > 0 ? o.min_segment : std::clamp<int64_t>(n / 2, kShortestSegment, kDefaultSegment);
  h.min_segment = cpo.min_segment;
  if (n < 2 * cpo.min_segment) {
    h.note = fmt::format("{} run{} with values: a change point needs {} on each side ({} in all), {} more run{}", n,
                         n == 1 ? "" : "s", cpo.min_segment, 2 * cpo.min_segment, 2 * cpo.min_segment - n,
                         2 * cpo.min_segment - n == 1 ? "" : "s");
  }
  cpo.threshold = o.threshold;
  cpo.min_relative_change = o.min_change;
  const auto found = stats::DetectChangePoints(series, cpo);
  const double sigma = stats::SuccessiveDifferenceSigma(series);
  // The series' own run-to-run drift, from the consecutive runs within its levels (the pairs that
  // straddle a change point left out): the same estimate `tare compare` holds one run per side
  // against (stats/run_drift.h).
  std::vector<int64_t> breaks;
  for (const auto& cp : found) breaks.push_back(cp.index);
  h.drift = stats::RunToRunDrift(series, breaks);

  // The steps of the series cut at `cuts` (indices into series), with their intervals, and each
  // row's level and outlier mark.
  auto segment = [&](const std::vector<stats::ChangePoint>& cuts) {
    std::vector<HistoryStep> steps;
    std::vector<size_t> starts = {0};
    for (const auto& cp : cuts) starts.push_back(static_cast<size_t>(cp.index));
    starts.push_back(series.size());
    for (size_t s = 0; s + 1 < starts.size(); ++s) {
      std::vector<double> seg(series.begin() + static_cast<std::ptrdiff_t>(starts[s]),
                              series.begin() + static_cast<std::ptrdiff_t>(starts[s + 1]));
      const auto mad = stats::CountMadOutliers(seg);
      const double limit = std::max(mad.threshold, kOutlierZ * sigma);
      for (size_t i = starts[s]; i < starts[s + 1]; ++i) {
        HistoryRow& row = h.rows[series_rows[i]];
        row.segment = static_cast<int64_t>(s);
        row.outlier = static_cast<int64_t>(seg.size()) >= kOutlierSegment &&
                      std::fabs(series[i] - mad.median) > limit && series[i] != mad.median;
      }
      if (s == 0) continue;
      // The step into segment s, against segment s - 1.
      auto span = [&](size_t b, size_t e) {
        return std::span<const double>(series).subspan(starts[b], starts[e] - starts[b]);
      };
      std::vector<double> before, after;
      for (double v : span(s - 1, s)) before.push_back(std::log(v));
      for (double v : span(s, s + 1)) after.push_back(std::log(v));
      HistoryStep st;
      st.index = static_cast<int64_t>(series_rows[starts[s]]);
      st.before = h.rows[series_rows[starts[s] - 1]].run;
      st.after = h.rows[series_rows[starts[s]]].run;
      st.median_before = stats::Median(span(s - 1, s));
      st.median_after = stats::Median(span(s, s + 1));
      st.score = cuts[s - 1].score;
      st.change = st.median_before != 0 ? st.median_after / st.median_before - 1 : kNaN;
      st.lo = st.hi = kNaN;
      const auto both = std::span<const double>(series).subspan(starts[s - 1], starts[s + 1] - starts[s - 1]);
      if (std::all_of(both.begin(), both.end(), [](double v) { return v > 0; })) {
        auto shift = stats::TwoSampleShift(before, after, 0.95);
        if (shift.ok() && std::isfinite(shift->lo) && std::isfinite(shift->hi)) {
          st.lo = std::expm1(shift->lo);
          st.hi = std::expm1(shift->hi);
        } else {
          st.interval_note = fmt::format("{} and {} runs are too few for a 95% interval (4 and 4 give one)",
                                         before.size(), after.size());
        }
      } else {
        st.interval_note = "values that are zero or negative have no ratio";
      }
      steps.push_back(st);
    }
    return steps;
  };
  // A step is a change only when it stands beyond the drift, as compare's rule: its interval's
  // near end past ±drift (without an interval, the step itself). Values with no ratio, or a series
  // too short for a drift estimate, keep every step the detector found.
  std::vector<stats::ChangePoint> kept;
  const auto first = segment(found);
  for (size_t i = 0; i < first.size(); ++i) {
    const HistoryStep& st = first[i];
    bool beyond = true;
    if (h.drift && std::isfinite(st.change)) {
      const double d = h.drift->bound;
      beyond = st.interval_note.empty() ? (st.lo > d || st.hi < -d) : std::fabs(st.change) > d;
    }
    if (beyond) {
      kept.push_back(found[i]);
    } else {
      h.within_drift.push_back(st);
    }
  }
  h.steps = kept.size() == found.size() ? first : segment(kept);
  return h;
}

std::string DriftLabel(const History& h) {
  if (!h.drift) {
    return fmt::format("host drift unknown (fewer than {} run-to-run differences within a level)",
                       stats::kMinDriftPairs);
  }
  return fmt::format("host drift ±{:.2f}% ({} run-to-run differences)", h.drift->bound * 100, h.drift->pairs);
}

std::string RenderHistoryConsole(const History& h) {
  std::string out = fmt::format("{} {} on host {}{}: {} runs, {} change point{}\n", SingleLineText(h.benchmark),
                                SingleLineText(h.metric), h.host.substr(0, 12),
                                h.branch.empty() ? "" : fmt::format(" (branch {})", SingleLineText(h.branch)),
                                h.rows.size(), h.steps.size(), h.steps.size() == 1 ? "" : "s");
  if (!h.note.empty()) out += fmt::format("({})\n", h.note);
  if (h.other_model_runs > 0) {
    out += fmt::format(
        "({} runs whose {} another model computed not shown: this series is model {}; values of "
        "different models are never set side by side)\n",
        h.other_model_runs, SingleLineText(h.metric), SingleLineText(h.model));
  }
  if (h.other_hosts_runs > 0) {
    out += fmt::format("({} runs on other hosts not shown: results are never pooled across hosts; --host DIGEST)\n",
                       h.other_hosts_runs);
  }
  struct Row {
    std::string id, when, code, n, median, note;
  };
  std::vector<Row> rows;
  size_t step = 0;
  for (size_t i = 0; i < h.rows.size(); ++i) {
    const auto& r = h.rows[i];
    std::string note;
    if (step < h.steps.size() && static_cast<size_t>(h.steps[step].index) == i) {
      const auto& s = h.steps[step++];
      note = "<- change point: " + StepText(s);
    }
    if (r.outlier) note += std::string(note.empty() ? "" : "; ") + "outlier";
    if (r.failed > 0) note += std::string(note.empty() ? "" : "; ") + fmt::format("{} failed", r.failed);
    rows.push_back({std::to_string(r.run.id), When(r.run.started_unix_ns), SingleLineText(BranchCode(r.run)),
                    std::to_string(r.n), std::isnan(r.median) ? "-" : FormatValue(r.median, h.unit), note});
  }
  size_t w[5] = {3, 16, 4, 1, 6};
  for (const auto& r : rows) {
    w[0] = std::max(w[0], r.id.size());
    w[2] = std::max(w[2], r.code.size());
    w[3] = std::max(w[3], r.n.size());
    w[4] = std::max(w[4], r.median.size());
  }
  out += fmt::format("\n{:>{}}  {:<{}}  {:<{}}  {:>{}}  {:>{}}\n", "run", w[0], "started (UTC)", w[1], "code", w[2],
                     "n", w[3], "median", w[4]);
  for (const auto& r : rows) {
    std::string line = fmt::format("{:>{}}  {:<{}}  {:<{}}  {:>{}}  {:>{}}  {}", r.id, w[0], r.when, w[1], r.code, w[2],
                                   r.n, w[3], r.median, w[4], r.note);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  out += fmt::format("\n{}; a step is a change point only beyond it (docs/compare.md, \"History\")\n", DriftLabel(h));
  for (const auto& s : h.within_drift) {
    out += fmt::format("level shift between run {} and run {}: {}, within the host's drift: not a change point\n",
                       s.before.id, s.after.id, StepText(s));
  }
  for (const auto& s : h.steps) {
    out += fmt::format("\nchange point between run {} ({}) and run {} ({}): {} -> {}, {}, score {:.1f} ({})",
                       s.before.id, SingleLineText(BranchCode(s.before)), s.after.id,
                       SingleLineText(BranchCode(s.after)), FormatValue(s.median_before, h.unit),
                       FormatValue(s.median_after, h.unit), StepText(s), s.score, kChangePointScoreLabel);
    if (!s.before.provenance.commit.empty() && !s.after.provenance.commit.empty()) {
      out += fmt::format("\n  commits: git log {}..{}", s.before.provenance.commit.substr(0, 12),
                         s.after.provenance.commit.substr(0, 12));
    }
    out += "\n";
  }
  return out;
}

nlohmann::json HistoryToJson(const History& h) {
  using nlohmann::json;
  auto num = [](double v) {
    return std::isfinite(v) ? json(v) : (std::isnan(v) ? json(nullptr) : json(v > 0 ? "inf" : "-inf"));
  };
  auto run = [](const RunRecord& r) {
    return json{{"id", r.id},
                {"started_unix_ns", r.started_unix_ns},
                {"commit", r.provenance.commit.empty() ? json(nullptr) : json(r.provenance.commit)},
                {"branch", r.provenance.branch.empty() ? json(nullptr) : json(r.provenance.branch)},
                {"dirty", r.provenance.dirty ? json(*r.provenance.dirty) : json(nullptr)}};
  };
  json rows = json::array();
  for (const auto& r : h.rows) {
    json j = run(r.run);
    j["n"] = r.n;
    j["failed"] = r.failed;
    j["median"] = num(r.median);
    j["outlier"] = r.outlier;
    j["segment"] = r.segment;
    rows.push_back(j);
  }
  auto step_list = [&](const std::vector<HistoryStep>& list) {
    json steps = json::array();
    for (const auto& s : list) {
      steps.push_back({{"before", run(s.before)},
                       {"after", run(s.after)},
                       {"median_before", num(s.median_before)},
                       {"median_after", num(s.median_after)},
                       {"change", num(s.change)},
                       {"lo", num(s.lo)},
                       {"hi", num(s.hi)},
                       {"interval_note", s.interval_note.empty() ? json(nullptr) : json(s.interval_note)},
                       {"score", num(s.score)}});
    }
    return steps;
  };
  const json steps = step_list(h.steps);
  const json drift = h.drift ? json{{"bound", h.drift->bound},
                                    {"sigma_log", h.drift->sigma_log},
                                    {"runs", h.drift->runs},
                                    {"pairs", h.drift->pairs}}
                             : json(nullptr);
  return {{"schema", kHistoryJsonSchema},
          {"benchmark", h.benchmark},
          {"metric", h.metric},
          {"unit", h.unit},
          {"host", h.host},
          {"branch", h.branch.empty() ? json(nullptr) : json(h.branch)},
          {"other_hosts_runs", h.other_hosts_runs},
          {"min_segment", h.min_segment},
          {"model", h.model.empty() ? json(nullptr) : json(h.model)},
          {"other_model_runs", h.other_model_runs},
          {"note", h.note.empty() ? json(nullptr) : json(h.note)},
          {"runs", rows},
          {"change_points", steps},
          {"score", kChangePointScoreLabel},
          {"drift", drift},
          {"within_drift", step_list(h.within_drift)}};
}

}  // namespace tare::compare
