/// \file
/// The scratch directory of a fuzz process, and writing inputs into it.
#include "FuzzInput.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace mlgo::fuzz {
namespace {

const std::string &scratch() {
  // Never destroyed: the exit handler that removes the directory runs after static
  // destructors would have.
  static const std::string *Dir = [] {
    const char *Base = llvm::sys::fs::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
    auto *D = new std::string(std::string(Base) + "/mlgo-ra-fuzz." +
                              std::to_string(::getpid()));
    llvm::sys::fs::create_directories(*D);
    // Removed at exit; a crash leaves it for the one who reads the crash.
    std::atexit([] { llvm::sys::fs::remove_directories(scratch()); });
    return D;
  }();
  return *Dir;
}

} // namespace

std::string writeInput(const uint8_t *Data, size_t Size, const char *Name) {
  std::string Path = scratch() + "/" + Name;
  std::FILE *F = std::fopen(Path.c_str(), "wb");
  if (!F)
    std::abort(); // the scratch directory is ours: not the input's fault
  if (Size)
    std::fwrite(Data, 1, Size, F);
  std::fclose(F);
  return Path;
}

std::string emptyDirectory(const char *Name) {
  std::string Path = scratch() + "/" + Name;
  llvm::sys::fs::remove_directories(Path);
  llvm::sys::fs::create_directories(Path);
  return Path;
}

std::string outputPath(const char *Name) {
  std::string Path = scratch() + "/" + Name;
  llvm::sys::fs::remove(Path);
  return Path;
}

} // namespace mlgo::fuzz
