// `tare attribute`'s table under each exact culprit of a sim bisection: the change in Ir per
// function between the culprit's parent and the culprit, from the callgrind files the two sim
// samples left (count_cache.h keeps them), inlining checked in the two cached executables.
#pragma once

#include <cstddef>

#include "bisect/bisect.h"

namespace tare::bisect {

// Fills each exact changed answer's attribution_{console,markdown,json}, the top `top` functions;
// a profile that cannot be read is said in attribution_problem, never an error.
void AttributeCulprits(BisectReport* report, size_t top);

}  // namespace tare::bisect
