#include "bundle/replay.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

#include "base/json_read.h"
#include "base/units.h"
#include "base/terminal_text.h"
#include "bundle/run_document.h"
#include "bundle/spread.h"
#include "campaign/campaign_definition.h"
#include "campaign/campaign_runner.h"
#include "campaign/lock.h"
#include "session/plain_run.h"
#include "stats/summary.h"
#include "store/store.h"
#include "store/stored_look.h"
#include "store/transfer.h"

namespace tare::bundle {
namespace {

using nlohmann::json;

// `dir` made `pad` characters longer: underscores on its last component, and further components
// past 200 (a name has at most 255 bytes, NAME_MAX); `dir` as it is where that would pass PATH_MAX.
std::string Padded(std::string dir, size_t pad) {
  // A bundle is someone else's input: a path longer than Linux takes (PATH_MAX) is not matched.
  if (dir.size() + pad >= 4000) return dir;
  for (; pad > 201; pad -= 201) dir += std::string(200, '_') + "/";
  return dir + std::string(pad, '_');
}

// `dir`, padded where that makes `dir/NAME` (NAME of `name_size` characters) `want` characters
// long; `*matched`: it is that long now.
std::string PaddedFor(const std::string& dir, size_t name_size, size_t want, bool* matched) {
  const size_t natural = dir.size() + 1 + name_size;
  std::string out = want > natural ? Padded(dir, want - natural) : dir;
  *matched = out.size() + 1 + name_size == want;
  return out;
}

// The bundled executable of `role`, ready to run, under the file name it had when it was measured
// (`name`): target names, and so a command's benchmark names and the ledger's arm names, come
// from it. A link in a directory of its own inside the bundle's private directory, whose name is
// padded so that the path is as long as `name` where that is longer: a program that copies its
// argv[0] (Google Benchmark does) allocates by its length, and under valgrind the heap's alignment
// moves the instruction count of memcpy and its kind (845 against 862 Ir for one 4 KiB string copy,
// 52 against 59 characters). Where `name` is shorter than the shortest path here, `*same_length` is
// false.
StatusOr<std::string> BundledExecutable(const OpenedBundle& bundle, const std::string& role, const std::string& name,
                                        bool* same_length = nullptr) {
  for (const auto& e : bundle.manifest().executables) {
    if (e.role != role) continue;
    const std::string path = bundle.PathOf(e.member);
    if (path.empty()) break;
    chmod(path.c_str(), 0700);
    std::string file = std::filesystem::path(name).filename().string();
    if (file.empty() || file == "." || file == "..") file = role;
    bool matched = false;
    const std::string dir = PaddedFor(bundle.dir() + "/" + role, file.size(), name.size(), &matched);
    if (same_length != nullptr) *same_length = matched;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::string placed = dir + "/" + file;
    if (link(path.c_str(), placed.c_str()) != 0) {
      return Status::Internal(fmt::format("cannot place the bundled {} executable at '{}'", role, placed));
    }
    return placed;
  }
  return Status::DataLoss(fmt::format("the bundle holds no executable for '{}'; it cannot be replayed", role));
}

Provenance ReplayProvenance(const Provenance& original, const std::string& replay_of) {
  Provenance p = original;
  std::erase_if(p.tags, [](const auto& kv) { return kv.first == kReplayTag; });
  p.tags.emplace_back(kReplayTag, replay_of);
  std::sort(p.tags.begin(), p.tags.end());
  return p;
}

std::string Percent(double fraction) { return std::isnan(fraction) ? "-" : fmt::format("{:+.3f}%", fraction * 100); }

std::string DescribeResult(const AbMetricResult& m) {
  return fmt::format("{} {} [{}, {}]", VerdictName(m.verdict), Percent(m.estimate), Percent(m.lo), Percent(m.hi));
}

// The cohort's last look per (cell, head): what its ledger reported.
std::map<std::pair<std::string, std::string>, AbComparison> FinalComparisons(const store::FullRun& run) {
  std::map<std::pair<std::string, std::string>, AbComparison> out;
  for (const auto& look : store::LatestLookOfEachCell(run.looks)) {
    for (const auto& c : look.comparisons) out[{c.cell, c.head}] = c;
  }
  return out;
}

// A sharded run measured only its part of the list; its replay measures the same part, and records
// no shard of its own (a replay is not one of the N jobs). The part as a regular expression that
// matches exactly those names (RE2 syntax: punctuation escaped, other bytes as they are).
std::vector<std::string> ShardPart(const store::FullRun& run) {
  std::vector<std::string> part;
  if (!run.data.run.shard || run.data.run.shard->count < 2) return part;  // 1/1: the whole list
  for (const auto& [name, k] : run.data.run.shard->assignment) {
    if (k == run.data.run.shard->index) part.push_back(name);
  }
  return part;
}
std::string ExactNamesRegex(const std::vector<std::string>& names) {
  std::string out = "^(?:";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += '|';
    for (char c : names[i]) {
      const unsigned char u = static_cast<unsigned char>(c);
      if (u < 0x20 || u == 0x7f) {
        out += fmt::format("\\x{:02x}", u);
      } else if (std::isalnum(u) || c == '_' || u >= 0x80) {
        out += c;
      } else {
        out += '\\';
        out += c;
      }
    }
  }
  return out + ")$";
}

std::string Joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// Shows what the replay will set before anything runs, and refuses loader variables unless trusted.
Status CheckSettings(const ReplaySettings& set, const ReplayOptions& o) {
  std::vector<std::string> loader;
  for (const auto& kv : set.env) {
    if (LoaderVariable(kv.substr(0, kv.find('=')))) loader.push_back(kv);
  }
  if (!loader.empty() && !o.trust_env) {
    return Status::FailedPrecondition(fmt::format(
        "the bundle sets {} for the programs it runs: variables the dynamic loader or the C library act on, "
        "through which a bundle can load code or read files of its choosing on this host; nothing was run. "
        "Replay with --trust-env only if you trust whoever made the bundle",
        SingleLineText(Joined(loader))));
  }
  if (o.notice) {
    auto shown = [](const std::vector<std::string>& words) {
      std::string text = Joined(words);
      return text.size() <= 400 ? text : text.substr(0, 400) + fmt::format("... ({} in all)", words.size());
    };
    if (!set.env.empty()) o.notice("the bundle sets the environment: " + shown(set.env));
    if (!set.cwd.empty()) o.notice("the bundle's working directory: " + set.cwd);
    if (!set.args.empty()) o.notice("the bundle's arguments: " + shown(set.args));
  }
  return Status::Ok();
}

Status ReplayCohort(const OpenedBundle& bundle, const store::FullRun& original, store::Store& store,
                    proc::Spawner& spawner, const ReplayOptions& o, ReplayResult* result) {
  const CohortRecord& cohort = *original.cohort;
  TARE_ASSIGN_OR_RETURN(campaign::CampaignSpec spec,
                        campaign::SpecFromJsonText(cohort.spec_json, "the bundled cohort's campaign spec"));
  const std::vector<std::string> arms = campaign::ArmNames(spec);
  TARE_ASSIGN_OR_RETURN(spec.base, BundledExecutable(bundle, "base", spec.base));
  for (size_t i = 0; i < spec.heads.size(); ++i) {
    TARE_ASSIGN_OR_RETURN(spec.heads[i], BundledExecutable(bundle, arms[i + 1], spec.heads[i]));
  }
  if (!spec.cwd.empty() && !std::filesystem::is_directory(spec.cwd)) {
    result->notes.push_back(
        fmt::format("the campaign's cwd '{}' does not exist on this host; the arms run in "
                    "tare's working directory",
                    spec.cwd));
    spec.cwd.clear();
  }
  if (const std::vector<std::string> part = ShardPart(original); !part.empty()) {
    if (spec.cells.empty()) {
      spec.filter = ExactNamesRegex(part);
    } else {
      std::erase_if(spec.cells,
                    [&](const auto& c) { return std::find(part.begin(), part.end(), c.name) == part.end(); });
    }
    result->notes.push_back(fmt::format("the bundled cohort was shard {}/{}: its {} cells are replayed",
                                        original.data.run.shard->index, original.data.run.shard->count, part.size()));
  }
  campaign::CampaignInput input;
  input.spec = spec;
  input.campaign_source = cohort.campaign_source;
  input.campaign_text = cohort.campaign_text;
  campaign::RunnerOptions ropts;
  // The arms' copies, <store dir>/bin/<arm>, under paths as long as the original's (its lock names
  // them): BundledExecutable says why. The directory's name is padded; a store whose directory is
  // longer than the original's cannot be matched, and a sim replay says so.
  std::error_code ec;
  const std::filesystem::path natural_dir = std::filesystem::path(store::LocalDirectory(o.store_path)) / "bin";
  ropts.stage_dir = std::filesystem::absolute(natural_dir, ec).lexically_normal().string();
  if (ec) ropts.stage_dir = natural_dir.string();  // ArmStage says what is wrong with it
  if (auto lock = campaign::LockFromJsonText(cohort.lock_json, "the bundled cohort's lock");
      !ec && lock.ok() && !lock->executables.empty()) {
    const campaign::LockedExecutable& first = lock->executables.front();
    bool matched = false;
    ropts.stage_dir = PaddedFor(ropts.stage_dir, first.arm.size(), first.path.size(), &matched);
    if (!matched && spec.instrument == Instrument::kSim) {
      result->notes.push_back(fmt::format(
          "the arms run from copies in '{}' ({} characters with the arm's name), measured from copies of {}: "
          "a program that copies its argv[0] (Google Benchmark does) may count a few instructions differently; "
          "a store in a directory with a shorter path gives shorter ones",
          ropts.stage_dir, ropts.stage_dir.size() + 1 + first.arm.size(), first.path.size()));
    }
  }
  ropts.base_env = o.base_env;
  ropts.command_line = o.command_line;
  ropts.tare_version = o.tare_version;
  ropts.provenance = ReplayProvenance(original.data.run.provenance, result->replay_of);
  ropts.progress = o.progress;
  ropts.notice = o.notice;
  campaign::SpawnerProber prober(spawner);
  campaign::CampaignRunner runner(std::move(input), prober, ropts);
  TARE_RETURN_IF_ERROR(runner.Prepare());
  TARE_ASSIGN_OR_RETURN(campaign::CampaignResult r, runner.Run(store));
  result->replay_run_id = r.report.run_id;
  result->interrupted = r.stop == campaign::StopKind::kInterrupted;

  const auto before = FinalComparisons(original);
  for (const auto& c : r.report.comparisons) {
    auto was = before.find({c.cell, c.head});
    for (const auto& m : c.metrics) {
      SideBySide row{c.cell, c.head, m.metric, m.unit, "-", DescribeResult(m)};
      if (was != before.end()) {
        for (const auto& om : was->second.metrics) {
          if (om.metric == m.metric) row.original = DescribeResult(om);
        }
      }
      result->rows.push_back(row);
    }
  }
  return Status::Ok();
}

Status ReplayRun(const OpenedBundle& bundle, const store::FullRun& original, store::Store& store,
                 proc::Spawner& spawner, const ReplayOptions& o, ReplayResult* result) {
  // No options text at all is a run that recorded none; text that is not JSON is damage.
  TARE_ASSIGN_OR_RETURN(const json opts,
                        ParseJsonOr(original.data.run.options_json, "the bundled run's options", json::object()));
  if (!opts.is_object() || !opts.contains("argv") || !opts["argv"].is_array() || opts["argv"].empty()) {
    return Status::DataLoss("the bundled run recorded no command line (options.argv); it cannot be replayed");
  }
  for (const char* key : {"commands", "prepare", "setup", "conclude"}) {
    if (opts.contains(key) && !opts[key].is_null()) {
      return Status::FailedPrecondition(fmt::format(
          "the bundled run used {} (shell command lines); replay measures one bundled executable, so run those "
          "commands again by hand with tare run",
          key));
    }
  }
  // Not opts.value(): it throws when "shell" is there but not a boolean (the bundle is hostile input).
  if (opts.contains("shell") && opts["shell"] == true) {
    return Status::FailedPrecondition(
        "the bundled run measured a --shell command line; replay measures one bundled executable, so run it again "
        "by hand with tare run --shell");
  }
  session::RunSpec spec;
  // Each field as `tare run` recorded it, or its default when absent; one of the wrong type (the
  // bundle is input tare did not write) is DataLoss naming it (base/json_read.h).
  TARE_ASSIGN_OR_RETURN(const std::string instrument_name,
                        ReadJson<std::string>(opts, "the bundled run's options", [&](const json& j) {
                          using Strings = std::vector<std::string>;
                          spec.target.argv = JsonAt<Strings>(j, "argv");
                          spec.target.kind = JsonAtOr<std::string>(j, "kind", "auto");
                          spec.target.env = JsonAtOr<Strings>(j, "env_overrides", {});
                          spec.target.cwd = JsonAtOr<std::string>(j, "cwd", "");
                          spec.samples = JsonAtOr<int>(j, "samples", -1);
                          spec.warmup = JsonAtOr<int>(j, "warmup", -1);
                          spec.timeout_ns = JsonAtOr<int64_t>(j, "timeout_ns", 0);
                          spec.filter = JsonAtOr<std::string>(j, "filter", "");
                          return JsonAtOr<std::string>(j, "instrument", "wall");
                        }));
  if (const std::vector<std::string> part = ShardPart(original); !part.empty()) {
    spec.filter = ExactNamesRegex(part);
    result->notes.push_back(fmt::format("the bundled run was shard {}/{}: its {} benchmarks are replayed",
                                        original.data.run.shard->index, original.data.run.shard->count, part.size()));
  }
  TARE_ASSIGN_OR_RETURN(spec.instrument, ParseInstrument(instrument_name));
  // The program under its own file name: a command's benchmark is named by its command line.
  const std::string measured_as = spec.target.argv[0];
  bool same_length = true;
  TARE_ASSIGN_OR_RETURN(std::string placed, BundledExecutable(bundle, "target", measured_as, &same_length));
  spec.target.argv[0] = placed;
  if (!same_length && spec.instrument == Instrument::kSim) {
    result->notes.push_back(fmt::format(
        "the program runs as '{}' ({} characters), measured as '{}' ({}): a program that copies its argv[0] "
        "(Google Benchmark does) may count a few instructions differently; a shorter TMPDIR gives a shorter path",
        placed, placed.size(), measured_as, measured_as.size()));
  }
  if (!spec.target.cwd.empty() && !std::filesystem::is_directory(spec.target.cwd)) {
    result->notes.push_back(
        fmt::format("the run's cwd '{}' does not exist on this host; the program runs in "
                    "tare's working directory",
                    spec.target.cwd));
    spec.target.cwd.clear();
  }
  spec.command_line = o.command_line;
  spec.tare_version = o.tare_version;
  spec.provenance = ReplayProvenance(original.data.run.provenance, result->replay_of);
  TARE_RETURN_IF_ERROR(session::ValidateRunSpec(&spec));
  session::PlainRun run(spec, spawner);
  run.progress = o.progress;
  run.notice = o.notice;
  TARE_RETURN_IF_ERROR(run.Prepare());
  TARE_ASSIGN_OR_RETURN(session::RunOutcome out, run.Run(store));
  if (!out.error.ok()) return out.error;
  result->replay_run_id = out.run_id;
  result->interrupted = out.interrupted;

  TARE_ASSIGN_OR_RETURN(RunData replayed, store.LoadRun(out.run_id));
  const ArmValues before = MeasuredValues(original.data, {}, "");
  const ArmValues after = MeasuredValues(replayed, {}, "");
  std::map<std::string, MetricDef> defs;
  for (const auto& m : replayed.metrics) defs[m.name] = m;
  for (const auto& [bench, metrics] : after) {
    for (const auto& [metric, values] : metrics) {
      const MetricDef def = defs.count(metric) > 0 ? defs[metric] : LookupMetric(metric);
      if (!IsSpreadMetric(def)) continue;
      auto median = [&](const std::vector<double>& v) {
        return "median " + FormatValue(stats::Summarize(v).median, def.unit) + fmt::format(" (n={})", v.size());
      };
      SideBySide row{bench, "", metric, def.unit, "-", median(values)};
      auto b = before.find(bench);
      if (b != before.end() && b->second.count(metric) > 0) row.original = median(b->second.at(metric));
      result->rows.push_back(row);
    }
  }
  return Status::Ok();
}

}  // namespace

