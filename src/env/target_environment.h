// The fingerprint key `target.env` (hard): the part of the targets' environment that changes how
// the same executable behaves, so that two runs differing in it are not comparable (issue 23, item
// 3: a run with MALLOC_ARENA_MAX=2 was pooled with runs without) — the dynamic loader's (LD_PRELOAD,
// LD_LIBRARY_PATH, LD_BIND_NOW, GLIBC_TUNABLES), the allocators' (MALLOC_*, MALLOC_CONF, TCMALLOC_*,
// MIMALLOC_*, JEMALLOC_*), the threading and maths runtimes' (OMP_*, GOMP_*, KMP_*, MKL_*,
// OPENBLAS_*) and the sanitizers' (*SAN_OPTIONS).
//
// One rule for every fingerprint tare shows or records (issue 44, item 5: one machine showed two
// host digests): the environment is the one the targets run with — tare's own, with `--env`
// applied — for `tare run` and `tare ab`, and tare's own for `tare env` (what a target inherits
// when no --env is given). docs/fingerprint.md.
#pragma once

#include <string>
#include <vector>

#include "model/fingerprint.h"

namespace tare::env {

// "NAME=VALUE" lines of `environment` (KEY=VALUE entries) that change behaviour, sorted by name,
// joined by "; "; "" when none is set. Of a name given twice, the first (as getenv() reads it).
std::string BehaviourChangingEnvironment(const std::vector<std::string>& environment);

// Adds the hard key `target.env` to `fp` when BehaviourChangingEnvironment(environment) is not ""
// (absent otherwise, so hosts without any keep the digest they always had); replaces one present.
void AddTargetEnvironment(Fingerprint* fp, const std::vector<std::string>& environment);

}  // namespace tare::env
