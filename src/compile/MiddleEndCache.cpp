/// \file
/// Content-addressed middle-end outputs: <key>.opt.bc and <key>.traced.bc, each
/// written under a temporary name, renamed and sealed, so concurrent users and
/// interrupted runs never see half a file, and a damaged one is compiled again.
#include "MiddleEndCache.h"
#include "FunctionStrip.h"
#include "InteractiveCompile.h"
#include "corpus/Corpus.h"
#include "support/Error.h"
#include "support/InputFile.h"
#include "support/OutputFile.h"
#include "support/SealedFile.h"
#include "support/Warning.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include <algorithm>

namespace mlgo {

namespace {

/// Bump when the cached files' meaning changes.
// 2: each file sealed (SealedFile.h).
constexpr const char *CacheFormat = "mlgo-ra middle end 2";

llvm::Expected<std::string> identifyCompiler(llvm::StringRef Clang) {
  std::string Path = Clang.str();
  if (!Clang.contains('/')) {
    auto Found = llvm::sys::findProgramByName(Clang);
    if (!Found)
      return inputError(Clang, "compiler not found on PATH");
    Path = *Found;
  }
  llvm::SmallString<256> Real;
  if (std::error_code EC = llvm::sys::fs::real_path(Path, Real))
    return inputError(Path, "cannot find the compiler: {}", EC.message());
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Real, Status))
    return inputError(Real, "cannot read the compiler: {}", EC.message());
  return fmt::format("{} {} {}", Real.str().str(), Status.getSize(),
                     Status.getLastModificationTime().time_since_epoch().count());
}

std::string hexKey(llvm::SHA256 &Hash) {
  auto Digest = Hash.final();
  return llvm::toHex(llvm::ArrayRef<uint8_t>(Digest.data(), 16), /*LowerCase=*/true);
}

void addField(llvm::SHA256 &Hash, llvm::StringRef Field) {
  Hash.update(Field);
  Hash.update(llvm::ArrayRef<uint8_t>{0});
}

} // namespace

llvm::Expected<MiddleEndCache> MiddleEndCache::open(std::string Dir, std::string Clang) {
  auto Identity = identifyCompiler(Clang);
  if (!Identity)
    return Identity.takeError();
  return MiddleEndCache(std::move(Dir), std::move(Clang), std::move(*Identity));
}

llvm::Error MiddleEndCache::checkWritable() const {
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return stageError("{}: cannot create the cache directory: {}", Dir, EC.message());
  std::string Probe = temporaryPathBeside(Dir + "/probe");
  int FD;
  if (std::error_code EC = llvm::sys::fs::openFileForWrite(Probe, FD, llvm::sys::fs::CD_CreateNew,
                                                           llvm::sys::fs::OF_None))
    return stageError("{}: cannot write in the cache directory: {}", Dir, EC.message());
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  llvm::sys::fs::remove(Probe);
  return llvm::Error::success();
}

/// Whether \p E, from a compile that wrote into the cache, says the cache could not be
/// written (a full disk, a quota, a file size limit) rather than that the module failed.
static bool isWriteFailure(llvm::StringRef Message, llvm::StringRef Output) {
  for (llvm::StringRef Sign : {"No space left on device", "Disk quota exceeded",
                               "File too large", "Read-only file system",
                               "IO failure on output stream"})
    if (Message.contains(Sign))
      return true;
  return Message.contains(Output);
}

std::optional<std::string> MiddleEndCache::reuse(const std::string &Path) const {
  SealedFile Entry = readSealedFile(Path);
  if (Entry.Is == SealedFile::Whole)
    return Path;
  if (Entry.Is == SealedFile::Damaged) {
    warn("{}: damaged middle-end cache entry, compiling it again: {}", Path, Entry.Why);
    removeSealedFile(Path);
  }
  return std::nullopt;
}

