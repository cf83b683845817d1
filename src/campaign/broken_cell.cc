#include "campaign/broken_cell.h"

#include <algorithm>

#include <fmt/core.h>

#include "target/gbench.h"

namespace tare::campaign {
namespace {

bool Failed(const Sample& s) { return !s.ok() && s.outcome != SampleOutcome::kInterrupted; }

// 'text' for a POSIX shell: single quotes, a quote inside as '\''.
std::string ShellWord(const std::string& text) {
  std::string out = "'";
  for (char ch : text) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

}  // namespace

std::vector<std::string> BrokenArms(const CellSamples& samples, const std::vector<std::string>& arms, int64_t blocks) {
  // Per arm: how many of its samples in [0, blocks) there are, and how many failed.
  auto tally = [&](const std::string& arm, int64_t upto, int64_t* ran, int64_t* failed) {
    *ran = *failed = 0;
    auto a = samples.find(arm);
    if (a == samples.end()) return;
    for (const auto& [block, s] : a->second) {
      if (block >= upto) break;
      if (s.outcome == SampleOutcome::kInterrupted) continue;
      ++*ran;
      if (Failed(s)) ++*failed;
    }
  };
  std::vector<std::string> out;
  if (blocks < 1 || arms.empty()) return out;
  bool all_failed_first = true;
  for (const auto& arm : arms) {
    int64_t ran = 0, failed = 0;
    tally(arm, 1, &ran, &failed);
    all_failed_first = all_failed_first && ran == 1 && failed == 1;
  }
  for (const auto& arm : arms) {
    int64_t ran = 0, failed = 0;
    tally(arm, blocks, &ran, &failed);
    if (ran == 0 || failed < ran) continue;  // it ran once: failed samples, not a broken arm
    if (all_failed_first || failed >= kBrokenAfterFailures) out.push_back(arm);
  }
  return out;
}

bool BreakageSettlesCell(const std::vector<std::string>& broken, const std::vector<std::string>& heads) {
  auto has = [&](const std::string& arm) { return std::find(broken.begin(), broken.end(), arm) != broken.end(); };
  if (has("base") || has("null")) return true;
  if (heads.empty()) return false;
  return std::all_of(heads.begin(), heads.end(), has);
}

int64_t BreakageSettlesAt(const CellSamples& samples, const std::vector<std::string>& arms,
                          const std::vector<std::string>& heads, int64_t blocks) {
  for (int64_t n : {int64_t{1}, kBrokenAfterFailures}) {
    if (n <= blocks && BreakageSettlesCell(BrokenArms(samples, arms, n), heads)) return n;
  }
  return 0;
}

std::string ArmList(const std::vector<std::string>& arms) {
  std::string out;
  for (size_t i = 0; i < arms.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == arms.size() ? " and " : ", ") + arms[i];
  }
  return out;
}

std::string BrokenCellFix(TargetKind kind, const std::string& benchmark) {
  const std::string needs =
      "give every arm what it needs: the working directory its files are relative to (--cwd DIR, "
      "`cwd` in a campaign file) or its environment (--env KEY=VALUE)";
  switch (kind) {
    case TargetKind::kGbench:
      return fmt::format(
          "{}; or leave it out: --filter REGEX (only the benchmarks it matches become cells), or "
          "Google Benchmark's own negative filter after the executable's arguments: -- {}",
          needs, ShellWord("--benchmark_filter=-^" + target::EscapeRegex(benchmark) + "$"));
    case TargetKind::kTare:
      return fmt::format("{}; or leave it out: --filter REGEX (only the benchmarks it matches become cells)", needs);
    case TargetKind::kCommand:
      break;
  }
  return fmt::format("check the command's arguments (after --, and the cell's own), and {}", needs);
}

}  // namespace tare::campaign