bool LoaderVariable(std::string_view key) {
  if (key.rfind("LD_", 0) == 0) return true;
  // glibc's UNSECURE_ENVVARS (sysdeps/generic/unsecvars.h) and the tunables.
  static constexpr std::string_view kLibc[] = {
      "GCONV_PATH", "GETCONF_DIR", "GLIBC_TUNABLES",   "HOSTALIASES", "LOCALDOMAIN", "LOCPATH", "MALLOC_TRACE",
      "NIS_PATH",   "NLSPATH",     "RESOLV_HOST_CONF", "RES_OPTIONS", "TMPDIR",      "TZDIR"};
  return std::find(std::begin(kLibc), std::end(kLibc), key) != std::end(kLibc);
}

StatusOr<ReplaySettings> SettingsOf(const store::FullRun& original) {
  ReplaySettings set;
  if (original.data.run.kind == RunKind::kAb && original.cohort) {
    TARE_ASSIGN_OR_RETURN(campaign::CampaignSpec spec,
                          campaign::SpecFromJsonText(original.cohort->spec_json, "the bundled cohort's campaign spec"));
    set.env = spec.env;
    set.cwd = spec.cwd;
    set.args = spec.args;
    for (const auto& cell : spec.cells) {
      set.env.insert(set.env.end(), cell.env.begin(), cell.env.end());
      set.args.insert(set.args.end(), cell.args.begin(), cell.args.end());
    }
    return set;
  }
  constexpr std::string_view kWhat = "the bundled run's options";
  TARE_ASSIGN_OR_RETURN(const json opts, ParseJsonOr(original.data.run.options_json, kWhat, json::object()));
  if (!opts.is_object()) return set;  // ReplayRun says what is missing
  return ReadJson<ReplaySettings>(opts, kWhat, [&](const json& j) {
    using Strings = std::vector<std::string>;
    set.env = JsonAtOr<Strings>(j, "env_overrides", {});
    set.cwd = JsonAtOr<std::string>(j, "cwd", "");
    const auto argv = JsonAtOr<Strings>(j, "argv", {});
    if (!argv.empty()) set.args.assign(argv.begin() + 1, argv.end());
    return set;
  });
}

