//===- CompileOptions.cpp - the record's printed form and ranges ----------===//
#include "blk/Target/CompileOptions.h"
#include "blk/Target/ChipFacts.h"

#include <sstream>
#include <tuple>

using namespace blk;

static void printValue(std::ostream &os, const std::string &value) {
  os << value;
}
static void printValue(std::ostream &os, bool value) {
  os << (value ? "true" : "false");
}
static void printValue(std::ostream &os, int64_t value) { os << value; }
static void printValue(std::ostream &os, unsigned value) { os << value; }

std::string CompileOptions::print() const {
  std::ostringstream os;
  os << "target=" << (target == TargetKind::GPU ? "gpu" : "cpu") << "\n";
#define BLK_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESCRIPTION)                   \
  os << FLAG << "=";                                                           \
  printValue(os, FIELD);                                                       \
  os << "\n";
#include "blk/Target/CompileOptions.def"
  for (const auto &[name, value] : constants)
    os << "const " << name << "=" << value << "\n";
  os << "multiprocessors=" << multiprocessors << "\n";
  return os.str();
}

std::string CompileOptions::verify() const {
  auto notBelowZero = [](const char *flag, int64_t value,
                         const char *zeroMeans) -> std::string {
    if (value >= 0)
      return "";
    return std::string(flag) + " must be 0 (" + zeroMeans +
           ") or positive, not " + std::to_string(value);
  };
  for (std::string error :
       {notBelowZero("num-warps", numWarps, "the program's own"),
        notBelowZero("num-ctas", numCtas, "the program's own"),
        notBelowZero("num-stages", numStages, "the program's own"),
        notBelowZero("stage-min-registers", stageMinRegisters, "never"),
        notBelowZero("async-fill-min-runs", asyncFillMinRuns, "never"),
        notBelowZero("combine-centered-squares-min-elements",
                     combineCenteredSquaresMinElements, "never"),
        notBelowZero("multiprocessors", multiprocessors, "not known")})
    if (!error.empty())
      return error;
  // The launch shape's own ranges (KernelAttr's verifier), said of the
  // flag rather than of the program it would be written into.
  for (auto [flag, value, most] :
       {std::tuple("num-warps", numWarps, chip::kMaxWarpsPerCta),
        std::tuple("num-ctas", numCtas, chip::kMaxClusterCtas)})
    if (!chip::isLaunchCount(value, most))
      return std::string(flag) +
             " must be 0 (the program's own) or a power of two from 1 to " +
             std::to_string(most) + ", not " + std::to_string(value);
  if (numStages > chip::kMaxPipelineStages)
    return "num-stages must be 0 (the program's own) or from 1 to " +
           std::to_string(chip::kMaxPipelineStages) + ", not " +
           std::to_string(numStages);
  // Autotuning tries twice the tile: it must stay far from overflow.
  if (maxTile < 2 || maxTile > (int64_t(1) << 30) ||
      (maxTile & (maxTile - 1)) != 0)
    return "max-tile must be a power of two from 2 to 2^30, not " +
           std::to_string(maxTile);
  if (splitRows != "auto" && splitRows != "always" && splitRows != "never")
    return "split-rows must be auto, always or never, not '" + splitRows +
           "'";
  if (streamRows != "auto" && streamRows != "always" && streamRows != "never")
    return "stream-rows must be auto, always or never, not '" + streamRows +
           "'";
  if (optLevel > 3)
    return "opt-level must be 0 to 3, not " + std::to_string(optLevel);
  if (minCtasPerSm < 0 || minCtasPerSm > chip::kMaxCtasPerSm)
    return "min-ctas-per-sm must be 0 (the rules' choice) to " +
           std::to_string(chip::kMaxCtasPerSm) + ", not " +
           std::to_string(minCtasPerSm);
  return "";
}
