#include "publish/cohort_outputs.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <optional>

#include "attribute/explain.h"
#include "base/files.h"
#include "base/json_text.h"
#include "html/ab_page.h"
#include "report/ab_json.h"
#include "report/escape.h"
#include "report/ledger.h"

namespace tare::publish {
namespace {

// GitHub's limit on one step's summary is 1 MiB; the ledger keeps some of it for the other steps.
constexpr size_t kStepSummaryLimit = 900 * 1024;

// A sim cohort's page: each FAIL's and supported gain's differential flame graph, under its cell.
std::vector<html::CellFigure> FlameGraphs(store::Store& store, const report::AbReport& rep, const RunData& run,
                                          Delivery& delivery) {
  std::vector<html::CellFigure> figures;
  std::vector<std::string> problems;
  for (auto& f : attribute::FlameGraphsOfCohortChanges(store, rep, run, &problems)) {
    figures.push_back({f.cell, f.caption, std::move(f.svg)});
  }
  for (const auto& p : problems) delivery.warnings.push_back("--html: no flame graph for " + p);
  return figures;
}

}  // namespace

std::string WholeLedgerPath(const std::string& ledger_path) {
  std::filesystem::path p(ledger_path);
  const std::string ext = p.extension().string();
  return p.replace_extension().string() + ".full" + (ext.empty() ? std::string(".md") : ext);
}

Status CheckCohortOutputs(const CohortOutputOptions& o, std::vector<KeptFile> kept) {
  for (auto& k : store::StoreFiles(o.store_path)) kept.push_back(std::move(k));
  // The store's own directory may be missing: it is created with the store.
  const std::string store_dir = store::LocalDirectory(o.store_path);
  TARE_RETURN_IF_ERROR(CheckOutputPath("--json", o.json_path, kept, store_dir));
  TARE_RETURN_IF_ERROR(CheckOutputPath("--html", o.html_path, kept, store_dir));
  TARE_RETURN_IF_ERROR(CheckOutputPath("--ledger", o.ledger_path, kept, store_dir));
  if (o.ledger_path.empty()) return Status::Ok();
  return CheckOutputPath("--ledger (the whole ledger beside it)", WholeLedgerPath(o.ledger_path), kept, store_dir);
}

StatusOr<Delivery> DeliverCohort(store::Store& store, const report::AbReport& rep, const CohortOutputOptions& o) {
  Delivery delivery;
  // --attribute N: why each FAIL and supported gain changed, from the cohort's stored profiles.
  std::optional<attribute::CohortAttribution> attribution;
  report::LedgerOptions ledger_options;
  if (o.attribute > 0) {
    attribution = attribute::AttributeCohortChanges(store, rep, o.attribute);
    ledger_options.appendix = attribution->markdown;
    ledger_options.appendix_name = "Why each change: the attribution of its instructions";
  }
  // The cohort's run, read back once for the page's plots and its flame graphs; the ledger says
  // where the flame graphs are.
  StatusOr<RunData> run = o.html_path.empty() ? StatusOr<RunData>(RunData{}) : store.LoadRun(rep.run_id);
  std::vector<html::CellFigure> figures;
  if (!o.html_path.empty() && rep.instrument == Instrument::kSim && run.ok()) {
    figures = FlameGraphs(store, rep, *run, delivery);
    if (!figures.empty()) {
      ledger_options.appendix += fmt::format(
          "\n**Flame graphs.** Where the instructions of each FAIL and supported gain went, base → head: {}, under "
          "each cell.\n",
          report::MarkdownCode(std::filesystem::path(o.html_path).filename().string()));
      if (ledger_options.appendix_name.empty()) ledger_options.appendix_name = "Where the flame graphs are";
    }
  }
  const std::string ledger = report::RenderLedger(rep, ledger_options).markdown;
  const bool in_actions = !o.step_summary.empty();
  // On a terminal, a short summary; the whole ledger goes to --ledger, or next to the store.
  // Piped (CI logs, scripts), the whole ledger as always.
  std::string ledger_path = o.ledger_path;
  if (ledger_path.empty() && o.terminal && !o.quiet) {
    ledger_path = store::KeptLedgerPath(store::LocalDirectory(o.store_path), rep.run_id);
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(ledger_path).parent_path(), ec);
  }
  if (!o.ledger_path.empty()) {
    // --ledger is what a pull request gets as a comment: kept under GitHub's limit, the rows that
    // need a look first; when that leaves anything out, the whole ledger is written beside it.
    const std::string whole_path = WholeLedgerPath(o.ledger_path);
    report::LedgerOptions fit = ledger_options;
    fit.max_chars = report::kLedgerCommentLimit;
    fit.full_ledger_where =
        fmt::format("in the whole ledger, `{}`{}", std::filesystem::path(whole_path).filename().string(),
                    in_actions ? ", and in this job's summary" : ", beside this file");
    const report::Ledger fitted = report::RenderLedger(rep, fit);
    TARE_RETURN_IF_ERROR(WriteFileAtomic(o.ledger_path, fitted.markdown));
    if (fitted.shortened) {
      TARE_RETURN_IF_ERROR(WriteFileAtomic(whole_path, ledger));
      delivery.notices.push_back(fmt::format(
          "the ledger is {} characters, over what a GitHub comment takes: {} has the outcome, the rows that need a "
          "look and what fits; the whole ledger is in {}",
          ledger.size(), o.ledger_path, whole_path));
    }
  } else if (!ledger_path.empty()) {
    TARE_RETURN_IF_ERROR(WriteFileAtomic(ledger_path, ledger));
  }
  if (!o.quiet) {
    // Terminal-safe: every name in either is escaped.
    delivery.stdout_text = o.terminal ? report::RenderAbSummary(rep, ledger_path) : ledger;
    if (o.terminal && attribution && attribution->changes > 0) {
      delivery.stdout_text += fmt::format(
          "Why: the top {} functions behind each of the {} change(s) are in the ledger{}.\n", o.attribute,
          attribution->changes,
          attribution->problems.empty() ? ""
                                        : fmt::format(" ({} could not be attributed)", attribution->problems.size()));
    }
  }
  // GitHub Actions: the whole ledger goes to the job summary too (GitHub takes up to 1 MiB there).
  if (in_actions) {
    report::LedgerOptions summary_options = ledger_options;
    summary_options.max_chars = kStepSummaryLimit;
    summary_options.full_ledger_where =
        o.ledger_path.empty() ? std::string("left out: the job summary takes 1 MiB; write it whole with --ledger FILE")
                              : fmt::format("in the whole ledger, {}", WholeLedgerPath(o.ledger_path));
    std::ofstream out(o.step_summary, std::ios::app);
    out << report::RenderLedger(rep, summary_options).markdown << "\n";
    if (!out.good()) {
      delivery.warnings.push_back(
          fmt::format("could not append the ledger to $GITHUB_STEP_SUMMARY '{}'", o.step_summary));
    }
  }
  if (!o.json_path.empty()) {
    nlohmann::json j = report::AbReportToJson(rep);
    if (attribution) j["attributions"] = attribution->json;
    TARE_RETURN_IF_ERROR(WriteFileAtomic(o.json_path, DumpJson(j, 2) + "\n"));
  }
  if (!o.html_path.empty()) {
    // The cohort's samples and cells, for the plots; without them the page still has the verdicts.
    auto cells = store.CellsOf(rep.run_id);
    if (!run.ok() || !cells.ok()) {
      delivery.warnings.push_back(fmt::format(
          "--html: the cohort's samples could not be read back ({}); the page shows the verdicts without sample plots",
          !run.ok() ? run.status().message() : cells.status().message()));
    }
    const std::string page =
        html::RenderAbHtml(rep, run.ok() ? *run : RunData{}, cells.ok() ? *cells : std::vector<CellRecord>{}, figures);
    TARE_RETURN_IF_ERROR(WriteFileAtomic(o.html_path, page));
  }
  return delivery;
}

}  // namespace tare::publish
