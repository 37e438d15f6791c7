/// \file
/// LLVM 22's eviction features (llvm/lib/CodeGen/MLRegAllocEvictAdvisor.cpp,
/// RA_EVICT_FEATURES_LIST) and the byte layout of one observation.
#include "FeatureSet.h"

#include "llvm/Support/Endian.h"
#include <cmath>
#include <cstring>

namespace mlgo {

const std::vector<FeatureSpec> &evictFeatureSpecs() {
  static const std::vector<FeatureSpec> Specs = [] {
    const TensorType I = TensorType::Int64, F = TensorType::Float;
    std::vector<FeatureSpec> S = {
        {"mask", I, NumColumns},
        {"is_free", I, NumColumns},
        {"nr_urgent", F, NumColumns},
        {"nr_broken_hints", F, NumColumns},
        {"is_hint", I, NumColumns},
        {"is_local", I, NumColumns},
        {"nr_rematerializable", F, NumColumns},
        {"nr_defs_and_uses", F, NumColumns},
        {"weighed_reads_by_max", F, NumColumns},
        {"weighed_writes_by_max", F, NumColumns},
        {"weighed_read_writes_by_max", F, NumColumns},
        {"weighed_indvars_by_max", F, NumColumns},
        {"hint_weights_by_max", F, NumColumns},
        {"start_bb_freq_by_max", F, NumColumns},
        {"end_bb_freq_by_max", F, NumColumns},
        {"hottest_bb_freq_by_max", F, NumColumns},
        {"liverange_size", F, NumColumns},
        {"use_def_density", F, NumColumns},
        {"max_stage", I, NumColumns},
        {"min_stage", I, NumColumns},
        {"progress", F, 1},
    };
    return S;
  }();
  return Specs;
}

size_t observationByteSize() {
  size_t Size = 0;
  for (const FeatureSpec &S : evictFeatureSpecs())
    Size += S.byteSize();
  return Size;
}

static const char *typeName(TensorType T) {
  return T == TensorType::Int64 ? "int64_t" : "float";
}

static Json shapeOf(const FeatureSpec &S) {
  return S.Elements == 1 ? Json::array({1}) : Json::array({1, S.Elements});
}

Json featureSpecsToJson() {
  Json Out = Json::array();
  for (const FeatureSpec &S : evictFeatureSpecs())
    Out.push_back({{"name", S.Name}, {"type", typeName(S.Type)}, {"shape", shapeOf(S)}});
  return Out;
}

llvm::Error checkFeatureSpecs(const Json &Features, llvm::StringRef Input) {
  const auto &Known = evictFeatureSpecs();
  if (!Features.is_array())
    return inputError(Input, "the feature list is not a JSON array");
  if (Features.size() != Known.size())
    return inputError(Input, "{} features, but {} has {}", Features.size(),
                      EvictFeatureSetName, Known.size());
  for (size_t I = 0; I < Known.size(); ++I) {
    const Json &F = Features[I];
    const FeatureSpec &S = Known[I];
    // The compiler adds a "port" member; only name, type and shape matter.
    bool Same = findJsonField<std::string>(F, "name") == S.Name &&
                findJsonField<std::string>(F, "type") == typeName(S.Type) &&
                findJsonField<Json>(F, "shape") == shapeOf(S);
    if (!Same)
      return inputError(Input, "feature {} is {}, but {} expects {} {} {}", I,
                        dumpJson(F, -1), EvictFeatureSetName, S.Name, typeName(S.Type),
                        dumpJson(shapeOf(S), -1));
  }
  return llvm::Error::success();
}

Observation::Observation() {
  for (const FeatureSpec &S : evictFeatureSpecs()) {
    size_t Id = &S - evictFeatureSpecs().data();
    if (S.Type == TensorType::Int64)
      Ints[Id].assign(S.Elements, 0);
    else
      Floats[Id].assign(S.Elements, 0.0f);
  }
}

llvm::Expected<Observation> Observation::fromBytes(llvm::ArrayRef<uint8_t> Bytes) {
  if (Bytes.size() != observationByteSize())
    return stageError("an observation has {} bytes, expected {}", Bytes.size(),
                      observationByteSize());
  Observation O;
  const uint8_t *P = Bytes.data();
  for (int F = 0; F < NumFeatures; ++F) {
    if (!O.Ints[F].empty()) {
      for (int64_t &V : O.Ints[F]) {
        V = llvm::support::endian::read64le(P);
        P += 8;
      }
    } else {
      for (float &V : O.Floats[F]) {
        uint32_t Raw = llvm::support::endian::read32le(P);
        std::memcpy(&V, &Raw, 4);
        P += 4;
      }
    }
  }
  return O;
}

std::vector<uint8_t> Observation::toBytes() const {
  std::vector<uint8_t> Out(observationByteSize());
  uint8_t *P = Out.data();
  for (int F = 0; F < NumFeatures; ++F) {
    for (int64_t V : Ints[F]) {
      llvm::support::endian::write64le(P, V);
      P += 8;
    }
    for (float V : Floats[F]) {
      uint32_t Raw;
      std::memcpy(&Raw, &V, 4);
      llvm::support::endian::write32le(P, Raw);
      P += 4;
    }
  }
  return Out;
}

int64_t Observation::intAt(FeatureId F, int Column) const {
  assert(!Ints[F].empty() && "not an int64 feature");
  return Ints[F][Column];
}
float Observation::floatAt(FeatureId F, int Column) const {
  assert(!Floats[F].empty() && "not a float feature");
  return Floats[F][Column];
}
void Observation::setInt(FeatureId F, int Column, int64_t Value) {
  assert(!Ints[F].empty() && "not an int64 feature");
  Ints[F][Column] = Value;
}
void Observation::setFloat(FeatureId F, int Column, float Value) {
  assert(!Floats[F].empty() && "not a float feature");
  Floats[F][Column] = Value;
}

Json Observation::toJSON() const {
  Json Out = Json::object();
  const auto &Specs = evictFeatureSpecs();
  for (int F = 0; F < NumFeatures; ++F) {
    if (!Ints[F].empty())
      Out[Specs[F].Name] = Ints[F];
    else
      Out[Specs[F].Name] = Floats[F];
  }
  return Out;
}

llvm::Expected<Observation> Observation::fromJSON(const Json &Value,
                                                  llvm::StringRef Input) {
  Observation O;
  const auto &Specs = evictFeatureSpecs();
  for (int F = 0; F < NumFeatures; ++F) {
    const char *Name = Specs[F].Name.c_str();
    if (!O.Ints[F].empty()) {
      auto V = getJsonField<std::vector<int64_t>>(Value, Name, Input);
      if (!V)
        return V.takeError();
      O.Ints[F] = std::move(*V);
    } else {
      // JSON has no NaN: toJSON() writes it as null (LLVM sends NaN for a column
      // whose weight is infinite).
      auto V = getJsonField<Json>(Value, Name, Input);
      if (!V)
        return V.takeError();
      O.Floats[F].clear();
      for (const Json &X : V->is_array() ? *V : Json::array({"not an array"})) {
        if (!X.is_null() && !X.is_number())
          return inputError(Input, "feature '{}' is not an array of numbers", Name);
        O.Floats[F].push_back(X.is_null() ? std::nanf("") : X.get<float>());
      }
    }
    size_t Got = O.Ints[F].empty() ? O.Floats[F].size() : O.Ints[F].size();
    if (Got != size_t(Specs[F].Elements))
      return inputError(Input, "feature '{}' has {} values, expected {}", Name, Got,
                        Specs[F].Elements);
  }
  return O;
}

} // namespace mlgo
