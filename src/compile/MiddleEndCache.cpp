/// \file
/// Content-addressed middle-end outputs: <key>.opt.bc and <key>.traced.bc, each
/// written under a temporary name and renamed, so concurrent users and interrupted
/// runs never see half a file.
#include "MiddleEndCache.h"
#include "FunctionStrip.h"
#include "InteractiveCompile.h"
#include "corpus/Corpus.h"
#include "support/Error.h"
#include "support/InputFile.h"
#include "support/OutputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include <algorithm>

namespace mlgo {

namespace {

/// Bump when the cached files' meaning changes.
constexpr const char *CacheFormat = "mlgo-ra middle end 1";

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
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return inputError(Dir, "cannot create the cache directory: {}", EC.message());
  auto Identity = identifyCompiler(Clang);
  if (!Identity)
    return Identity.takeError();
  return MiddleEndCache(std::move(Dir), std::move(Clang), std::move(*Identity));
}

llvm::Expected<std::string> MiddleEndCache::optimized(llvm::StringRef Bitcode,
                                                      llvm::ArrayRef<std::string> Args,
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
  Reused = llvm::sys::fs::exists(Path);
  if (Reused)
    return Path;
  if (llvm::Error E = checkModuleBitcode(Bitcode))
    return E;

  // Use-list order is part of the module: code generation visits uses in that order,
  // and without it the same module can get different code.
  std::string Temporary = temporaryPathBeside(Path);
  CompileOptions Options;
  Options.Clang = Clang;
  Options.Args.assign(Args.begin(), Args.end());
  Options.Args.insert(Options.Args.end(),
                      {"-x", "ir", commandPath(Bitcode), "-emit-llvm-bc",
                       "-emit-llvm-uselists", "-o", commandPath(Temporary)});
  Options.TimeoutSeconds = TimeoutSeconds;
  auto Compiled = compileWithPolicy(Policy::makeDefault(), Options);
  if (!Compiled) {
    llvm::sys::fs::remove(Temporary);
    return Compiled.takeError();
  }
  if (!llvm::sys::fs::exists(Temporary))
    return stageError("{}: {} exited 0 but wrote no bitcode", Bitcode.str(),
                      llvm::sys::path::filename(Clang).str());
  if (std::error_code EC = llvm::sys::fs::rename(Temporary, Path)) {
    llvm::sys::fs::remove(Temporary);
    return stageError("{}: cannot write: {}", Path, EC.message());
  }
  return Path;
}

llvm::Expected<std::string> MiddleEndCache::traced(llvm::StringRef Optimized,
                                                   const std::vector<std::string> &Functions,
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
  if (llvm::sys::fs::exists(Path))
    return Path;
  auto Stripped = keepOnlyFunctions(Optimized, Keep, Path);
  if (!Stripped)
    return Stripped.takeError();
  if (!Stripped->Missing.empty())
    return inputError(Module, "does not define the traced function{} {}",
                      Stripped->Missing.size() == 1 ? "" : "s",
                      llvm::join(Stripped->Missing, ", "));
  return Path;
}

} // namespace mlgo
