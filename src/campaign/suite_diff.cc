#include "campaign/suite_diff.h"

#include <fmt/core.h>

#include <algorithm>
#include <set>

#include "model/metric.h"
#include "stats/summary.h"

namespace tare::campaign {
namespace {

std::string Names(const std::vector<const AbSuiteEntry*>& entries) {
  std::string out;
  const size_t shown = std::min<size_t>(entries.size(), 5);
  for (size_t i = 0; i < shown; ++i) out += (i ? ", " : "") + entries[i]->benchmark;
  if (entries.size() > shown) out += fmt::format(", and {} more", entries.size() - shown);
  return out;
}

std::string HeadList(const std::vector<std::string>& heads) {
  std::string out;
  for (size_t i = 0; i < heads.size(); ++i) out += (i ? ", " : "") + heads[i];
  return out;
}

}  // namespace

size_t SuiteDiff::Count(SuiteChange c) const {
  return static_cast<size_t>(
      std::count_if(changes.begin(), changes.end(), [c](const AbSuiteEntry& e) { return e.change == c; }));
}

SuiteDiff DiffSuites(const std::vector<target::Benchmark>& base, const std::vector<ListedArm>& heads) {
  std::vector<std::set<std::string>> head_names;
  for (const auto& h : heads) {
    std::set<std::string> names;
    for (const auto& b : h.benchmarks) names.insert(b.name);
    head_names.push_back(std::move(names));
  }
  SuiteDiff d;
  std::set<std::string> base_names;
  for (const auto& b : base) {
    if (!base_names.insert(b.name).second) continue;
    AbSuiteEntry missing;
    missing.benchmark = b.name;
    missing.change = SuiteChange::kMissing;
    for (size_t i = 0; i < heads.size(); ++i) {
      if (!head_names[i].count(b.name)) missing.heads.push_back(heads[i].arm);
    }
    if (missing.heads.empty()) {
      d.common.push_back(b);
    } else {
      d.changes.push_back(std::move(missing));
    }
  }
  std::map<std::string, size_t> new_index;  // name -> its entry in d.changes
  for (const auto& h : heads) {
    std::set<std::string> seen;
    for (const auto& b : h.benchmarks) {
      if (base_names.count(b.name) || !seen.insert(b.name).second) continue;
      auto it = new_index.find(b.name);
      if (it == new_index.end()) {
        AbSuiteEntry added;
        added.benchmark = b.name;
        added.change = SuiteChange::kNew;
        it = new_index.emplace(b.name, d.changes.size()).first;
        d.changes.push_back(std::move(added));
      }
      d.changes[it->second].heads.push_back(h.arm);
      d.new_in[h.arm].push_back(b);
    }
  }
  return d;
}

void SetNewFigures(std::vector<AbSuiteEntry>& entries, const std::map<std::string, std::vector<Sample>>& samples,
                   const std::vector<std::string>& metrics) {
  for (auto& e : entries) {
    if (e.change != SuiteChange::kNew) continue;
    e.figures.clear();
    e.error.clear();
    auto it = samples.find(e.benchmark);
    if (it == samples.end()) continue;
    bool any_ok = false;
    for (const auto& head : e.heads) {
      for (const auto& metric : metrics) {
        std::vector<double> values;
        for (const auto& s : it->second) {
          if (s.arm != head || !s.ok()) continue;
          any_ok = true;
          if (auto v = s.values.find(metric); v != s.values.end()) values.push_back(v->second);
        }
        if (values.empty()) continue;
        AbSuiteFigure f;
        f.head = head;
        f.metric = metric;
        f.unit = LookupMetric(metric).unit;
        f.samples = static_cast<int64_t>(values.size());
        f.median = stats::Median(values);
        f.min = *std::min_element(values.begin(), values.end());
        f.max = *std::max_element(values.begin(), values.end());
        e.figures.push_back(std::move(f));
      }
    }
    if (!any_ok) {
      for (const auto& s : it->second) {
        if (!s.ok() && s.outcome != SampleOutcome::kInterrupted) {
          e.error = s.error;
          break;
        }
      }
    }
  }
}

std::string SuiteChangeLine(const SuiteDiff& d) {
  if (d.changes.empty()) return "";
  std::vector<const AbSuiteEntry*> added, missing;
  std::set<std::string> added_heads, missing_heads;
  for (const auto& e : d.changes) {
    (e.change == SuiteChange::kNew ? added : missing).push_back(&e);
    for (const auto& h : e.heads) (e.change == SuiteChange::kNew ? added_heads : missing_heads).insert(h);
  }
  std::vector<std::string> parts;
  if (!added.empty()) {
    parts.push_back(fmt::format("{} benchmark{} new in {} ({}): measured, no verdict", added.size(),
                                added.size() == 1 ? "" : "s", HeadList({added_heads.begin(), added_heads.end()}),
                                Names(added)));
  }
  if (!missing.empty()) {
    parts.push_back(fmt::format("{} missing from {} ({}): not compared", missing.size(),
                                HeadList({missing_heads.begin(), missing_heads.end()}), Names(missing)));
  }
  std::string out = "the suite changed: ";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : "") + parts[i];
  return out + fmt::format("; the {} benchmark{} both sides have {} the cells", d.common.size(),
                           d.common.size() == 1 ? "" : "s", d.common.size() == 1 ? "is" : "are");
}

}  // namespace tare::campaign
