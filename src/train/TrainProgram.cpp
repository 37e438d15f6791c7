/// \file
/// Naming a run's programs and reading them from a job file.
#include "TrainProgram.h"
#include "support/Error.h"
#include "support/Json.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"
#include <cmath>

namespace mlgo {

TrainProgram namedProgram(std::string Name, std::string Corpus, std::string Trace,
                          std::string Baseline) {
  TrainProgram P;
  P.Name = Name.empty() ? llvm::sys::path::stem(Trace).str() : std::move(Name);
  P.Corpus = std::move(Corpus);
  P.Trace = std::move(Trace);
  P.Baseline = std::move(Baseline);
  return P;
}

llvm::Expected<std::vector<TrainProgram>> readJobFile(llvm::StringRef Path) {
  auto Value = readJsonFile(Path);
  if (!Value)
    return Value.takeError();
  if (!Value->is_array() || Value->empty())
    return inputError(Path, "is not a non-empty JSON list of jobs "
                            "({{\"name\", \"corpus\", \"trace\", \"baseline\"}})");
  llvm::StringRef Directory = llvm::sys::path::parent_path(Path);
  // Paths in the file are the file's: a job file moves with its programs.
  auto Resolve = [&](const std::string &Given) {
    if (llvm::sys::path::is_absolute(Given) || Directory.empty())
      return Given;
    llvm::SmallString<256> Joined(Directory);
    llvm::sys::path::append(Joined, Given);
    return std::string(Joined);
  };
  std::vector<TrainProgram> Programs;
  for (const Json &Job : *Value) {
    auto Name = getOptionalJsonField<std::string>(Job, "name", Path);
    if (!Name)
      return Name.takeError();
    std::string Fields[3];
    const char *Keys[3] = {"corpus", "trace", "baseline"};
    for (int K = 0; K < 3; ++K) {
      auto Field = getJsonField<std::string>(Job, Keys[K], Path);
      if (!Field)
        return Field.takeError();
      if (Field->empty())
        return inputError(Path, "a job's '{}' is empty", Keys[K]);
      Fields[K] = Resolve(*Field);
    }
    Programs.push_back(
        namedProgram(Name->value_or(""), Fields[0], Fields[1], Fields[2]));
    auto Native = getOptionalJsonField<double>(Job, "native_cycles", Path);
    if (!Native)
      return Native.takeError();
    if (*Native)
      if (llvm::Error E = checkNativeCycles(**Native, Path))
        return E;
    Programs.back().NativeCycles = *Native;
  }
  return Programs;
}

llvm::Error checkNativeCycles(double Cycles, llvm::StringRef Where) {
  if (std::isfinite(Cycles) && Cycles > 0)
    return llvm::Error::success();
  return inputError(Where, "native cycles {} are not a finite number above 0", Cycles);
}

llvm::Error checkProgramNames(const std::vector<TrainProgram> &Programs) {
  llvm::StringSet<> Seen;
  for (const TrainProgram &P : Programs) {
    // A name is a directory of the run's work directory and a word of the report.
    bool Plain = !P.Name.empty() && P.Name != "." && P.Name != "..";
    for (char C : P.Name)
      Plain &= llvm::isAlnum(C) || C == '-' || C == '_' || C == '.';
    if (!Plain)
      return inputError("--job", "job name '{}' is not a word of letters, digits, '-', "
                                 "'_' and '.' (name it with NAME=)",
                        P.Name);
    if (!Seen.insert(P.Name).second)
      return inputError("--job", "two jobs are named '{}'; name each (NAME= in --job, \"name\" in "
                                 "a job file)",
                        P.Name);
  }
  return llvm::Error::success();
}

} // namespace mlgo
