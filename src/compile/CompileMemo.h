/// \file
/// Exact reuse of earlier compiles. A compile is deterministic given the replies the
/// advisor sends: if a policy answers every observation of an earlier compile of the same
/// module as that compile was answered, the compiler would see the same observations in
/// the same order and write the same object. Perturbed policies in training mostly do,
/// so most of their compiles need no compiler at all.
#pragma once

#include "policy/Policy.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlgo {

/// One finished compile of a module: what the advisor saw and answered, and the object.
struct RecordedCompile {
  bool UsedAdvisor = false; ///< false: a `default` compile, reusable only by `default`
  std::vector<Observation> Observations;
  std::vector<int64_t> Decisions;
  std::string Object; ///< the object file's bytes
};

class CompileMemo {
public:
  /// A memo for \p Modules planned modules, keeping the last \p PerModule compiles of
  /// each.
  explicit CompileMemo(size_t Modules, size_t PerModule = 8);

  /// The object of an earlier compile of \p Module that \p P would reproduce.
  std::shared_ptr<const RecordedCompile> find(size_t Module, const Policy &P);
  void add(size_t Module, std::shared_ptr<const RecordedCompile> Compile);

  size_t hits() const { return Hits; }

private:
  std::mutex Lock;
  size_t PerModule;
  std::vector<std::vector<std::shared_ptr<const RecordedCompile>>> Entries;
  size_t Hits = 0;
};

} // namespace mlgo
