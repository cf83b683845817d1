#include "campaign/work_tier.h"

#include <cmath>

#include <fmt/core.h>

#include "base/units.h"
#include "campaign/verdict_rules.h"
#include "model/metric_names.h"
#include "report/ledger.h"

namespace tare::campaign {
namespace {

double WorkValue(const std::map<std::string, double>& values, const char* name, double fallback) {
  auto it = values.find(name);
  return it == values.end() ? fallback : it->second;
}

// Within the tolerance of base (relative; two zeros are equal, a zero and a non-zero are not).
bool WithinTolerance(double base, double head) {
  if (base == head) return true;
  if (!(base > 0)) return false;
  return std::fabs(head / base - 1.0) <= kSameWorkTolerance;
}

// "1,234 → 1,240 (+0.49%)"
std::string CountMove(double base, double head) {
  return fmt::format("{} → {}{}", FormatCount(base), FormatCount(head),
                     base > 0 ? " (" + report::SignedPercent(head / base - 1.0) + ")" : "");
}

}  // namespace

StatusOr<double> ParseSameWorkAllowance(std::string_view text) {
  if (text == "off") return 0.0;
  auto a = ParseAllowance(text);
  if (!a.ok() || a->noise || !(a->fraction < 1)) {
    return Status::InvalidArgument(
        fmt::format("same-work allowance '{}' is not a percentage below 100% like \"10%\", or \"off\"", text));
  }
  return a->fraction;
}

std::string SameWorkAllowanceText(double allowance) {
  return allowance > 0 ? AllowanceText(Allowance::Fraction(allowance)) : "off";
}

WorkChange CompareWork(const std::map<std::string, double>& base, const std::map<std::string, double>& head) {
  WorkChange w;
  const double bi = WorkValue(base, metric_name::kSimIr, 0), hi = WorkValue(head, metric_name::kSimIr, 0);
  if (!(bi > 0) || !(hi > 0)) {
    w.line = "valgrind read no instructions";
    return w;
  }
  w.read = true;
  w.instructions = hi / bi - 1.0;
  const double bc = WorkValue(base, metric_name::kSimEstCycles, 0), hc = WorkValue(head, metric_name::kSimEstCycles, 0);
  const bool cycles = bc > 0 && hc > 0;
  if (cycles) w.cycles = hc / bc - 1.0;
  w.base_syscalls = WorkValue(base, metric_name::kSimSyscalls, 0);
  w.head_syscalls = WorkValue(head, metric_name::kSimSyscalls, 0);
  w.same = WithinTolerance(bi, hi) && (!cycles || WithinTolerance(bc, hc)) &&
           WithinTolerance(w.base_syscalls, w.head_syscalls);
  w.line = fmt::format("{}: instructions {}{}, system calls {} → {}", w.same ? "the same work" : "changed work",
                       CountMove(bi, hi), cycles ? ", est. cycles " + CountMove(bc, hc) : "",
                       FormatCount(w.base_syscalls), FormatCount(w.head_syscalls));
  return w;
}

bool CellWork::Same() const {
  if (!measured || !error.empty() || changes.empty()) return false;
  for (const auto& [head, w] : changes) {
    if (!w.same) return false;
  }
  return true;
}

void ReadCellWork(const std::map<std::string, double>& again, CellWork* work) {
  work->measured = true;
  const double b = WorkValue(work->base, metric_name::kSimIr, 0), a = WorkValue(again, metric_name::kSimIr, 0);
  if (!(b > 0) || !(a > 0)) {
    work->error = "valgrind read no instructions";
    return;
  }
  // Exact: any difference between two runs of base means the counts depend on more than the code.
  if (b != a ||
      WorkValue(work->base, metric_name::kSimEstCycles, 0) != WorkValue(again, metric_name::kSimEstCycles, 0)) {
    work->error = fmt::format(
        "base did not repeat under valgrind (instructions {} against {}): not deterministic, so one process "
        "per arm says nothing",
        FormatCount(b), FormatCount(a));
    return;
  }
  for (const auto& [head, values] : work->heads) {
    WorkChange w = CompareWork(work->base, values);
    if (!w.read) {
      work->error = head + ": " + w.line;
      work->changes.clear();
      return;
    }
    work->changes[head] = std::move(w);
  }
}

std::string SameWorkNote(const CellWork& work, double allowance) {
  std::string lines;
  for (const auto& [head, w] : work.changes) {
    lines += fmt::format("{}{}{}", lines.empty() ? "" : "; ", work.changes.size() > 1 ? head + ": " : "", w.line);
  }
  return fmt::format(
      "{} under valgrind, so a time change here is where code and data sit, not what runs: judged against "
      "{} (--same-work-allowance; docs/methodology.md §5a)",
      lines, AllowanceText(Allowance::Fraction(allowance)));
}

bool IsSameWorkNote(const std::string& reason) { return reason.rfind("the same work: ", 0) == 0; }

std::string WorkTierNote(const std::vector<CellWork>& cells, const std::vector<std::string>& names, double allowance) {
  int64_t same = 0, changed = 0, unread = 0, skipped = 0;
  std::string first_unread, changed_names;
  for (size_t c = 0; c < cells.size(); ++c) {
    const CellWork& w = cells[c];
    if (!w.measured) {
      ++skipped;
    } else if (!w.error.empty()) {
      // A failed process is the cell's own verdict's to tell (once: a broken benchmark's line says why).
      if (unread++ == 0) {
        first_unread = fmt::format("{}: {}", c < names.size() ? names[c] : "?",
                                   w.sample_failed ? "its process failed under valgrind" : w.error);
      }
    } else if (w.Same()) {
      ++same;
    } else {
      if (changed++ < 5) changed_names += (changed_names.empty() ? "" : ", ") + (c < names.size() ? names[c] : "?");
    }
  }
  std::string out = fmt::format(
      "Work tier: every cell ran once under valgrind in each arm before timing. {} of {} the same work — "
      "their time judged against {} (what placement alone can do; a larger change FAILs)",
      same, cells.size(), AllowanceText(Allowance::Fraction(allowance)));
  if (changed > 0) {
    out += fmt::format("; {} changed work ({}{}) — judged at the campaign's allowance", changed, changed_names,
                       changed > 5 ? ", …" : "");
  }
  if (unread > 0)
    out += fmt::format("; {} not read, judged at the campaign's allowance (first: {})", unread, first_unread);
  if (skipped > 0) out += fmt::format("; {} not measured (interrupted or over the tier's time)", skipped);
  return out + ".";
}

}  // namespace tare::campaign
