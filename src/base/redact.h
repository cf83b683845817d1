// Secrets kept out of what tare prints and records (issue 27, item 2): a PostgreSQL store URL's
// password must not reach runs.command_line (and so `tare runs`, exports, bundles and HTML of a
// shared store), the end-of-run line or an error message.
#pragma once

#include <string>
#include <string_view>

namespace tare {

// `text` with every secret replaced by ***: the password of a URL's user info
// (scheme://user:PASSWORD@host/... → scheme://user:***@host/...; the user info ends at the last '@'
// before the host's '/', '?' or '#') and the value of every `password=` (libpq's ?password=...,
// a conninfo's password=...; any case; the value ends at '&', a blank or the end). Text without
// either comes back unchanged.
std::string RedactSecrets(std::string_view text);

}  // namespace tare
