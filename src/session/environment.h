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
std::vector<std::string> ApplyEnvOverrides(std::vector<std::string> env,
                                           const std::vector<std::string>& overrides);

// The part of a child's environment that changes how the same executable behaves, so that two runs
// differing in it are not comparable (issue 23, item 3: a run with MALLOC_ARENA_MAX=2 was pooled
// with runs without): the dynamic loader's (LD_PRELOAD, LD_LIBRARY_PATH, LD_BIND_NOW,
// GLIBC_TUNABLES), the allocators' (MALLOC_*, MALLOC_CONF, TCMALLOC_*, MIMALLOC_*, JEMALLOC_*),
// the threading and maths runtimes' (OMP_*, GOMP_*, KMP_*, MKL_*, OPENBLAS_*) and the sanitizers'
// (*SAN_OPTIONS). "NAME=VALUE" lines sorted by name, joined by "; "; "" when none is set. A run of
// `tare run` records it as the hard fingerprint key `target.env` when it is not "" (docs/fingerprint.md).
std::string BehaviourChangingEnvironment(const std::vector<std::string>& env);

}  // namespace tare::session
