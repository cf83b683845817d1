// Secrets kept out of what tare prints and records (issue 27, item 2): a PostgreSQL store URL's
// password must not reach runs.command_line (and so `tare runs`, exports, bundles and HTML of a
// shared store), the end-of-run line or an error message.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tare {

// `text` with every secret replaced by ***: the password of a URL's user info
// (scheme://user:PASSWORD@host/... → scheme://user:***@host/...; the user info ends at the last '@'
// before the host's '/', '?' or '#') and the value of every `password=` (libpq's ?password=...,
// a conninfo's password=...; any case; the value ends at '&', a blank or the end). Text without
// either comes back unchanged.
std::string RedactSecrets(std::string_view text);

// Overwrites, in place, every byte of each secret RedactSecrets finds in the NUL-terminated `text`
// with '*' (the text keeps its length). For tare's own argv (issue 48, item 1): the kernel shows a
// process's argv to every user of the host (/proc/PID/cmdline, ps), so main() copies its arguments
// and then masks the originals. Until it does — from exec to the first line of main() — the
// password is visible: prefer ~/.pgpass or $PGPASSWORD (docs/store.md).
void MaskSecretsInPlace(char* text);

// tare's own secrets in its environment (issue 48, item 1): the store (which may be a PostgreSQL
// URL with its password) and libpq's password. No process tare starts inherits them — not the
// programs it measures (`tare ab`'s head arm is a pull request's code), not --prepare/--setup
// commands, oracles' trials, bisect's build commands, git or the spawn helper; a variable given
// with --env (or a campaign's env) on purpose is still set.
inline constexpr std::string_view kSecretVariables[] = {"TARE_STORE", "PGPASSWORD"};
bool IsSecretVariable(std::string_view name);

// tare's environment, KEY=VALUE in the kernel's order, without kSecretVariables: the base of every
// child's environment. The second form points into `environ` (for posix_spawn; valid until the
// environment changes), ending with nullptr.
std::vector<std::string> EnvironmentWithoutSecrets();
std::vector<char*> EnvironmentWithoutSecretsPointers();

}  // namespace tare