StatusOr<ReplayResult> Replay(const OpenedBundle& bundle, store::Store& store, proc::Spawner& spawner,
                              const ReplayOptions& o) {
  TARE_ASSIGN_OR_RETURN(std::string text, bundle.Read("run.json"));
  TARE_ASSIGN_OR_RETURN(const json j, ParseJson(text, "the bundle's run.json"));
  TARE_ASSIGN_OR_RETURN(store::FullRun original,
                        FullRunFromJson(j, [&bundle](const std::string& m) { return bundle.Read(m); }));
  ReplayResult result;
  result.kind = original.data.run.kind;
  if (result.kind == RunKind::kAb && !original.cohort) {
    return Status::DataLoss("the bundle's run is a tare ab cohort without its campaign record");
  }
  result.replay_of = result.kind == RunKind::kAb ? original.cohort->lock_sha256 : original.data.run.uid;
  TARE_ASSIGN_OR_RETURN(const ReplaySettings settings, SettingsOf(original));
  TARE_RETURN_IF_ERROR(CheckSettings(settings, o));
  // The original first, so that both are in this store for `tare spread` (importing twice adds nothing).
  TARE_ASSIGN_OR_RETURN(store::WriteResult written, store::WriteFullRun(store, original));
  result.original_run_id = written.run_id;
  result.original_added = written.added;

  if (result.kind == RunKind::kAb) {
    TARE_RETURN_IF_ERROR(ReplayCohort(bundle, original, store, spawner, o, &result));
  } else {
    TARE_RETURN_IF_ERROR(ReplayRun(bundle, original, store, spawner, o, &result));
  }
  TARE_ASSIGN_OR_RETURN(RunData replayed, store.LoadRun(result.replay_run_id));
  // A fingerprint that is missing, not JSON or not one this tare reads: the hosts are not compared.
  auto parse_fp = [](const std::string& text) { return env::FingerprintFromJsonText(text, "the fingerprint"); };
  auto was = parse_fp(original.data.run.fingerprint_json);
  auto now = parse_fp(replayed.run.fingerprint_json);
  if (!was.ok() || !now.ok()) {
    result.notes.push_back("a host fingerprint could not be read; the hosts are not compared");
    result.hosts.hard.push_back(
        {"fingerprint", was.ok() ? "read" : "unreadable", now.ok() ? "read" : "unreadable", true});
  } else {
    result.hosts = env::CompareFingerprints(*was, *now);
  }
  return result;
}

