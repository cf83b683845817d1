#include "model/target.h"

#include <fmt/format.h>

namespace tare {

const char* TargetKindName(TargetKind k) {
  switch (k) {
    case TargetKind::kCommand:
      return "command";
    case TargetKind::kGbench:
      return "gbench";
    case TargetKind::kTare:
      return "tare";
  }
  return "command";
}

StatusOr<TargetKind> ParseTargetKind(const std::string& name) {
  if (name == "command") return TargetKind::kCommand;
  if (name == "gbench") return TargetKind::kGbench;
  if (name == "tare") return TargetKind::kTare;
  return Status::InvalidArgument(fmt::format("unknown target kind '{}'; use auto, command, gbench or tare", name));
}

const char* InstrumentName(Instrument i) {
  switch (i) {
    case Instrument::kWall:
      return "wall";
    case Instrument::kSim:
      return "sim";
    case Instrument::kMem:
      return "mem";
  }
  return "wall";
}

StatusOr<Instrument> ParseInstrument(const std::string& name) {
  if (name == "wall") return Instrument::kWall;
  if (name == "sim") return Instrument::kSim;
  if (name == "mem") return Instrument::kMem;
  return Status::InvalidArgument(fmt::format("unknown instrument '{}'; use wall, sim or mem", name));
}

}  // namespace tare
