#include "cli/commands.h"

#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "base/json_text.h"
#include "base/terminal_text.h"
#include "env/host_fingerprint.h"
#include "env/fingerprint_json.h"
#include "env/fingerprint_text.h"
#include "env/target_environment.h"
#include "session/environment.h"

namespace tare::cli {

void AddEnvCommand(CLI::App& app, int* exit_code) {
  struct Flags {
    bool json = false;
    bool sim = false;
  };
  // Owned by the callback, which CLI11 keeps alive as long as the app.
  auto flags = std::make_shared<Flags>();
  CLI::App* command =
      app.add_subcommand("env", "Show the host fingerprint (hard keys marked *) and stability checks with their fixes");
  command->add_flag("--json", flags->json, "Print the fingerprint as JSON (schema tare.fingerprint/1)");
  command->add_flag("--sim", flags->sim,
                    "Also record the valgrind version, a hard key for --instrument sim "
                    "(runs valgrind --version)");
  command->footer(R"(
The fingerprint is what makes two hosts comparable: CPU model and frequency policy, kernel, C
library, memory, limits, the environment a target inherits. Hard keys (*) enter the digest that
tare run, tare ab and the site record: runs on hosts with different digests are never pooled.
The stability checks name what makes timings unstable here (frequency scaling, turbo, SMT, a busy
host) with the command that fixes each.

Examples:
  tare env                         the fingerprint and the checks, grouped
  tare env --json                  the fingerprint as JSON (tare.fingerprint/1), e.g. to diff two hosts
  tare env --sim                   with valgrind's version, a hard key of --instrument sim)");
  command->callback([flags, exit_code] {
    Fingerprint fp = env::CollectFingerprint({.probe_valgrind = flags->sim});
    // target.env from what a target inherits with no --env: the digest `tare run` and `tare ab` record.
    env::AddTargetEnvironment(&fp, session::ProcessEnvironment());
    std::string out = flags->json ? DumpJson(env::FingerprintToJson(fp), 2) + "\n"
                                  : TerminalText(env::FormatFingerprintText(fp));  // host strings, as read
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    *exit_code = 0;
  });
}

}  // namespace tare::cli
