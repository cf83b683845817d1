// The one place a child's environment is put together: tare's own environment, then the
// campaign's or the command line's KEY=VALUE overrides, then a cell's. Nothing else in tare merges
// environments.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace tare::session {

// tare's environment, KEY=VALUE, in the order the kernel gave it, without tare's own secrets
// ($TARE_STORE, $PGPASSWORD: base/redact.h's kSecretVariables; --env can still set one).
std::vector<std::string> ProcessEnvironment();

// InvalidArgument "<field> 'X' must look like KEY=VALUE" for an override without '=' or without a
// key (`field` names where it came from: "--env", "[[cells]] env").
Status ValidateEnvOverrides(const std::vector<std::string>& overrides, const std::string& field);

// `env` with KEY=VALUE overrides applied: a KEY already present is replaced in place, a new one is
// appended. Overrides are expected to be valid (ValidateEnvOverrides).
std::vector<std::string> ApplyEnvOverrides(std::vector<std::string> env, const std::vector<std::string>& overrides);

}  // namespace tare::session
