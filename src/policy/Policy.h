/// \file
/// The policy stage's public interface: a policy maps one eviction decision's features
/// (an Observation) to index_to_evict, LLVM's column to evict (32: evict nothing).
#pragma once

#include "FeatureSet.h"
#include "Network.h"
#include "support/Json.h"

#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mlgo {

class Policy {
public:
  enum class Kind {
    Default, ///< LLVM's own heuristic: compile without the advisor
    Network  ///< a per-column network answers the advisor
  };

  /// The hidden layer widths of new networks.
  static std::vector<int> defaultHidden() { return {32, 16}; }

  static Policy makeDefault();
  static Policy makeNetwork(std::string Name, Network Net);

  Kind kind() const { return K; }
  bool usesAdvisor() const { return K == Kind::Network; }
  const std::string &name() const { return Name; }
  void setName(std::string N) { Name = std::move(N); }

  /// The network of a Kind::Network policy.
  const Network &network() const { return Net; }
  Network &network() { return Net; }
  std::vector<float> &parameters() { return Net.parameters(); }

  /// The score of each column (unmasked or not), for inspection and tests.
  std::vector<float> scores(const Observation &O) const;

  /// index_to_evict: the legal (mask 1) column with the highest score, the first one
  /// on a tie or a NaN. LLVM only asks when some column is legal; if none is, this
  /// returns CandidateColumn, which the caller must treat as a protocol error.
  /// Thread-safe.
  int64_t decide(const Observation &O) const;

  /// The policy file: format, feature set (names, types, shapes), encoding,
  /// normalization, architecture and the flat parameters.
  Json toJSON() const;
  /// Parses a policy file's JSON; \p Input names the file in errors. A feature set,
  /// encoding or architecture this build does not know is an InputError.
  static llvm::Expected<Policy> fromJSON(const Json &Value, llvm::StringRef Input);

private:
  Kind K = Kind::Default;
  std::string Name = "default";
  Network Net;
};

/// The built-in policies' names: "default", "initial", "poor".
const std::vector<std::string> &builtinPolicyNames();

/// A built-in policy by name (see BuiltinPolicies.cpp for what each one does).
llvm::Expected<Policy> builtinPolicy(llvm::StringRef Name);

/// A built-in name, or else a policy file.
llvm::Expected<Policy> loadPolicy(llvm::StringRef NameOrPath);

/// The file loadPolicy(\p NameOrPath) reads, or "" for a built-in name.
std::string policyFile(llvm::StringRef NameOrPath);

/// Writes a policy file atomically.
llvm::Error savePolicy(const Policy &P, llvm::StringRef Path);

} // namespace mlgo