std::string RenderReplay(const ReplayResult& r) {
  std::string out = fmt::format(
      "tare replay: run {} replays run {} ({}; tagged {}={})\n", r.replay_run_id, r.original_run_id,
      r.original_added ? "imported from the bundle" : "already in this store", kReplayTag, r.replay_of.substr(0, 12));
  for (const auto& n : r.notes) out += "note: " + TerminalText(n) + "\n";
  out += "\nhosts: " + SingleLineText(r.hosts.Summary()) + "\n";
  for (const auto* group : {&r.hosts.hard, &r.hosts.soft}) {
    for (const auto& d : *group) {
      out += fmt::format("  {} {:<28} original: {}  this host: {}\n", group == &r.hosts.hard ? "hard" : "soft",
                         SingleLineText(d.key), SingleLineText(d.a), SingleLineText(d.b));
    }
  }
  out += r.hosts.comparable()
             ? "\nSide by side (one host type, still two runs: not pooled):\n"
             : "\nSide by side only: the hosts differ in hard keys, so these results are NOT comparable and no "
               "verdict is drawn across them:\n";
  size_t wb = 9, wm = 6, wo = 8;
  for (const auto& row : r.rows) {
    wb = std::max(wb, SingleLineText(row.benchmark).size() + (row.arm.empty() ? 0 : row.arm.size() + 3));
    wm = std::max(wm, row.metric.size());
    wo = std::max(wo, row.original.size());
  }
  wb = std::min<size_t>(wb, 60);
  out += fmt::format("  {:<{}}  {:<{}}  {:<{}}  {}\n", "benchmark", wb, "metric", wm, "original", wo, "replay");
  for (const auto& row : r.rows) {
    const std::string name = SingleLineText(row.benchmark) + (row.arm.empty() ? "" : " [" + row.arm + "]");
    out += fmt::format("  {:<{}}  {:<{}}  {:<{}}  {}\n", name, wb, SingleLineText(row.metric), wm, row.original, wo,
                       row.replay);
  }
  if (r.interrupted) out += "\nthe replay was interrupted; its completed samples are stored\n";
  return out;
}

}  // namespace tare::bundle
