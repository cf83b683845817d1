#include "cli/target_setup.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>

#include "base/files.h"
#include "env/executable_info.h"

extern char** environ;

namespace tare::cli {

namespace {
std::vector<std::string>& InvocationStorage() {
  static std::vector<std::string> argv;
  return argv;
}
}  // namespace

void SetInvocation(int argc, char** argv) { InvocationStorage().assign(argv, argv + argc); }
const std::vector<std::string>& Invocation() { return InvocationStorage(); }

SplitArgs SplitAtTarget(const std::vector<std::string>& argv, size_t first,
                        const std::vector<std::string>& value_options) {
  SplitArgs out;
  out.tare.assign(argv.begin(), argv.begin() + static_cast<std::ptrdiff_t>(std::min(first, argv.size())));
  size_t i = first;
  while (i < argv.size()) {
    const std::string& a = argv[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a.size() < 2 || a[0] != '-') break;  // the target
    out.tare.push_back(a);
    bool takes_value = a.find('=') == std::string::npos &&
                       std::find(value_options.begin(), value_options.end(), a) != value_options.end();
    if (takes_value && i + 1 < argv.size()) out.tare.push_back(argv[++i]);
    ++i;
  }
  out.target.assign(argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
  return out;
}

int64_t UnixNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch()).count();
}

StatusOr<std::vector<std::string>> ChildEnvironment(const std::vector<std::string>& overrides) {
  std::vector<std::string> env;
  std::map<std::string, size_t> index;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string kv = *e;
    index[kv.substr(0, kv.find('='))] = env.size();
    env.push_back(kv);
  }
  for (const auto& kv : overrides) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::InvalidArgument(fmt::format("--env '{}' must look like KEY=VALUE", kv));
    }
    auto it = index.find(kv.substr(0, eq));
    if (it != index.end()) {
      env[it->second] = kv;
    } else {
      index[kv.substr(0, eq)] = env.size();
      env.push_back(kv);
    }
  }
  return env;
}

StatusOr<target::TargetSpec> ResolveTarget(const TargetArgs& args) {
  if (args.argv.empty()) {
    return Status::InvalidArgument(
        "no target given; write `tare run ./my_bench` or `tare run -- ./prog arg1 arg2`");
  }
  target::TargetSpec spec;
  if (!args.cwd.empty() && !std::filesystem::is_directory(args.cwd)) {
    return Status::InvalidArgument(fmt::format("--cwd '{}' is not a directory", args.cwd));
  }
  spec.cwd = args.cwd;
  TARE_ASSIGN_OR_RETURN(spec.env, ChildEnvironment(args.env));
  if (args.shell) {
    std::string line;
    for (const auto& a : args.argv) line += (line.empty() ? "" : " ") + a;
    spec.argv = {"/bin/sh", "-c", line};
    spec.name = "sh";
    spec.kind = TargetKind::kCommand;
    if (args.kind != "auto" && args.kind != "command") {
      return Status::InvalidArgument("--shell runs a command line; it cannot be combined with --kind " + args.kind);
    }
    return spec;
  }
  // Relative program paths are relative to --cwd when given, as they would be for the child.
  std::string program = args.argv[0];
  if (!args.cwd.empty() && program.find('/') != std::string::npos && program[0] != '/') {
    std::string in_cwd = args.cwd + "/" + program;
    if (std::filesystem::exists(in_cwd) || !std::filesystem::exists(program)) program = in_cwd;
  }
  TARE_ASSIGN_OR_RETURN(std::string path, ResolveExecutable(program));
  spec.argv = args.argv;
  spec.argv[0] = path;
  spec.name = std::filesystem::path(path).filename().string();
  if (args.kind == "auto") {
    TARE_ASSIGN_OR_RETURN(spec.kind, target::DetectTargetKind(path));
  } else {
    TARE_ASSIGN_OR_RETURN(spec.kind, ParseTargetKind(args.kind));
  }
  return spec;
}

StatusOr<ExecutableRecord> DescribeForStore(const std::string& role, const std::string& path) {
  TARE_ASSIGN_OR_RETURN(env::ExecutableInfo info, env::DescribeExecutable(path));
  return ExecutableRecord{role, path, info.sha256, env::ExecutableInfoToJson(info).dump()};
}

}  // namespace tare::cli
