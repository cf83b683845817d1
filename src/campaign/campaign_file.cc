#include "campaign/campaign_file.h"

#include <cmath>
#include <set>

#include <fmt/core.h>
#include <toml++/toml.h>

#include "base/toml_read.h"

#include "base/terminal_text.h"
#include "base/units.h"

namespace tare::campaign {
namespace {

const char* TypeName(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a number";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::table:
      return "a table";
    case toml::node_type::date:
    case toml::node_type::time:
    case toml::node_type::date_time:
      return "a date/time";
    default:
      return "nothing";
  }
}

// Reads one file's values, keeping the file name for messages.
class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  Status Error(const toml::node& n, const std::string& field, const std::string& what) const {
    return Status::InvalidArgument(fmt::format("{}:{}: {}: {}", path_, n.source().begin.line, field, what));
  }
  Status Error(const std::string& field, const std::string& what) const {
    return Status::InvalidArgument(fmt::format("{}: {}: {}", path_, field, what));
  }

  // Every key of `table` must be in `allowed`.
  Status OnlyKeys(const toml::table& table, const std::string& prefix, const std::set<std::string>& allowed) const {
    for (auto&& [key, value] : table) {
      std::string k(key.str());
      if (allowed.count(k)) continue;
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      return Error(value, prefix + k, fmt::format("unknown key; the keys here are: {}", list));
    }
    return Status::Ok();
  }

  StatusOr<std::string> String(const toml::node& n, const std::string& field) const {
    if (!n.is_string()) return Error(n, field, fmt::format("expected a string, got {}", TypeName(n)));
    std::string s(n.as_string()->get());
    // TOML allows "\u0000"; an argument, path or environment string cannot hold it (exec ends
    // each at its first NUL), so what ran would differ from what the file says (issue 27, item 15).
    if (s.find('\0') != std::string::npos) {
      return Error(n, field,
                   fmt::format("'{}' holds a NUL byte (\\u0000), which no argument, path or "
                               "environment variable can carry; remove it",
                               SingleLineText(s)));
    }
    return s;
  }
  StatusOr<int64_t> Integer(const toml::node& n, const std::string& field) const {
    if (!n.is_integer()) return Error(n, field, fmt::format("expected an integer, got {}", TypeName(n)));
    return n.as_integer()->get();
  }
  StatusOr<double> Number(const toml::node& n, const std::string& field) const {
    if (n.is_floating_point()) return n.as_floating_point()->get();
    if (n.is_integer()) return static_cast<double>(n.as_integer()->get());
    return Error(n, field, fmt::format("expected a number, got {}", TypeName(n)));
  }
  StatusOr<bool> Bool(const toml::node& n, const std::string& field) const {
    if (!n.is_boolean()) return Error(n, field, fmt::format("expected true or false, got {}", TypeName(n)));
    return n.as_boolean()->get();
  }
  StatusOr<std::vector<std::string>> Strings(const toml::node& n, const std::string& field) const {
    if (!n.is_array()) {
      return Error(n, field, fmt::format("expected an array of strings, got {}", TypeName(n)));
    }
    std::vector<std::string> out;
    size_t i = 0;
    for (const auto& el : *n.as_array()) {
      TARE_ASSIGN_OR_RETURN(std::string s, String(el, fmt::format("{}[{}]", field, i++)));
      out.push_back(std::move(s));
    }
    return out;
  }
  // env = { KEY = "VALUE" } -> {"KEY=VALUE"}.
  StatusOr<std::vector<std::string>> Env(const toml::node& n, const std::string& field) const {
    if (!n.is_table()) {
      return Error(n, field, fmt::format("expected a table such as {{ KEY = \"VALUE\" }}, got {}", TypeName(n)));
    }
    std::vector<std::string> out;
    for (auto&& [key, value] : *n.as_table()) {
      std::string k(key.str());
      if (k.empty() || k.find('=') != std::string::npos || k.find('\0') != std::string::npos) {
        return Error(value, field, fmt::format("'{}' is not an environment variable name", SingleLineText(k)));
      }
      TARE_ASSIGN_OR_RETURN(std::string v, String(value, field + "." + k));
      out.push_back(k + "=" + v);
    }
    return out;
  }

