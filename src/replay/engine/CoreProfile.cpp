/// \file
/// Core profiles: the file format, the built-in ones and --core-profile.
///   {"format": "mlgo-ra-core-profile", "version": 1, "mcpu": "znver4",
///    "measured_on": "AuthenticAMD family 25 model 17", "renamed_reload_cycles": 0,
///    "forwarded_reload_cycles": null, "slot_operation_cycles": null, "fetch_line_bytes": 64,
///    "line_ops": null, "fetch_blocks_per_cycle": null, "split_jump_cycles": null,
///    "speculative_loads": true, "stores_per_cycle": null}
/// renamed_reload_cycles may be null: the core does not rename stack slots;
/// forwarded_reload_cycles, slot_operation_cycles and the front end's numbers null or
/// absent (profiles written before them): the engine's forwarding latency, an operation
/// on a slot stored at its issue, no front end (fetch_line_bytes), no limit on a line's
/// operations, a block a cycle, no cost of a split jump; speculative_loads false or
/// absent: loads wait for older stores' addresses; stores_per_cycle null or absent: the
/// model's store throughput. Other members (calibrate's measurements) are for people
/// and ignored.
#include "replay/engine/CoreProfile.h"
#include "support/Error.h"

namespace mlgo {

namespace {
constexpr const char *FormatName = "mlgo-ra-core-profile";
constexpr int FormatVersion = 1;
} // namespace

std::string CoreProfile::identity() const {
  if (empty())
    return "";
  std::string Text =
      "renamed-reload " + (RenamedReloadCycles ? std::to_string(*RenamedReloadCycles) : "none");
  // Added only when set, so that the keys of profiles without them stay.
  if (ForwardedReloadCycles)
    Text += " forwarded-reload " + std::to_string(*ForwardedReloadCycles);
  if (SlotOperationCycles)
    Text += " slot-operation " + std::to_string(*SlotOperationCycles);
  if (FetchLineBytes)
    Text += " fetch-line " + std::to_string(*FetchLineBytes);
  if (LineOps)
    Text += " line-ops " + std::to_string(*LineOps);
  if (FetchBlocksPerCycle)
    Text += " fetch-blocks " + std::to_string(*FetchBlocksPerCycle);
  if (SplitJumpCycles)
    Text += " split-jump " + std::to_string(*SplitJumpCycles);
  if (SpeculativeLoads)
    Text += " speculative-loads";
  if (StoresPerCycle)
    Text += " stores-per-cycle " + std::to_string(*StoresPerCycle);
  return Text;
}

CoreProfile builtInCoreProfile(llvm::StringRef CPU) {
  // Measured by `mlgo-ra calibrate` (docs/calibrate.md): on Zen 4 and Emerald Rapids a
  // block of code across a 64-byte line takes a cycle more; Zen 5 takes two jumps a cycle
  // and delivers 12 operations of a line at once; it pays a cycle for a jump split from
  // its compare across a line in snappy's hot loop and in loops of their own, but
  // calibrate's jump loops do not measure that reliably (docs/calibrate.md). With the
  // three its arena's signs and ranks improved (docs/results/arena.md). On Zen 4 a spill
  // and its reload on a dependence chain cost no cycle (memory renaming), where the
  // scheduling models charge forwarding from the store; Zen 5 renames folded reloads too,
  // and an add to a slot has the stored value at once; Emerald Rapids forwards a reload
  // into another register, in about 5 cycles. Zen 4's forwarding latency is left to the
  // engine's rule: its profile was set before calibrate measured one, and so is how soon
  // an add to a slot has its value (at once on Emerald Rapids). Zen 4 and Zen 5 issue
  // loads past stores whose addresses are not known; Emerald Rapids was not measured for
  // it. Zen 5 issues two plain stores a cycle, where LLVM's model (Zen 4's) lets one
  // through, but its profile leaves that out: with it the arena's variants ranked worse
  // (Spearman 0.76 against 0.83, docs/results/arena.md) though the slope came closer to
  // 1. Zen 3's is what calibrate measured there (one run): Zen 4's, with its forwarding
  // of a folded reload in 7 cycles and an add to a slot at once, and two stores a cycle
  // left out as for Zen 5; its arena accuracy has not been measured. The Granite Rapids
  // core (KVM reports it as family 6 model 167, which LLVM names rocketlake) renames
  // every store-to-load path calibrate runs, through another pointer too, and issues
  // loads past stores: Zen 5's, but for its 64-byte line.
  struct BuiltIn {
    const char *CPU, *MeasuredOn;
    std::optional<unsigned> RenamedReloadCycles, ForwardedReloadCycles, SlotOperationCycles,
        FetchLineBytes;
    bool SpeculativeLoads;
    std::optional<unsigned> StoresPerCycle, LineOps, FetchBlocksPerCycle, SplitJumpCycles;
  };
  static const BuiltIn Measured[] = {
      // Zen 3
      {"znver3", "AuthenticAMD family 25 model 1", 0, 7, 0, 64, true, std::nullopt, std::nullopt,
       std::nullopt, std::nullopt},
      // Zen 4
      {"znver4", "AuthenticAMD family 25 model 17", 0, std::nullopt, std::nullopt, 64, true,
       std::nullopt, std::nullopt, std::nullopt, std::nullopt},
      // Zen 5
      {"znver5", "AuthenticAMD family 26 model 2", 0, 0, 0, 64, true, std::nullopt, 12, 2, 1},
      // Xeon, Granite Rapids
      {"graniterapids", "GenuineIntel family 6 model 167", 0, 0, 0, 64, true, std::nullopt,
       std::nullopt, std::nullopt, std::nullopt},
      // Xeon
      {"emeraldrapids", "GenuineIntel family 6 model 207", std::nullopt, 5, 0, 64, false,
       std::nullopt, std::nullopt, std::nullopt, std::nullopt},
  };
  CoreProfile P;
  for (const BuiltIn &B : Measured)
    if (CPU == B.CPU) {
      P.Source = std::string("built-in ") + B.CPU;
      P.MeasuredOn = B.MeasuredOn;
      P.RenamedReloadCycles = B.RenamedReloadCycles;
      P.ForwardedReloadCycles = B.ForwardedReloadCycles;
      P.SlotOperationCycles = B.SlotOperationCycles;
      P.FetchLineBytes = B.FetchLineBytes;
      P.SpeculativeLoads = B.SpeculativeLoads;
      P.StoresPerCycle = B.StoresPerCycle;
      P.LineOps = B.LineOps;
      P.FetchBlocksPerCycle = B.FetchBlocksPerCycle;
      P.SplitJumpCycles = B.SplitJumpCycles;
    }
  return P;
}

Json coreProfileJson(const CoreProfile &Profile, llvm::StringRef CPU) {
  Json Out = {{"format", FormatName},
              {"version", FormatVersion},
              {"mcpu", CPU.str()},
              {"measured_on", Profile.MeasuredOn}};
  Out["renamed_reload_cycles"] =
      Profile.RenamedReloadCycles ? Json(*Profile.RenamedReloadCycles) : Json(nullptr);
  Out["forwarded_reload_cycles"] = Profile.ForwardedReloadCycles
                                       ? Json(*Profile.ForwardedReloadCycles)
                                       : Json(nullptr);
  Out["slot_operation_cycles"] =
      Profile.SlotOperationCycles ? Json(*Profile.SlotOperationCycles) : Json(nullptr);
  Out["fetch_line_bytes"] = Profile.FetchLineBytes ? Json(*Profile.FetchLineBytes) : Json(nullptr);
  Out["line_ops"] = Profile.LineOps ? Json(*Profile.LineOps) : Json(nullptr);
  Out["fetch_blocks_per_cycle"] =
      Profile.FetchBlocksPerCycle ? Json(*Profile.FetchBlocksPerCycle) : Json(nullptr);
  Out["split_jump_cycles"] =
      Profile.SplitJumpCycles ? Json(*Profile.SplitJumpCycles) : Json(nullptr);
  Out["speculative_loads"] = Profile.SpeculativeLoads;
  Out["stores_per_cycle"] =
      Profile.StoresPerCycle ? Json(*Profile.StoresPerCycle) : Json(nullptr);
  return Out;
}

llvm::Expected<CoreProfile> readCoreProfile(llvm::StringRef Path) {
  auto Value = readJsonFile(Path);
  if (!Value)
    return Value.takeError();
  if (llvm::Error E = checkJsonFormat(*Value, Path, FormatName, FormatVersion, "core profile",
                                      "core profile"))
    return E;
  CoreProfile P;
  P.Source = Path.str();
  auto MeasuredOn = getOptionalJsonField<std::string>(*Value, "measured_on", Path);
  if (!MeasuredOn)
    return MeasuredOn.takeError();
  P.MeasuredOn = MeasuredOn->value_or("");
  // A latency: null (or absent, but for renamed_reload_cycles) where the rule is the
  // engine's own.
  auto latency = [&](const char *Name, std::optional<unsigned> &Out) -> llvm::Error {
    if (!Value->contains(Name) || Value->at(Name).is_null())
      return llvm::Error::success();
    auto Cycles = getJsonField<unsigned>(*Value, Name, Path);
    if (!Cycles)
      return Cycles.takeError();
    if (*Cycles > 64)
      return inputError(Path, "{} {} is not a latency (at most 64)", Name, *Cycles);
    Out = *Cycles;
    return llvm::Error::success();
  };
  // Present, and null where the core does not rename (the format was checked above:
  // the value is an object).
  if (!Value->contains("renamed_reload_cycles"))
    return inputError(Path, "missing field 'renamed_reload_cycles' (null: not renamed)");
  for (auto [Name, Out] : {std::pair{"renamed_reload_cycles", &P.RenamedReloadCycles},
                           std::pair{"forwarded_reload_cycles", &P.ForwardedReloadCycles},
                           std::pair{"slot_operation_cycles", &P.SlotOperationCycles}})
    if (llvm::Error E = latency(Name, *Out))
      return E;
  if (Value->contains("fetch_line_bytes") && !Value->at("fetch_line_bytes").is_null()) {
    auto Bytes = getJsonField<unsigned>(*Value, "fetch_line_bytes", Path);
    if (!Bytes)
      return Bytes.takeError();
    if (*Bytes < 16 || *Bytes > 4096 || (*Bytes & (*Bytes - 1)))
      return inputError(Path, "fetch_line_bytes {} is not a line size (a power of two, 16 to "
                              "4096)", *Bytes);
    P.FetchLineBytes = *Bytes;
  }
  // The front end's other numbers count in its lines: a count from 1 to Most.
  auto frontEnd = [&](const char *Name, unsigned Most,
                      std::optional<unsigned> &Out) -> llvm::Error {
    if (!Value->contains(Name) || Value->at(Name).is_null())
      return llvm::Error::success();
    auto Number = getJsonField<unsigned>(*Value, Name, Path);
    if (!Number)
      return Number.takeError();
    if (*Number < 1 || *Number > Most)
      return inputError(Path, "{} {} is out of range (1 to {})", Name, *Number, Most);
    if (!P.FetchLineBytes)
      return inputError(Path, "{} needs fetch_line_bytes: the line it counts in", Name);
    Out = *Number;
    return llvm::Error::success();
  };
  for (auto [Name, Most, Out] :
       {std::tuple{"line_ops", 64u, &P.LineOps},
        std::tuple{"fetch_blocks_per_cycle", 8u, &P.FetchBlocksPerCycle},
        std::tuple{"split_jump_cycles", 16u, &P.SplitJumpCycles}})
    if (llvm::Error E = frontEnd(Name, Most, *Out))
      return E;
  if (Value->contains("speculative_loads") && !Value->at("speculative_loads").is_null()) {
    auto Speculates = getJsonField<bool>(*Value, "speculative_loads", Path);
    if (!Speculates)
      return Speculates.takeError();
    P.SpeculativeLoads = *Speculates;
  }
  if (Value->contains("stores_per_cycle") && !Value->at("stores_per_cycle").is_null()) {
    auto Stores = getJsonField<unsigned>(*Value, "stores_per_cycle", Path);
    if (!Stores)
      return Stores.takeError();
    if (*Stores < 1 || *Stores > 16)
      return inputError(Path, "stores_per_cycle {} is not a store throughput (1 to 16)",
                        *Stores);
    P.StoresPerCycle = *Stores;
  }
  return P;
}

llvm::Expected<CoreProfile> resolveCoreProfile(llvm::StringRef Option, llvm::StringRef CPU) {
  if (Option == "auto")
    return builtInCoreProfile(CPU);
  if (Option == "none")
    return CoreProfile();
  return readCoreProfile(Option);
}

} // namespace mlgo
