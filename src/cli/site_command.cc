#include "cli/commands.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>

#include "base/files.h"
#include "base/redact.h"
#include "base/terminal_text.h"
#include "cli/common_flags.h"
#include "cli/exit_codes.h"
#include "cli/flag_checks.h"
#include "base/output_path.h"
#include "compare/stored_history.h"
#include "html/history_page.h"
#include "html/site_pages.h"
#include "store/store.h"

namespace tare::cli {
namespace {

struct SiteFlags {
  std::string output;
  int limit = 200;
  std::string store_path = DefaultStorePath();
};

StatusOr<int> Site(const SiteFlags& f) {
  if (f.output.empty()) return Status::InvalidArgument("-o DIR: say where the site goes (a directory)");
  if (Status s = RequireStore(f.store_path); !s.ok()) return s;
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(f.output, ec) && !fs::is_directory(f.output, ec)) {
    return Status::InvalidArgument(
        fmt::format("-o '{}' is a file, not a directory: name a directory for the site", f.output));
  }
  auto store = store::Store::OpenForReading(f.store_path);
  if (!store.ok()) return store.status();

  // Every benchmark a `tare run` of the newest runs measured, in the order first seen (newest run
  // first), and the host types of those runs, each with its newest run's fingerprint.
  auto runs = (*store)->ListRuns(f.limit);
  if (!runs.ok()) return runs.status();
  std::vector<std::string> names;
  std::set<std::string> seen;
  std::vector<html::SiteHost> hosts;
  std::set<std::string> seen_hosts;
  for (const auto& run : *runs) {
    if (run.kind != RunKind::kRun) continue;
    if (seen_hosts.insert(run.fingerprint_digest).second)
      hosts.push_back({run.fingerprint_digest, run.fingerprint_json});
    auto data = (*store)->LoadRunHead(run.id);  // the names, not the samples (issue 48, item 7)
    if (!data.ok()) return data.status();
    for (const auto& b : data->benchmarks) {
      if (seen.insert(b.name).second) names.push_back(b.name);
    }
  }
  if (names.empty()) {
    return Status::NotFound(
        fmt::format("no `tare run` in the newest {} runs of '{}' measured a benchmark: nothing "
                    "to publish",
                    f.limit, RedactSecrets(f.store_path)));
  }
  std::vector<html::SiteEntry> entries;
  // An existing site: b/ is tare's own (issue 48, item 8). A b/ that is a link would put the pages
  // wherever it points: refused.
  const fs::path pages_dir = fs::path(f.output) / "b";
  if (fs::is_symlink(pages_dir, ec)) {
    return Status::InvalidArgument(fmt::format(
        "-o '{}': its b/ is a symbolic link; tare writes the pages there itself: remove the link, or name another "
        "directory",
        f.output));
  }
  fs::create_directories(pages_dir, ec);
  if (ec) return Status::FailedPrecondition(fmt::format("cannot create '{}/b': {}", f.output, ec.message()));
  // Never the store, nor anything it keeps beside it.
  TARE_RETURN_IF_ERROR(
      CheckOutputPath("-o", (fs::path(f.output) / "index.html").string(), store::StoreFiles(f.store_path)));
  // A page that is a symbolic link is replaced, never written through (WriteFileAtomic writes in
  // place into what is not a regular file).
  auto write_page = [](const std::string& path, const std::string& text) {
    std::error_code link_ec;
    if (fs::is_symlink(path, link_ec)) fs::remove(path, link_ec);
    return WriteFileAtomic(path, text);
  };
  // Each benchmark on every host type that ran it (issue 45, item 3): a run on another host type
  // (one `--env MALLOC_ARENA_MAX=2` run) adds a section, never hides the others' runs.
  std::set<std::string> written;
  for (const auto& name : names) {
    auto host_runs = (*store)->HostsOf(name);
    if (!host_runs.ok()) return host_runs.status();
    // Every host type's history first, so each page links the others' pages (those that exist).
    std::vector<StatusOr<compare::History>> histories;
    for (const auto& [host, count] : *host_runs) {
      auto h = compare::LoadHistory(**store, {name, "", "", host, f.limit, 0});
      if (h.ok() && h->host != host) h = Status::DataLoss(fmt::format("{} runs kept no host fingerprint", count));
      histories.push_back(std::move(h));
    }
    for (size_t k = 0; k < host_runs->size(); ++k) {
      const auto& [host, count] = (*host_runs)[k];
      html::SiteEntry e;
      e.benchmark = name;
      e.host = host;
      StatusOr<compare::History>& h = histories[k];
      if (!h.ok()) {
        e.problem = h.status().message();
      } else {
        e.history = std::move(*h);
        std::vector<html::OtherHostPage> others;
        for (size_t j = 0; j < host_runs->size(); ++j) {
          if (j == k || !histories[j].ok()) continue;
          const std::string& other = (*host_runs)[j].first;
          others.push_back(
              {other, fs::path(html::SitePagePath(name, other)).filename().string(), (*host_runs)[j].second});
        }
        const fs::path page = fs::path(f.output) / html::SitePagePath(name, host);
        const std::string back = "../index.html#" + html::SiteHostAnchor(host);
        if (Status w = write_page(page.string(), html::RenderHistoryHtml(e.history, back, others)); !w.ok()) {
          return w;
        }
        written.insert(page.filename().string());
      }
      // A host type whose runs are all older than the newest N: its section, from its newest run.
      if (seen_hosts.insert(host).second) {
        std::string fingerprint;
        if (!e.history.rows.empty()) {
          auto head = (*store)->LoadRunHead(e.history.rows.back().run.id);
          if (!head.ok()) return head.status();
          fingerprint = head->run.fingerprint_json;
        }
        hosts.push_back({host, fingerprint});
      }
      entries.push_back(std::move(e));
    }
  }
  // A host type none of whose runs measured a benchmark (every one failed to start) has no rows.
  std::erase_if(hosts, [&](const html::SiteHost& h) {
    return std::none_of(entries.begin(), entries.end(), [&](const html::SiteEntry& e) { return e.host == h.digest; });
  });
  const std::string index = (fs::path(f.output) / "index.html").string();
  if (Status w = write_page(index, html::RenderSiteIndex(hosts, entries, RedactSecrets(f.store_path))); !w.ok()) {
    return w;
  }
  // The pages of benchmarks the newest runs no longer measure, and links, are not published stale.
  size_t removed = 0;
  for (const auto& entry : fs::directory_iterator(pages_dir, ec)) {
    const std::string file = entry.path().filename().string();
    if (written.count(file) > 0) continue;
    std::error_code entry_ec;
    if (entry.is_symlink(entry_ec) || (entry.is_regular_file(entry_ec) && entry.path().extension() == ".html")) {
      if (fs::remove(entry.path(), entry_ec)) ++removed;
    }
  }
  if (removed > 0)
    fmt::print(stderr, "tare: removed {} stale page{} from {}\n", removed, removed == 1 ? "" : "s",
               TerminalText(pages_dir.string()));
  fmt::print(stderr, "tare: site of {} benchmark{} on {} host type{} in {} (open {})\n", names.size(),
             names.size() == 1 ? "" : "s", hosts.size(), hosts.size() == 1 ? "" : "s", TerminalText(f.output),
             TerminalText(index));
  return kExitOk;
}

}  // namespace

void AddSiteCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<SiteFlags>();
  CLI::App* sub = app.add_subcommand("site", "A static site of every benchmark's history, for GitHub Pages");
  sub->footer(R"(
Writes DIR/index.html — a section per host type (results of two are never pooled: a run with
`--env MALLOC_ARENA_MAX=2` is another one), saying what sets it apart, with one row per benchmark
a `tare run` measured there: its metric, branch, runs, last value, a trend sparkline and its last
change point — and DIR/b/<name>-<host>-<hash>.html, each benchmark's history plot on each host
type (as `tare report --history --host`). Self-contained pages, no scripts: publish
DIR as it is (docs/ci.md, "A benchmark site"). Into an existing site, DIR/b/ is tare's own: pages
of benchmarks no longer measured (and links) are removed, a page that is a link is replaced, never
written through, and a b/ that is a link is refused.

Examples:
  tare site -o site
  tare site -o public --store nightly.db --limit 500)");
  sub->add_option("-o,--output", f->output, "The directory to write the site into (created)")->required();
  sub->add_option("--limit", f->limit, "The newest N runs (default 200)")->check(WholeNumberAtLeast(1));
  sub->add_option("--store", f->store_path, kStoreHelp);
  sub->callback([f, exit_code]() { *exit_code = Finish(Site(*f)); });
}

}  // namespace tare::cli