 private:
  std::string path_;
};

Status ReadArms(const Reader& r, const toml::table& arms, CampaignSpec* spec) {
  TARE_RETURN_IF_ERROR(r.OnlyKeys(arms, "arms.", {"base", "head", "heads", "null"}));
  if (const toml::node* n = arms.get("base")) {
    TARE_ASSIGN_OR_RETURN(spec->base, r.String(*n, "arms.base"));
  }
  for (const char* key : {"head", "heads"}) {
    const toml::node* n = arms.get(key);
    if (n == nullptr) continue;
    if (!spec->heads.empty()) {
      return r.Error(*n, std::string("arms.") + key, "give the heads once: head = \"PATH\" or heads = [\"A\", \"B\"]");
    }
    if (n->is_string()) {
      TARE_ASSIGN_OR_RETURN(std::string h, r.String(*n, std::string("arms.") + key));
      spec->heads.push_back(h);
    } else {
      TARE_ASSIGN_OR_RETURN(spec->heads, r.Strings(*n, std::string("arms.") + key));
      if (spec->heads.empty()) return r.Error(*n, std::string("arms.") + key, "needs at least one head");
    }
  }
  if (const toml::node* n = arms.get("null")) {
    TARE_ASSIGN_OR_RETURN(spec->null_arm, r.Bool(*n, "arms.null"));
  }
  if (spec->base.empty()) return r.Error("arms.base", "missing; name the base executable: base = \"PATH\"");
  if (spec->heads.empty()) return r.Error("arms.head", "missing; name the head executable: head = \"PATH\"");
  return Status::Ok();
}

Status ReadSampling(const Reader& r, const toml::table& t, CampaignSpec* spec) {
  TARE_RETURN_IF_ERROR(r.OnlyKeys(t, "sampling.", {"initial", "step", "cap", "growth"}));
  spec->sampling_declared = true;
  // A declared step means evenly spaced looks unless growth says otherwise.
  if (t.get("step") != nullptr) spec->sampling.growth = 1;
  struct Field {
    const char* key;
    int64_t* out;
  };
  for (Field f : {Field{"initial", &spec->sampling.initial}, Field{"step", &spec->sampling.step},
                  Field{"cap", &spec->sampling.cap}, Field{"growth", &spec->sampling.growth}}) {
    if (const toml::node* n = t.get(f.key)) {
      TARE_ASSIGN_OR_RETURN(*f.out, r.Integer(*n, std::string("sampling.") + f.key));
    }
  }
  // A plan that declares only initial means one look at initial pairs.
  if (t.get("initial") != nullptr && t.get("cap") == nullptr) spec->sampling.cap = spec->sampling.initial;
  Status s = ValidatePlan(spec->sampling);
  if (!s.ok()) return r.Error("sampling", s.message());
  return Status::Ok();
}

Status ReadMetrics(const Reader& r, const toml::table& t, CampaignSpec* spec) {
  for (auto&& [key, value] : t) {
    MetricSpec m;
    m.name = std::string(key.str());
    const std::string field = "metrics." + m.name;
    std::string allowance = "noise";
    if (value.is_string()) {
      allowance = std::string(value.as_string()->get());
    } else if (value.is_table()) {
      const toml::table& mt = *value.as_table();
      TARE_RETURN_IF_ERROR(r.OnlyKeys(mt, field + ".", {"allowance", "direction"}));
      if (const toml::node* a = mt.get("allowance")) {
        TARE_ASSIGN_OR_RETURN(allowance, r.String(*a, field + ".allowance"));
      }
      if (const toml::node* d = mt.get("direction")) {
        TARE_ASSIGN_OR_RETURN(std::string dir, r.String(*d, field + ".direction"));
        if (dir == "lower") {
          m.direction = Direction::kLowerIsBetter;
        } else if (dir == "higher") {
          m.direction = Direction::kHigherIsBetter;
        } else {
          return r.Error(*d, field + ".direction",
                         fmt::format("'{}' is not 'lower' or 'higher' (which values are better)", dir));
        }
      }
    } else {
      return r.Error(value, field,
                     fmt::format("expected an allowance (\"2%\" or \"noise\") or a table {{ allowance = \"2%\", "
                                 "direction = \"higher\" }}, got {}",
                                 TypeName(value)));
    }
    auto parsed = ParseAllowance(allowance);
    if (!parsed.ok()) return r.Error(value, field, parsed.status().message());
    m.allowance = *parsed;
    spec->metrics.push_back(std::move(m));
  }
  if (spec->metrics.empty()) {
    return r.Error("metrics",
                   "the table is empty; name at least one metric (wall_ns = \"noise\") "
                   "or leave [metrics] out for the defaults");
  }
  return Status::Ok();
}

