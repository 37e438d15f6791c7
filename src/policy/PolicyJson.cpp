/// \file
/// The policy file format (version 1):
///   {"format": "mlgo-ra-policy", "version": 1, "name": ..., "kind": "network",
///    "feature_set": {"name": "llvm-22-regalloc-evict", "features": [...]},
///    "encoding": {"name": "columns-v1", "normalization": ..., "inputs": [...]},
///    "architecture": {"inputs": 47, "hidden": [32, 16], "activation": "relu",
///                     "output": ...},
///    "parameters": [...]}
/// A "default" policy has only format, version, name and kind. Everything that fixes
/// the meaning of the parameters is checked on load, so a policy trained for another
/// feature set or encoding fails instead of deciding nonsense.
#include "Policy.h"

#include "ColumnEncoding.h"
#include "support/Error.h"

#include "llvm/ADT/STLExtras.h"

namespace mlgo {

static constexpr const char *FormatName = "mlgo-ra-policy";
static constexpr int FormatVersion = 1;
static constexpr const char *Normalization =
    "booleans as sent; is_local min(x,4)/4; stages one-hot 0..6; floats clamped to "
    "[0,1], NaN as 1; progress as sent";
static constexpr const char *OutputRule =
    "one score per column; index_to_evict is the first highest-scoring column whose "
    "mask is 1";

Json Policy::toJSON() const {
  Json Out = {{"format", FormatName}, {"version", FormatVersion}, {"name", Name}};
  if (!usesAdvisor()) {
    Out["kind"] = "default";
    return Out;
  }
  Out["kind"] = "network";
  Out["feature_set"] = {{"name", EvictFeatureSetName},
                        {"features", featureSpecsToJson()}};
  Out["encoding"] = {{"name", ColumnEncodingName},
                     {"normalization", Normalization},
                     {"inputs", columnInputNames()}};
  Out["architecture"] = {{"inputs", Net.inputs()},
                         {"hidden", Net.hidden()},
                         {"activation", "relu"},
                         {"output", OutputRule}};
  Out["parameters"] = Net.parameters();
  return Out;
}

static llvm::Error checkFeatureSet(const Json &Value, llvm::StringRef Input) {
  auto Set = getJsonField<Json>(Value, "feature_set", Input);
  if (!Set)
    return Set.takeError();
  auto SetName = getJsonField<std::string>(*Set, "name", Input);
  if (!SetName)
    return SetName.takeError();
  if (*SetName != EvictFeatureSetName)
    return inputError(Input, "unknown feature set '{}' (this mlgo-ra knows only '{}')",
                      *SetName, EvictFeatureSetName);
  auto Features = getJsonField<Json>(*Set, "features", Input);
  if (!Features)
    return Features.takeError();
  return checkFeatureSpecs(*Features, Input);
}

static llvm::Error checkEncoding(const Json &Value, llvm::StringRef Input) {
  auto Encoding = getJsonField<Json>(Value, "encoding", Input);
  if (!Encoding)
    return Encoding.takeError();
  auto EncodingName = getJsonField<std::string>(*Encoding, "name", Input);
  if (!EncodingName)
    return EncodingName.takeError();
  if (*EncodingName != ColumnEncodingName)
    return inputError(Input, "unknown encoding '{}' (this mlgo-ra knows only '{}')",
                      *EncodingName, ColumnEncodingName);
  auto Inputs = getJsonField<std::vector<std::string>>(*Encoding, "inputs", Input);
  if (!Inputs)
    return Inputs.takeError();
  if (*Inputs != columnInputNames())
    return inputError(Input, "the inputs of encoding '{}' differ from this mlgo-ra's",
                      ColumnEncodingName);
  return llvm::Error::success();
}

static llvm::Expected<Network> readNetwork(const Json &Value, llvm::StringRef Input) {
  auto Arch = getJsonField<Json>(Value, "architecture", Input);
  if (!Arch)
    return Arch.takeError();
  // One problem at a time: an error is one line.
  auto Inputs = getJsonField<int>(*Arch, "inputs", Input);
  if (!Inputs)
    return Inputs.takeError();
  auto Hidden = getJsonField<std::vector<int>>(*Arch, "hidden", Input);
  if (!Hidden)
    return Hidden.takeError();
  auto Activation = getJsonField<std::string>(*Arch, "activation", Input);
  if (!Activation)
    return Activation.takeError();
  auto Params = getJsonField<Json>(Value, "parameters", Input);
  if (!Params)
    return Params.takeError();
  if (*Inputs != columnInputCount())
    return inputError(Input, "the network has {} inputs, the encoding {}", *Inputs,
                      columnInputCount());
  if (*Activation != "relu")
    return inputError(Input, "unknown activation '{}' (expected 'relu')", *Activation);
  // The shape is bounded by the parameters the file holds, checked before anything is
  // allocated for it: a small file must not declare a network of gigabytes.
  if (Hidden->size() > Network::MaxHiddenLayers)
    return inputError(Input, "{} hidden layers (at most {})", Hidden->size(),
                      Network::MaxHiddenLayers);
  for (int Width : *Hidden)
    if (Width <= 0 || Width > Network::MaxLayerWidth)
      return inputError(Input, "hidden layer width {} is out of range (1 to {})", Width,
                        Network::MaxLayerWidth);
  size_t Need = Network::parameterCount(*Inputs, *Hidden);
  if (Need > Network::MaxParameters)
    return inputError(Input, "inputs {} and hidden {} need {} parameters (at most {})",
                      *Inputs, dumpJson(*Hidden, -1), Need, Network::MaxParameters);
  if (!Params->is_array())
    return inputError(Input, "field 'parameters' is not an array");
  if (Params->size() != Need)
    return inputError(Input, "{} parameters, but inputs {} and hidden {} need {}",
                      Params->size(), *Inputs, dumpJson(*Hidden, -1), Need);
  // Finite floats only: a weight of 1e39 is an infinity once a float.
  auto Weights = getJsonField<std::vector<float>>(Value, "parameters", Input);
  if (!Weights)
    return Weights.takeError();
  Network Net(*Inputs, *Hidden);
  Net.parameters() = std::move(*Weights);
  return Net;
}

llvm::Expected<Policy> Policy::fromJSON(const Json &Value, llvm::StringRef Input) {
  if (llvm::Error E =
          checkJsonFormat(Value, Input, FormatName, FormatVersion, "policy file", "policy"))
    return E;
  auto Name = getJsonField<std::string>(Value, "name", Input);
  if (!Name)
    return Name.takeError();
  auto KindName = getJsonField<std::string>(Value, "kind", Input);
  if (!KindName)
    return KindName.takeError();
  if (*KindName == "default") {
    Policy P = makeDefault();
    P.setName(*Name);
    return P;
  }
  if (*KindName != "network")
    return inputError(Input, "unknown policy kind '{}'", *KindName);
  if (llvm::Error E = checkFeatureSet(Value, Input))
    return E;
  if (llvm::Error E = checkEncoding(Value, Input))
    return E;
  auto Net = readNetwork(Value, Input);
  if (!Net)
    return Net.takeError();
  return makeNetwork(*Name, std::move(*Net));
}

std::string policyFile(llvm::StringRef NameOrPath) {
  return llvm::is_contained(builtinPolicyNames(), NameOrPath) ? "" : NameOrPath.str();
}

llvm::Expected<Policy> loadPolicy(llvm::StringRef NameOrPath) {
  for (const std::string &Name : builtinPolicyNames())
    if (NameOrPath == Name)
      return builtinPolicy(Name);
  auto Value = readJsonFile(NameOrPath);
  if (!Value)
    return Value.takeError();
  return Policy::fromJSON(*Value, NameOrPath);
}

llvm::Error savePolicy(const Policy &P, llvm::StringRef Path) {
  return writeJsonFile(Path, P.toJSON());
}

} // namespace mlgo
