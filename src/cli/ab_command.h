// `tare ab`: a paired A/B campaign — base against one or more heads (and a null A/A arm), in fresh
// interleaved processes, with PASS / INCONCLUSIVE / FAIL per cell and metric, a Markdown ledger and
// an exit status for CI. From a campaign file (`tare ab campaign.toml`) or from flags
// (`tare ab --base old/bench --head new/bench --null [-- ARGS]`). docs/campaign.md.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace tare::cli {

// `target_args`: what followed a `--` on tare's command line (ARGS passed to every arm), cut
// from argv before CLI11 sees it.
void AddAbCommand(CLI::App& app, int* exit_code, const std::vector<std::string>* target_args);

}  // namespace tare::cli