llvm::Expected<std::optional<std::string>>
MiddleEndCache::optimized(llvm::StringRef Bitcode, llvm::ArrayRef<std::string> Args,
                          double TimeoutSeconds, bool &Reused) {
  auto Contents = readRegularFile(Bitcode);
  if (!Contents)
    return Contents.takeError();
  llvm::SHA256 Hash;
  addField(Hash, CacheFormat);
  addField(Hash, CompilerIdentity);
  for (const std::string &Arg : Args)
    addField(Hash, Arg);
  addField(Hash, (*Contents)->getBuffer());
  std::string Path = Dir + "/" + hexKey(Hash) + ".opt.bc";
  std::optional<std::string> Found = reuse(Path);
  Reused = Found.has_value();
  if (Reused)
    return Found;
  if (llvm::Error E = checkModuleBitcode(Bitcode))
    return E;

  // Use-list order is part of the module: code generation visits uses in that order,
  // and without it the same module can get different code. -fno-temp-file: clang
  // writes our temporary itself, so a failed write leaves none of its own behind.
  std::string Temporary = temporaryPathBeside(Path);
  CompileOptions Options;
  Options.Clang = Clang;
  Options.Args.assign(Args.begin(), Args.end());
  Options.Args.insert(Options.Args.end(),
                      {"-x", "ir", commandPath(Bitcode), "-emit-llvm-bc",
                       "-emit-llvm-uselists", "-fno-temp-file", "-o",
                       commandPath(Temporary)});
  Options.TimeoutSeconds = TimeoutSeconds;
  auto Compiled = compileWithPolicy(Policy::makeDefault(), Options);
  if (!Compiled) {
    llvm::sys::fs::remove(Temporary);
    std::string Message;
    llvm::Error Failed = llvm::handleErrors(
        Compiled.takeError(), [&](std::unique_ptr<llvm::ErrorInfoBase> Info) -> llvm::Error {
          Message = Info->message();
          return llvm::Error(std::move(Info)); // kept as it is: its kind sets the exit code
        });
    if (!isWriteFailure(Message, Temporary))
      return Failed;
    llvm::consumeError(std::move(Failed));
    warn("--cache-dir: cannot keep the middle end of {}, compiling it whole: {}",
         Bitcode.str(), Message);
    return std::nullopt;
  }
  if (!llvm::sys::fs::exists(Temporary))
    return stageError("{}: {} exited 0 but wrote no bitcode", Bitcode.str(),
                      llvm::sys::path::filename(Clang).str());
  if (llvm::Error E = renameSealed(Temporary, Path)) {
    warn("--cache-dir: cannot keep the middle end of {}, compiling it whole: {}",
         Bitcode.str(), llvm::toString(std::move(E)));
    return std::nullopt;
  }
  return Path;
}

llvm::Expected<std::optional<std::string>>
MiddleEndCache::traced(llvm::StringRef Optimized, const std::vector<std::string> &Functions,
                       llvm::StringRef Module) {
  std::vector<std::string> Sorted = Functions;
  std::sort(Sorted.begin(), Sorted.end());
  llvm::SHA256 Hash;
  addField(Hash, CacheFormat);
  addField(Hash, llvm::sys::path::filename(Optimized));
  llvm::StringSet<> Keep;
  for (const std::string &F : Sorted) {
    addField(Hash, F);
    Keep.insert(F);
  }
  std::string Path = Dir + "/" + hexKey(Hash) + ".traced.bc";
  if (std::optional<std::string> Found = reuse(Path))
    return Found;
  // Any failure from here on is the cache's, not the module's: it is compiled whole.
  std::string Temporary = temporaryPathBeside(Path);
  auto Stripped = keepOnlyFunctions(Optimized, Keep, Temporary);
  if (Stripped && !Stripped->Missing.empty())
    return inputError(Module, "does not define the traced function{} {}",
                      Stripped->Missing.size() == 1 ? "" : "s",
                      llvm::join(Stripped->Missing, ", "));
  llvm::Error Failed = Stripped ? renameSealed(Temporary, Path) : Stripped.takeError();
  if (Failed) {
    llvm::sys::fs::remove(Temporary);
    warn("--cache-dir: cannot keep the traced functions of {}, compiling it whole: {}",
         Module.str(), llvm::toString(std::move(Failed)));
    return std::nullopt;
  }
  return Path;
}

} // namespace mlgo
