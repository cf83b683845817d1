// tare::State forwards to the sample's RunContext (src/lib/run_context.h).
#include "tare/state.hpp"

#include "lib/run_context.h"

namespace tare {

uint64_t State::EnterLoop() { return context_->EnterLoop(); }
uint64_t State::NextChunk() { return context_->NextChunk(); }
bool State::keep_running() { return context_->KeepRunning(); }

int64_t State::arg(std::size_t index) const {
  const auto& args = context_->instance().args;
  if (index >= args.size()) {
    context_->SkipWithError("benchmark '" + context_->instance().name + "' read arg(" + std::to_string(index) +
                            ") but has " + std::to_string(args.size()) + " parameter(s)");
    return 0;
  }
  return args[index];
}

std::size_t State::arg_count() const { return context_->instance().args.size(); }
const std::string& State::name() const { return context_->instance().name; }
uint64_t State::iterations() const { return context_->iters(); }
void State::pause_timing() { context_->Pause(); }
void State::resume_timing() { context_->Resume(); }
void State::set_items_processed(double total_items) { context_->SetCounter("items_processed", total_items); }
void State::set_bytes_processed(double total_bytes) { context_->SetCounter("bytes_processed", total_bytes); }
void State::add_counter(std::string_view name, double total) { context_->AddCounter(name, total); }
void State::set_gauge(std::string_view name, double value) { context_->SetGauge(name, value); }
void State::skip_with_error(std::string_view message) { context_->SkipWithError(message); }
bool State::error_occurred() const { return context_->error_occurred(); }

}  // namespace tare
