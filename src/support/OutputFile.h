/// \file
/// Output files appear whole or not at all: each is written to a temporary file beside
/// it and renamed into place, so an interrupted run never leaves half a file.
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace mlgo {

/// A fresh name beside \p Path (<Path>.tmp-<pid>-<n>) for a file or directory that will
/// be renamed to it: process-unique without TempFile's random names, which cost eight
/// getrandom() calls each and showed in extract-corpus's profile.
std::string temporaryPathBeside(llvm::StringRef Path);

/// Creates the parent directories of \p Path, then writes \p Contents atomically.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

/// Same, with the contents produced by \p Write into a stream.
llvm::Error writeFileAtomically(llvm::StringRef Path,
                                std::function<llvm::Error(llvm::raw_ostream &)> Write);

/// A directory a run creates for its outputs: removed with whatever it holds unless
/// keep() is called, so a failed run (a full disk, a bad module) leaves no new
/// directory, empty or half-filled, behind. One that existed before is left alone.
class NewOutputDirectory {
public:
  explicit NewOutputDirectory(std::string Path);
  ~NewOutputDirectory();
  NewOutputDirectory(const NewOutputDirectory &) = delete;
  NewOutputDirectory &operator=(const NewOutputDirectory &) = delete;
  void keep() { Kept = true; }

private:
  std::string Path;
  bool Existed;
  bool Kept = false;
};

} // namespace mlgo
