/// \file
/// The extract-corpus stage: list the build's objects, pull each one's embedded module
/// out in parallel into its own slot, then write the corpus description in input order.
#include "ExtractCorpus.h"
#include "Corpus.h"
#include "EmbeddedSections.h"
#include "ObjectInputs.h"
#include "support/Error.h"
#include "support/InputFile.h"
#include "support/OutputFile.h"
#include "support/Progress.h"
#include "support/SafePath.h"
#include "support/Stopwatch.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Parallel.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Threading.h"
#include <chrono>

namespace mlgo {
namespace {

/// What became of one input object.
struct Outcome {
  bool Written = false;
  bool HasIndex = false;
  std::string SkipReason;
  uint64_t Bytes = 0;
  llvm::Error Err = llvm::Error::success();
};

class ModuleWriter {
public:
  ModuleWriter(const Corpus &Out, llvm::StringRef Module, Outcome &Result)
      : Out(Out), Module(Module), Result(Result) {}

  llvm::Error write(llvm::StringRef Suffix, llvm::StringRef Bytes) {
    Result.Bytes += Bytes.size();
    return writeFileAtomically(modulePath(Out, Module, Suffix), Bytes);
  }

  llvm::Error copy(llvm::StringRef Suffix, llvm::StringRef From) {
    auto Buffer = readRegularFile(From);
    if (!Buffer)
      return Buffer.takeError();
    return write(Suffix, (*Buffer)->getBuffer());
  }

private:
  const Corpus &Out;
  llvm::StringRef Module;
  Outcome &Result;
};

/// The value of -fthinlto-index= in a distributed ThinLTO backend command, if any.
std::optional<std::string> thinLTOIndexOption(llvm::ArrayRef<std::string> Args) {
  for (llvm::StringRef Arg : Args)
    if (Arg.consume_front("-fthinlto-index="))
      return Arg.str();
  return std::nullopt;
}

bool anyOptionMatches(llvm::ArrayRef<std::string> Args, const llvm::Regex &Filter) {
  for (const std::string &Arg : Args)
    if (Filter.match(Arg))
      return true;
  return false;
}

llvm::Error extractThinLTOLocal(const ObjectInput &In, ModuleWriter &Writer,
                                Outcome &Result) {
  std::string Index =
      In.Path.substr(0, In.Path.size() - llvm::StringRef(".3.import.bc").size()) +
      ".thinlto.bc";
  if (!llvm::sys::fs::exists(Index)) {
    Result.SkipReason = "no ThinLTO index " + Index + " beside it "
                        "(link with --thinlto-emit-index-files)";
    return llvm::Error::success();
  }
  if (llvm::Error E = Writer.copy(".bc", In.Path))
    return E;
  if (llvm::Error E = Writer.copy(".thinlto.bc", Index))
    return E;
  Result.Written = Result.HasIndex = true;
  return llvm::Error::success();
}

llvm::Error extractObject(const ObjectInput &In, const llvm::Regex *Filter,
                          ModuleWriter &Writer, Outcome &Result) {
  auto Embedded = readEmbeddedModule(In.Path);
  if (!Embedded)
    return Embedded.takeError();
  if (Embedded->IsBitcodeFile) {
    Result.SkipReason = "LLVM bitcode object (-flto): extract a local ThinLTO link's saved "
                        "temporaries instead";
    return llvm::Error::success();
  }
  if (!Embedded->Bitcode) {
    Result.SkipReason = "no .llvmbc section (not compiled with -Xclang -fembed-bitcode=all)";
    return llvm::Error::success();
  }
  if (!Embedded->Command) {
    Result.SkipReason = "no .llvmcmd section (compiled with -fembed-bitcode=bitcode?)";
    return llvm::Error::success();
  }
  std::vector<std::string> Args = splitCommand(*Embedded->Command);
  if (Filter && !anyOptionMatches(Args, *Filter)) {
    Result.SkipReason = "no option matches --cmd-filter";
    return llvm::Error::success();
  }
  std::optional<std::string> Index = thinLTOIndexOption(Args);
  if (Index) {
    std::string IndexPath = resolvePath(In.BaseDir, *Index);
    if (!llvm::sys::fs::exists(IndexPath))
      return inputError(In.Path, "its -fthinlto-index= file {} does not exist", IndexPath);
    if (llvm::Error E = Writer.copy(".thinlto.bc", IndexPath))
      return E;
    Result.HasIndex = true;
  }
  if (llvm::Error E = Writer.write(".bc", *Embedded->Bitcode))
    return E;
  if (llvm::Error E = Writer.write(".cmd", *Embedded->Command))
    return E;
  Result.Written = true;
  return llvm::Error::success();
}

llvm::Error checkOptions(const ExtractCorpusOptions &Opts, InputKind Kind) {
  if (Opts.OutputDir.empty())
    return inputError("--output", "no output directory given");
  if (Kind == InputKind::ThinLTOLocal && Opts.GlobalCommandOverride.empty())
    return inputError(Opts.Input,
                      "a local ThinLTO build records no compile commands: pass the cc1 "
                      "command of its modules with --global-command-override");
  if (Kind == InputKind::ThinLTOLocal && Opts.CmdFilter)
    return inputError("--cmd-filter", "a local ThinLTO build has no commands to filter");
  if (Opts.CmdFilter) {
    std::string Why;
    if (!llvm::Regex(*Opts.CmdFilter).isValid(Why))
      return inputError("--cmd-filter", "invalid regular expression '{}': {}",
                        *Opts.CmdFilter, Why);
  }
  return llvm::Error::success();
}

/// The corpus may not replace or land in what it is extracted from: the input (a
/// directory is read whole) or any of the objects found in it.
llvm::Error checkOutputIsOutsideBuild(llvm::StringRef Output, llvm::StringRef Input,
                                      llvm::ArrayRef<ObjectInput> Objects) {
  std::vector<std::string> Inputs{Input.str()};
  for (const ObjectInput &In : Objects)
    Inputs.push_back(In.Path);
  return checkOutputOutsideInputs(Output, Inputs);
}

} // namespace

llvm::Expected<ExtractCorpusResult> runExtractCorpus(const ExtractCorpusOptions &Opts) {
  auto Start = std::chrono::steady_clock::now();
  InputKind Kind = Opts.Kind;
  if (Kind == InputKind::Auto) {
    auto Detected = detectInputKind(Opts.Input);
    if (!Detected)
      return Detected.takeError();
    Kind = *Detected;
  }
  if (llvm::Error E = checkOptions(Opts, Kind))
    return E;
  NewOutputDirectory Output(Opts.OutputDir);
  auto Inputs = listObjectInputs(Kind, Opts);
  if (!Inputs)
    return Inputs.takeError();
  if (llvm::Error E = checkOutputIsOutsideBuild(Opts.OutputDir, Opts.Input, *Inputs))
    return E;

  Corpus Out;
  Out.Directory = Opts.OutputDir;
  Out.GlobalCommandOverride = Opts.GlobalCommandOverride;
  // A failed run must not leave an earlier description that now lies about the modules.
  llvm::sys::fs::remove(modulePath(Out, "", CorpusDescriptionFile));

  std::optional<llvm::Regex> Filter;
  if (Opts.CmdFilter)
    Filter.emplace(*Opts.CmdFilter);
  std::vector<Outcome> Outcomes(Inputs->size());
  {
    Progress Bar("extract-corpus", Inputs->size(), Opts.ShowProgress);
    llvm::parallel::strategy = llvm::hardware_concurrency(Opts.Threads);
    llvm::parallelFor(0, Inputs->size(), [&](size_t I) {
      const ObjectInput &In = (*Inputs)[I];
      ModuleWriter Writer(Out, In.Module, Outcomes[I]);
      Outcomes[I].Err = Kind == InputKind::ThinLTOLocal
                            ? extractThinLTOLocal(In, Writer, Outcomes[I])
                            : extractObject(In, Filter ? &*Filter : nullptr, Writer,
                                            Outcomes[I]);
      Bar.advance();
    });
  }

  ExtractCorpusResult Result;
  Result.Kind = Kind;
  Result.OutputDir = Opts.OutputDir;
  Result.ObjectsScanned = Inputs->size();
  llvm::Error Errors = llvm::Error::success();
  size_t WithIndex = 0;
  for (size_t I = 0; I < Outcomes.size(); ++I) {
    Outcome &O = Outcomes[I];
    Errors = llvm::joinErrors(std::move(Errors), std::move(O.Err));
    Result.BytesWritten += O.Bytes;
    if (O.Written) {
      Result.Modules.push_back((*Inputs)[I].Module);
      WithIndex += O.HasIndex;
    } else if (!O.SkipReason.empty()) {
      Result.Skipped.push_back({(*Inputs)[I].Path, O.SkipReason});
    }
  }
  if (Errors)
    return Errors;
  if (Result.Modules.empty())
    return inputError(Opts.Input, "no module to extract: {} objects, {} skipped{}",
                      Inputs->size(), Result.Skipped.size(),
                      Result.Skipped.empty() ? ""
                                             : " (first: " + Result.Skipped[0].Object +
                                                   ": " + Result.Skipped[0].Reason + ")");
  if (WithIndex != 0 && WithIndex != Result.Modules.size())
    return inputError(Opts.Input,
                      "{} modules are ThinLTO backends and {} are not: a corpus is one or "
                      "the other",
                      WithIndex, Result.Modules.size() - WithIndex);
  Result.HasThinLTO = WithIndex != 0;
  Out.HasThinLTO = Result.HasThinLTO;
  Out.Modules = Result.Modules;
  if (llvm::Error E = writeCorpusDescription(Out))
    return E;
  Output.keep();
  Result.Seconds = secondsSince(Start);
  return Result;
}

Json ExtractCorpusResult::toJSON() const {
  Json Skips = Json::array();
  for (const SkippedObject &S : Skipped)
    Skips.push_back({{"object", S.Object}, {"reason", S.Reason}});
  return Json{{"format", "mlgo-ra.extract-corpus.summary"},
              {"version", 1},
              {"input_kind", inputKindName(Kind).str()},
              {"output", OutputDir},
              {"objects_scanned", ObjectsScanned},
              {"modules_written", Modules.size()},
              {"has_thinlto", HasThinLTO},
              {"bytes_written", BytesWritten},
              {"skipped", Skips},
              {"seconds", Seconds}};
}

} // namespace mlgo
