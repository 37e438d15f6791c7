/// \file
/// Writing and reading decision recordings.
#include "DecisionLog.h"

#include "support/InputFile.h"
#include "support/Json.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlgo {

static constexpr const char *FormatName = "mlgo-ra-decisions";

DecisionRecorder::DecisionRecorder(std::string Path,
                                   std::unique_ptr<llvm::raw_fd_ostream> OS)
    : Path(std::move(Path)), TempPath(this->Path + ".tmp"), OS(std::move(OS)) {}

llvm::Expected<std::unique_ptr<DecisionRecorder>>
DecisionRecorder::create(const std::string &Path, const std::string &PolicyName) {
  std::error_code EC;
  auto OS = std::make_unique<llvm::raw_fd_ostream>(Path + ".tmp", EC);
  if (EC)
    return inputError(Path, "cannot write the decision recording: {}", EC.message());
  std::unique_ptr<DecisionRecorder> R(new DecisionRecorder(Path, std::move(OS)));
  Json Header = {{"format", FormatName},
                 {"version", 1},
                 {"feature_set", EvictFeatureSetName},
                 {"policy", PolicyName}};
  *R->OS << dumpJson(Header, -1) << '\n';
  return R;
}

DecisionRecorder::~DecisionRecorder() {
  if (!Committed) {
    OS.reset();
    llvm::sys::fs::remove(TempPath);
  }
}

void DecisionRecorder::record(const std::string &Function, uint64_t Index,
                              int64_t Decision, const Observation &Features) {
  Json Line = {{"function", Function},
               {"observation", Index},
               {"decision", Decision},
               {"features", Features.toJSON()}};
  *OS << dumpJson(Line, -1) << '\n';
}

llvm::Error DecisionRecorder::commit() {
  OS->close();
  if (OS->has_error()) {
    std::string Message = OS->error().message();
    OS->clear_error();
    return inputError(Path, "cannot write the decision recording: {}", Message);
  }
  if (std::error_code EC = llvm::sys::fs::rename(TempPath, Path))
    return inputError(Path, "cannot write the decision recording: {}", EC.message());
  Committed = true;
  return llvm::Error::success();
}

llvm::Expected<std::vector<RecordedDecision>> readDecisionLog(llvm::StringRef Path) {
  auto Buffer = readRegularFile(Path);
  if (!Buffer)
    return Buffer.takeError();
  llvm::StringRef Rest = (*Buffer)->getBuffer();
  std::vector<RecordedDecision> Out;
  bool SawHeader = false;
  for (int LineNo = 1; !Rest.empty(); ++LineNo) {
    auto [Line, Tail] = Rest.split('\n');
    Rest = Tail;
    std::string Where = fmt::format("{}:{}", Path.str(), LineNo);
    Json Value =
        Json::parse(Line.begin(), Line.end(), nullptr, /*allow_exceptions=*/false);
    if (Value.is_discarded())
      return inputError(Where, "not a JSON line");
    if (!SawHeader) {
      if (findJsonField<std::string>(Value, "format") != FormatName ||
          findJsonField<int>(Value, "version") != 1)
        return inputError(Where, "not a decision recording (format {} version 1)",
                          FormatName);
      std::string FeatureSet =
          findJsonField<std::string>(Value, "feature_set").value_or("");
      if (FeatureSet != EvictFeatureSetName)
        return inputError(Where, "unknown feature set '{}'", FeatureSet);
      SawHeader = true;
      continue;
    }
    RecordedDecision D;
    auto Function = getJsonField<std::string>(Value, "function", Where);
    auto Index = getJsonField<uint64_t>(Value, "observation", Where);
    auto Decision = getJsonField<int64_t>(Value, "decision", Where);
    auto Features = getJsonField<Json>(Value, "features", Where);
    if (!Function || !Index || !Decision || !Features)
      return llvm::joinErrors(
          llvm::joinErrors(Function.takeError(), Index.takeError()),
          llvm::joinErrors(Decision.takeError(), Features.takeError()));
    auto Obs = Observation::fromJSON(*Features, Where);
    if (!Obs)
      return Obs.takeError();
    Out.push_back({*Function, *Index, *Decision, std::move(*Obs)});
  }
  if (!SawHeader)
    return inputError(Path, "empty decision recording");
  return Out;
}

} // namespace mlgo
