/// \file
/// Evaluating policies: compile, replay (or reuse), compare with `default`.
#include "Evaluator.h"
#include "replay/Replay.h"
#include "support/Error.h"
#include "support/Stopwatch.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include <chrono>

namespace mlgo {

namespace {

/// The hash of every object of a variant, in module order.
llvm::Expected<std::string> hashObjects(const VariantResult &Variant) {
  llvm::SHA256 Hash;
  for (const CompiledModule &M : Variant.Modules) {
    std::string Path = Variant.Directory + "/" + M.Object;
    auto Bytes = llvm::MemoryBuffer::getFile(Path);
    if (!Bytes)
      return stageError("{}: cannot read: {}", Path, Bytes.getError().message());
    Hash.update(M.Object);
    Hash.update(llvm::ArrayRef<uint8_t>{0});
    Hash.update((*Bytes)->getBuffer());
  }
  auto Digest = Hash.final();
  return llvm::toHex(Digest);
}

} // namespace

llvm::Expected<std::unique_ptr<Evaluator>> Evaluator::create(const EvaluatorOptions &Opts) {
  PolicyVariantsOptions Compiling = Opts.Compiling;
  Compiling.Memo = true;
  auto Variants = PolicyVariants::create(Opts.Corpus, Compiling);
  if (!Variants)
    return Variants.takeError();
  std::unique_ptr<Evaluator> E(new Evaluator(Opts, std::move(*Variants)));
  if (!Opts.ReplayDefault)
    return E;
  auto Default = E->evaluate(Policy::makeDefault(), Opts.NamePrefix + "default");
  if (!Default)
    return Default.takeError();
  E->DefaultCycles = Default->Cycles;
  return E;
}

llvm::Expected<Evaluation> Evaluator::evaluate(const Policy &P, llvm::StringRef Name) {
  Evaluation Result;
  auto Start = std::chrono::steady_clock::now();
  std::string Directory = Opts.WorkDir + "/variants/" + Name.str();
  auto Variant = Variants->compile(P, Directory);
  if (!Variant)
    return Variant.takeError();
  Result.Decisions = Variant->Decisions;
  Result.CompileReused = Variant->Reused == Variant->Modules.size();
  Result.CompileSeconds = secondsSince(Start);

  Start = std::chrono::steady_clock::now();
  auto Cycles = replayVariant(*Variant, Result.ReplayReused);
  llvm::sys::fs::remove_directories(Directory); // whatever the replay's outcome
  if (!Cycles)
    return Cycles.takeError();
  Result.Cycles = *Cycles;
  Result.ReplaySeconds = secondsSince(Start);
  if (Result.Cycles && DefaultCycles)
    Result.Speedup = Opts.Run ? Opts.Run->speedup(double(DefaultCycles), double(Result.Cycles))
                              : double(DefaultCycles) / Result.Cycles - 1;
  return Result;
}

llvm::Expected<std::vector<ReplayResult>>
Evaluator::replayOn(const Policy &P, llvm::StringRef Name,
                    llvm::ArrayRef<ReplayContext *> On) {
  std::string Directory = Opts.WorkDir + "/variants/" + Name.str();
  auto Variant = Variants->compile(P, Directory);
  if (!Variant)
    return Variant.takeError();
  std::vector<ReplayResult> Results;
  for (ReplayContext *Context : On) {
    auto Replayed = Context->predict(Variant->Directory);
    if (!Replayed) {
      llvm::sys::fs::remove_directories(Directory);
      return Replayed.takeError();
    }
    Results.push_back(std::move(*Replayed));
  }
  llvm::sys::fs::remove_directories(Directory);
  return Results;
}

llvm::Expected<uint64_t> Evaluator::replayVariant(const VariantResult &Variant,
                                                  bool &Reused) {
  auto Key = hashObjects(Variant);
  if (!Key)
    return Key.takeError();
  {
    std::lock_guard<std::mutex> Guard(CacheLock);
    auto It = ReplayedCycles.find(*Key);
    Reused = It != ReplayedCycles.end();
    if (Reused)
      return It->second;
  }
  auto Replayed = Opts.Replay->predict(Variant.Directory);
  if (!Replayed)
    return Replayed.takeError();
  std::lock_guard<std::mutex> Guard(CacheLock);
  ReplayedCycles[*Key] = Replayed->Cycles;
  return Replayed->Cycles;
}

} // namespace mlgo