Status ReadCells(const Reader& r, const toml::node& n, CampaignSpec* spec) {
  if (!n.is_array_of_tables()) {
    return r.Error(n, "cells", fmt::format("expected [[cells]] tables, got {}", TypeName(n)));
  }
  size_t i = 0;
  for (const auto& el : *n.as_array()) {
    const std::string field = fmt::format("cells[{}]", i++);
    const toml::table& t = *el.as_table();
    TARE_RETURN_IF_ERROR(r.OnlyKeys(t, field + ".", {"name", "role", "args", "env", "allowances"}));
    CellSpec c;
    if (const toml::node* v = t.get("name")) {
      TARE_ASSIGN_OR_RETURN(c.name, r.String(*v, field + ".name"));
    } else {
      return r.Error(el, field + ".name",
                     "missing; every cell needs a name (the benchmark's name "
                     "for Google Benchmark, a label for commands)");
    }
    if (const toml::node* v = t.get("role")) {
      TARE_ASSIGN_OR_RETURN(const std::string role, r.String(*v, field + ".role"));
      auto parsed = ParseCellRole(role);
      if (!parsed.ok()) return r.Error(*v, field + ".role", fmt::format("'{}' is not 'target' or 'control'", role));
      c.role = *parsed;
    }
    if (const toml::node* v = t.get("args")) {
      TARE_ASSIGN_OR_RETURN(c.args, r.Strings(*v, field + ".args"));
    }
    if (const toml::node* v = t.get("env")) {
      TARE_ASSIGN_OR_RETURN(c.env, r.Env(*v, field + ".env"));
    }
    if (const toml::node* v = t.get("allowances")) {
      if (!v->is_table()) {
        return r.Error(*v, field + ".allowances",
                       "expected a table of metric = \"allowance\", e.g. { \"sim.Ir\" = \"0.5%\" }");
      }
      for (const auto& [metric, value] : *v->as_table()) {
        const std::string key(metric.str());
        TARE_ASSIGN_OR_RETURN(std::string text, r.String(value, field + ".allowances." + key));
        auto allowance = ParseAllowance(text);
        if (!allowance.ok()) return r.Error(value, field + ".allowances." + key, allowance.status().message());
        c.allowances[key] = *allowance;
      }
    }
    spec->cells.push_back(std::move(c));
  }
  return Status::Ok();
}

}  // namespace

