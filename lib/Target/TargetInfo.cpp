//===- TargetInfo.cpp - chip names, PTX versions and limits ---------------===//
#include "blk/Target/TargetInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace mlir::blk;

unsigned TargetInfo::parseChipNumber(llvm::StringRef chip) {
  unsigned number = 0;
  if (!chip.consume_front("sm_"))
    return 0;
  llvm::StringRef digits = chip.take_while(llvm::isDigit);
  // Only the architecture-specific suffixes may follow (sm_90a, sm_100f):
  // anything else (a mistyped option list, say) would reach NVPTX, which
  // does not know the name.
  llvm::StringRef suffix = chip.drop_front(digits.size());
  if (digits.getAsInteger(10, number) ||
      !(suffix.empty() || suffix == "a" || suffix == "f"))
    return 0;
  return number;
}

bool TargetInfo::isKnownToNVPTX(llvm::StringRef chip) {
  // `llc -march=nvptx64 -mcpu=help` of LLVM 22, from sm_70 on: NVPTX aborts
  // on any other name ("not a recognized processor", then an instruction
  // it cannot select).
  static const char *const known[] = {
      "sm_70",   "sm_72",   "sm_75",   "sm_80",   "sm_86",   "sm_87",
      "sm_88",   "sm_89",   "sm_90",   "sm_90a",  "sm_100",  "sm_100a",
      "sm_100f", "sm_101",  "sm_101a", "sm_101f", "sm_103",  "sm_103a",
      "sm_103f", "sm_110",  "sm_110a", "sm_110f", "sm_120",  "sm_120a",
      "sm_120f", "sm_121",  "sm_121a", "sm_121f"};
  return llvm::is_contained(known, chip);
}

unsigned TargetInfo::getMinimumPTXVersion(unsigned chipNumber) {
  static const std::pair<unsigned, unsigned> table[] = {
      {70, 60}, {72, 61}, {75, 63}, {80, 70}, {86, 71},
      {87, 74}, {89, 78}, {90, 78}, {100, 86}, {120, 87}};
  unsigned version = 60;
  for (auto [knownChip, minimum] : table)
    if (chipNumber >= knownChip)
      version = minimum;
  return version;
}

std::string TargetInfo::getDefaultFeatures(llvm::StringRef chip) {
  unsigned number = parseChipNumber(chip);
  if (!number)
    return "";
  return "+ptx" + std::to_string(std::max(80u, getMinimumPTXVersion(number)));
}

std::string TargetInfo::getDeviceChip(unsigned major, unsigned minor) {
  std::string chip = "sm_" + std::to_string(major) + std::to_string(minor);
  return major == 9 && minor == 0 ? chip + "a" : chip;
}

/// The PTX version `+ptxNN` in a feature list names, or 0.
static unsigned parsePTXVersion(llvm::StringRef features) {
  size_t at = features.find("+ptx");
  unsigned version = 0;
  if (at == llvm::StringRef::npos ||
      features.substr(at + 4).take_while(llvm::isDigit).getAsInteger(10,
                                                                     version))
    return 0;
  return version;
}

llvm::Expected<TargetInfo> TargetInfo::get(llvm::StringRef chip,
                                           llvm::StringRef features) {
  auto error = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  if (chip.empty())
    chip = kDefaultChip;
  unsigned number = parseChipNumber(chip);
  if (number < kMinChip)
    return error("unsupported chip '" + chip + "': expected sm_" +
                 llvm::Twine(kMinChip) + " or newer (e.g. sm_80, sm_90)");
  if (!isKnownToNVPTX(chip))
    return error("unknown chip '" + chip +
                 "': LLVM 22's NVPTX back end knows sm_70, 72, 75, 80, 86, "
                 "87, 88, 89, 90(a), 100, 101, 103, 110, 120 and 121 (with "
                 "a or f)");
  std::string chosen =
      features.empty() ? getDefaultFeatures(chip) : features.str();
  unsigned minimum = getMinimumPTXVersion(number);
  // NVPTX would abort on a PTX version it does not know, or one too old for
  // the chip: both are caught here with a message.
  unsigned ptx = parsePTXVersion(chosen);
  if (!ptx)
    return error("target features '" + chosen +
                 "' name no PTX version; add one, e.g. +ptx" +
                 llvm::Twine(minimum));
  if (ptx < minimum)
    return error("PTX " + llvm::Twine(ptx / 10) + "." + llvm::Twine(ptx % 10) +
                 " (+ptx" + llvm::Twine(ptx) + ") does not know " + chip +
                 "; it needs +ptx" + llvm::Twine(minimum) + " or newer");
  if (ptx > kMaxPTXVersion)
    return error("PTX " + llvm::Twine(ptx / 10) + "." + llvm::Twine(ptx % 10) +
                 " (+ptx" + llvm::Twine(ptx) +
                 ") is newer than LLVM's NVPTX back end writes (at most +ptx" +
                 llvm::Twine(kMaxPTXVersion) + ")");
  return TargetInfo(chip.str(), number, std::move(chosen), ptx);
}

int64_t TargetInfo::getMaxSharedBytesPerCta() const {
  switch (chipNumber) {
  case 70:
  case 72:
    return 96 * 1024;
  case 75:
    return 64 * 1024;
  case 80:
  case 87:
    return 163 * 1024;
  case 90:
  case 100:
  case 101:
  case 103:
  case 110:
    return 227 * 1024;
  default:
    // sm_86, sm_89, sm_120, sm_121, and chips not known when this was
    // written: the smallest of the recent chips' limits.
    return 99 * 1024;
  }
}

int64_t mlir::blk::getMaxKeptBytesPerCta(int64_t maxSharedBytesPerCta,
                                         int64_t threads, int64_t reductions) {
  constexpr int64_t kDriverReservedSharedBytes = 1024;
  return maxSharedBytesPerCta / 2 - kDriverReservedSharedBytes -
         reductions * threads * 8;
}
