/// \file
/// Compiling policies named on a command line into variants.
#include "PolicyVariants.h"
#include "policy/Policy.h"

#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Support/FileSystem.h"
#include <algorithm>
#include <atomic>

namespace mlgo {

bool namesPolicy(llvm::StringRef Argument) {
  llvm::sys::fs::file_status Status;
  if (!llvm::sys::fs::status(Argument, Status)) {
    // A directory is code (objects); a device or a FIFO too, for the code loader to
    // refuse: identify_magic would read it without end.
    if (!llvm::sys::fs::is_regular_file(Status))
      return false;
    llvm::file_magic Magic;
    return !llvm::identify_magic(Argument, Magic) && Magic != llvm::file_magic::elf_executable &&
           Magic != llvm::file_magic::elf_shared_object &&
           Magic != llvm::file_magic::elf_relocatable;
  }
  const auto &Names = builtinPolicyNames();
  return std::find(Names.begin(), Names.end(), Argument) != Names.end();
}

llvm::Expected<std::string> compilePolicyVariant(llvm::StringRef NameOrPath,
                                                 const VariantPlan &Plan,
                                                 llvm::StringRef WorkDir,
                                                 const VariantOptions &Opts) {
  auto P = loadPolicy(NameOrPath);
  if (!P)
    return P.takeError();
  static std::atomic<unsigned> Counter{0};
  std::string Directory = fmt::format("{}/variant-{}", WorkDir.str(), Counter++);
  auto Compiled = compileVariant(*P, Plan, Directory, Opts);
  if (!Compiled)
    return Compiled.takeError();
  return Directory;
}

} // namespace mlgo
