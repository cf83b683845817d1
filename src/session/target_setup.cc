#include "session/target_setup.h"

#include <fmt/format.h>

#include <filesystem>

#include "base/files.h"
#include "base/json_text.h"
#include "env/executable_info.h"
#include "session/environment.h"

namespace tare::session {

std::string WhereTypedElseUnderCwd(const std::string& program, const std::string& typed_dir, const std::string& cwd) {
  const std::filesystem::path p(program);
  if (program.empty() || p.is_absolute()) return program;
  const std::string typed =
      typed_dir.empty() ? program : (std::filesystem::path(typed_dir) / p).lexically_normal().string();
  std::error_code ec;
  if (cwd.empty() || std::filesystem::exists(typed, ec)) return typed;
  const std::string under_cwd = (std::filesystem::path(cwd) / p).lexically_normal().string();
  return std::filesystem::exists(under_cwd, ec) ? under_cwd : typed;
}

StatusOr<target::TargetSpec> ResolveTarget(const TargetArgs& args) {
  if (args.argv.empty()) {
    return Status::InvalidArgument("no target given; write `tare run ./my_bench` or `tare run -- ./prog arg1 arg2`");
  }
  target::TargetSpec spec;
  if (!args.cwd.empty() && !std::filesystem::is_directory(args.cwd)) {
    return Status::InvalidArgument(fmt::format("--cwd '{}' is not a directory", args.cwd));
  }
  spec.cwd = args.cwd;
  TARE_RETURN_IF_ERROR(ValidateEnvOverrides(args.env, "--env"));
  spec.env = ApplyEnvOverrides(ProcessEnvironment(), args.env);
  if (args.shell) {
    std::string line;
    for (const auto& a : args.argv) line += (line.empty() ? "" : " ") + a;
    if (line.find_first_not_of(" \t\r\n") == std::string::npos) {
      return Status::InvalidArgument(
          "--shell was given an empty command line; write e.g. `tare run --shell 'grep -c x big.txt'`");
    }
    if (args.shell_argv.empty() || args.shell_argv[0].empty()) {
      return Status::InvalidArgument("--shell=SHELL names no shell; write e.g. --shell=bash");
    }
    TARE_ASSIGN_OR_RETURN(std::string shell, ResolveExecutable(args.shell_argv[0]));
    spec.argv = args.shell_argv;
    spec.argv[0] = shell;
    spec.argv.push_back("-c");
    spec.argv.push_back(line);
    spec.name = std::filesystem::path(shell).filename().string();
    spec.kind = TargetKind::kCommand;
    if (args.kind != "auto" && args.kind != "command") {
      return Status::InvalidArgument("--shell runs a command line; it cannot be combined with --kind " + args.kind);
    }
    return spec;
  }
  if (args.argv[0].empty()) {
    return Status::InvalidArgument("the target is an empty string; name a program, e.g. `tare run ./my_bench`");
  }
  // A bare name is looked up on PATH; a relative path where it was typed, else under --cwd.
  std::string program = args.argv[0];
  if (program.find('/') != std::string::npos) program = WhereTypedElseUnderCwd(program, "", args.cwd);
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
  return ExecutableRecord{role, path, info.sha256, DumpJson(env::ExecutableInfoToJson(info))};
}

}  // namespace tare::session