StatusOr<CampaignSpec> ParseCampaignToml(std::string_view text, const std::string& path) {
  TARE_ASSIGN_OR_RETURN(toml::table root, ParseToml(text, path, "not valid TOML: "));
  Reader r(path);
  TARE_RETURN_IF_ERROR(r.OnlyKeys(root, "",
                                  {"format",
                                   "name",
                                   "kind",
                                   "instrument",
                                   "args",
                                   "env",
                                   "cwd",
                                   "filter",
                                   "control",
                                   "timeout",
                                   "seed",
                                   "order",
                                   "confidence",
                                   "look_scheme",
                                   "noise_floor",
                                   "interval",
                                   "noise_cap",
                                   "budget",
                                   "gbench_min_time",
                                   "layouts",
                                   "strict_suite",
                                   "same_work_allowance",
                                   "gates",
                                   "bounds",
                                   "arms",
                                   "sampling",
                                   "metrics",
                                   "cells"}));
  CampaignSpec spec;
  if (const toml::node* n = root.get("format")) {
    TARE_ASSIGN_OR_RETURN(std::string format, r.String(*n, "format"));
    if (format != kCampaignFormat) {
      return r.Error(*n, "format",
                     fmt::format("'{}' is not a format this tare reads; write \"{}\"", format, kCampaignFormat));
    }
  }
  if (const toml::node* n = root.get("name")) {
    TARE_ASSIGN_OR_RETURN(spec.name, r.String(*n, "name"));
  }
  if (const toml::node* n = root.get("kind")) {
    TARE_ASSIGN_OR_RETURN(std::string kind, r.String(*n, "kind"));
    if (kind != "auto") {
      auto parsed = ParseTargetKind(kind);
      if (!parsed.ok()) return r.Error(*n, "kind", fmt::format("'{}' is not auto, command, gbench or tare", kind));
      spec.kind = *parsed;
    }
  }
  if (const toml::node* n = root.get("instrument")) {
    TARE_ASSIGN_OR_RETURN(std::string instrument, r.String(*n, "instrument"));
    auto parsed = ParseInstrument(instrument);
    if (!parsed.ok()) return r.Error(*n, "instrument", fmt::format("'{}' is not wall, sim or mem", instrument));
    spec.instrument = *parsed;
  }
  if (const toml::node* n = root.get("args")) {
    TARE_ASSIGN_OR_RETURN(spec.args, r.Strings(*n, "args"));
  }
  if (const toml::node* n = root.get("env")) {
    TARE_ASSIGN_OR_RETURN(spec.env, r.Env(*n, "env"));
  }
  if (const toml::node* n = root.get("cwd")) {
    TARE_ASSIGN_OR_RETURN(spec.cwd, r.String(*n, "cwd"));
  }
  if (const toml::node* n = root.get("filter")) {
    TARE_ASSIGN_OR_RETURN(spec.filter, r.String(*n, "filter"));
  }
  if (const toml::node* n = root.get("control")) {
    TARE_ASSIGN_OR_RETURN(spec.control_filter, r.String(*n, "control"));
  }
  if (const toml::node* n = root.get("layouts")) {
    TARE_ASSIGN_OR_RETURN(spec.layouts, r.Integer(*n, "layouts"));
  }
  if (const toml::node* n = root.get("strict_suite")) {
    TARE_ASSIGN_OR_RETURN(spec.strict_suite, r.Bool(*n, "strict_suite"));
  }
  if (const toml::node* n = root.get("same_work_allowance")) {
    TARE_ASSIGN_OR_RETURN(std::string t, r.String(*n, "same_work_allowance"));
    auto a = ParseSameWorkAllowance(t);
    if (!a.ok()) return r.Error(*n, "same_work_allowance", a.status().message());
    spec.same_work_allowance = *a;
  }
  if (const toml::node* n = root.get("gbench_min_time")) {
    TARE_ASSIGN_OR_RETURN(std::string t, r.String(*n, "gbench_min_time"));
    auto ns = ParseTimeoutNs(t);
    if (!ns.ok()) return r.Error(*n, "gbench_min_time", ns.status().message());
    spec.gbench_min_time_ns = *ns;
  }
  if (const toml::node* n = root.get("budget")) {
    TARE_ASSIGN_OR_RETURN(std::string t, r.String(*n, "budget"));
    auto ns = ParseBudget(t);
    if (!ns.ok()) return r.Error(*n, "budget", ns.status().message());
    spec.budget_ns = *ns;
  }
  if (const toml::node* n = root.get("timeout")) {
    TARE_ASSIGN_OR_RETURN(std::string t, r.String(*n, "timeout"));
    auto ns = ParseTimeoutNs(t);
    if (!ns.ok()) return r.Error(*n, "timeout", ns.status().message());
    spec.timeout_ns = *ns;
  }
  if (const toml::node* n = root.get("seed")) {
    TARE_ASSIGN_OR_RETURN(int64_t seed, r.Integer(*n, "seed"));
    if (seed < 0) return r.Error(*n, "seed", "must be 0 or more");
    spec.seed = static_cast<uint64_t>(seed);
  }
  if (const toml::node* n = root.get("order")) {
    TARE_ASSIGN_OR_RETURN(std::string order, r.String(*n, "order"));
    auto parsed = ParseArmOrder(order);
    if (!parsed.ok()) return r.Error(*n, "order", parsed.status().message());
    spec.order = *parsed;
  }
  if (const toml::node* n = root.get("confidence")) {
    TARE_ASSIGN_OR_RETURN(spec.confidence, r.Number(*n, "confidence"));
    if (!(spec.confidence > 0 && spec.confidence < 1)) {
      return r.Error(*n, "confidence", fmt::format("{} is not between 0 and 1; write 0.95 for 95%", spec.confidence));
    }
  }
  if (const toml::node* n = root.get("look_scheme")) {
    TARE_ASSIGN_OR_RETURN(std::string scheme, r.String(*n, "look_scheme"));
    auto parsed = ParseLookScheme(scheme);
    if (!parsed.ok()) return r.Error(*n, "look_scheme", parsed.status().message());
    spec.look_scheme = *parsed;
  }
  if (const toml::node* n = root.get("noise_floor")) {
    TARE_ASSIGN_OR_RETURN(std::string rule, r.String(*n, "noise_floor"));
    auto parsed = ParseNoiseFloorRule(rule);
    if (!parsed.ok()) return r.Error(*n, "noise_floor", parsed.status().message());
    spec.noise_floor = *parsed;
  }
  if (const toml::node* n = root.get("interval")) {
    TARE_ASSIGN_OR_RETURN(std::string method, r.String(*n, "interval"));
    auto parsed = ParsePairedInterval(method);
    if (!parsed.ok()) return r.Error(*n, "interval", parsed.status().message());
    spec.interval = *parsed;
  }
  if (const toml::node* n = root.get("noise_cap")) {
    TARE_ASSIGN_OR_RETURN(std::string text, r.String(*n, "noise_cap"));
    auto parsed = ParseAllowance(text);
    if (!parsed.ok() || parsed->noise) {
      return r.Error(*n, "noise_cap", fmt::format("'{}' is not a percentage like \"2%\"", text));
    }
    spec.noise_cap = parsed->fraction;
  }
  if (const toml::node* n = root.get("gates")) {
    TARE_ASSIGN_OR_RETURN(std::vector<std::string> rules, r.Strings(*n, "gates"));
    spec.gates.emplace();
    for (size_t i = 0; i < rules.size(); ++i) {
      auto g = ParseGate(rules[i]);
      if (!g.ok()) return r.Error(*n, fmt::format("gates[{}]", i), g.status().message());
      spec.gates->push_back(*g);
    }
  }
  if (const toml::node* n = root.get("bounds")) {
    TARE_ASSIGN_OR_RETURN(std::vector<std::string> rules, r.Strings(*n, "bounds"));
    for (size_t i = 0; i < rules.size(); ++i) {
      auto b = ParseBound(rules[i]);
      if (!b.ok()) return r.Error(*n, fmt::format("bounds[{}]", i), b.status().message());
      spec.bounds.push_back(*b);
    }
  }

  const toml::node* arms = root.get("arms");
  if (arms == nullptr) {
    return r.Error("arms", "missing; declare [arms] with base = \"PATH\" and head = \"PATH\"");
  }
  if (!arms->is_table()) return r.Error(*arms, "arms", fmt::format("expected a table, got {}", TypeName(*arms)));
  TARE_RETURN_IF_ERROR(ReadArms(r, *arms->as_table(), &spec));
  if (const toml::node* n = root.get("sampling")) {
    if (!n->is_table()) return r.Error(*n, "sampling", fmt::format("expected a table, got {}", TypeName(*n)));
    TARE_RETURN_IF_ERROR(ReadSampling(r, *n->as_table(), &spec));
  }
  if (const toml::node* n = root.get("metrics")) {
    if (!n->is_table()) return r.Error(*n, "metrics", fmt::format("expected a table, got {}", TypeName(*n)));
    TARE_RETURN_IF_ERROR(ReadMetrics(r, *n->as_table(), &spec));
  }
  if (const toml::node* n = root.get("cells")) TARE_RETURN_IF_ERROR(ReadCells(r, *n, &spec));
  if (!spec.filter.empty() && !spec.cells.empty()) {
    return r.Error("filter", "give either [[cells]] or filter, not both (cells name their benchmarks)");
  }
  return spec;
}

}  // namespace tare::campaign
