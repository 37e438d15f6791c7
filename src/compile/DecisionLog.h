/// \file
/// Recordings of a compile's decisions, as JSON lines:
///   {"format":"mlgo-ra-decisions","version":1,"feature_set":"llvm-22-regalloc-evict",
///    "policy":"<name>"}
/// then one line per decision:
///   {"function":"<fn>","observation":<N>,"decision":<index_to_evict>,
///    "features":{"mask":[...33 ints], ..., "progress":[x]}}
/// Floats are written so that they read back bit for bit.
#pragma once

#include "policy/FeatureSet.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>
#include <vector>

namespace mlgo {

struct RecordedDecision {
  std::string Function;
  uint64_t Index = 0;
  int64_t Decision = 0;
  Observation Features;
};

/// Streams a recording to a temporary file beside \p Path; commit() renames it into
/// place, so a failed compile leaves no recording.
class DecisionRecorder {
public:
  static llvm::Expected<std::unique_ptr<DecisionRecorder>>
  create(const std::string &Path, const std::string &PolicyName);
  ~DecisionRecorder();
  void record(const std::string &Function, uint64_t Index, int64_t Decision,
              const Observation &Features);
  llvm::Error commit();

private:
  DecisionRecorder(std::string Path, std::unique_ptr<llvm::raw_fd_ostream> OS);
  std::string Path, TempPath;
  std::unique_ptr<llvm::raw_fd_ostream> OS;
  bool Committed = false;
};

llvm::Expected<std::vector<RecordedDecision>> readDecisionLog(llvm::StringRef Path);

} // namespace mlgo
