#include "cli/shard_flags.h"

#include <fmt/core.h>

#include "cli/common_flags.h"
#include "store/store.h"

namespace tare::cli {

void AddShardFlags(CLI::App* sub, ShardFlags* f) {
  sub->add_option("--shard", f->shard,
                  "Measure only shard K of N: a deterministic part of the benchmarks (cells), the same split in every "
                  "job; the whole split is recorded with the run (`tare shards`)")
      ->type_name("K/N");
  sub->add_option("--shard-weights", f->weights,
                  "Balance the shards by each benchmark's measured time in this stored run (give every job the same "
                  "selector, e.g. uid:HEX); default: equal weights")
      ->type_name("SELECTOR");
  sub->add_option("--shard-weights-store", f->weights_store, "Where --shard-weights is looked up (default: --store)")
      ->type_name("STORE");
}

StatusOr<std::optional<session::ShardSpec>> ResolveShardFlags(const ShardFlags& f, const std::string& store_path) {
  if (f.shard.empty()) {
    if (!f.weights.empty() || !f.weights_store.empty()) {
      return Status::InvalidArgument("--shard-weights and --shard-weights-store need --shard K/N");
    }
    return std::optional<session::ShardSpec>();
  }
  TARE_ASSIGN_OR_RETURN(session::ShardSpec spec, session::ParseShard(f.shard));
  if (f.weights.empty()) {
    if (!f.weights_store.empty())
      return Status::InvalidArgument("--shard-weights-store needs --shard-weights SELECTOR");
    return std::optional<session::ShardSpec>(spec);
  }
  const std::string location = f.weights_store.empty() ? store_path : f.weights_store;
  if (!store::IsStoreUrl(location)) {
    if (Status s = RequireStore(location); !s.ok()) {
      return Status::NotFound(fmt::format(
          "--shard-weights: there is no store at '{}' to read run '{}' from; give the store that holds it with "
          "--shard-weights-store, or leave --shard-weights out for equal weights",
          location, f.weights));
    }
  }
  TARE_ASSIGN_OR_RETURN(auto store, store::Store::Open(location));
  TARE_ASSIGN_OR_RETURN(spec, session::WithWeightsFromRun(std::move(spec), *store, f.weights));
  return std::optional<session::ShardSpec>(std::move(spec));
}

}  // namespace tare::cli
