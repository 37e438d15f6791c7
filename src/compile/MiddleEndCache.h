/// \file
/// The fast path's first half. A module's middle end (the optimization pipeline, most
/// of a compile's time) does not depend on the eviction policy, so it runs once per
/// module and its output is cached by content: the module's bitcode, its arguments and
/// the compiler. The optimized module is then reduced to the traced functions (also
/// cached); each policy only runs code generation on the result.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace mlgo {

class MiddleEndCache {
public:
  /// A cache in \p Dir for modules compiled by \p Clang.
  static llvm::Expected<MiddleEndCache> open(std::string Dir, std::string Clang);

  /// Creates the directory and a file in it: an error if the cache cannot be written
  /// (the caller then compiles without it).
  llvm::Error checkWritable() const;

  /// The optimized module (bitcode, use-list order kept) of \p Bitcode compiled with
  /// the cc1 arguments \p Args (no input, no output): from the cache, or by running
  /// the middle end. \p Reused tells which. None, after a warning, if the cache could
  /// not keep it (a full disk): the caller compiles the module whole. A damaged entry
  /// is compiled again, with a warning.
  llvm::Expected<std::optional<std::string>> optimized(llvm::StringRef Bitcode,
                                                       llvm::ArrayRef<std::string> Args,
                                                       double TimeoutSeconds, bool &Reused);

  /// \p Optimized with only \p Functions (IR names) defined; \p Module names the
  /// module in errors. A function the module does not define is an error; none, after
  /// a warning, as for optimized().
  llvm::Expected<std::optional<std::string>> traced(llvm::StringRef Optimized,
                                                    const std::vector<std::string> &Functions,
                                                    llvm::StringRef Module);

  const std::string &directory() const { return Dir; }

private:
  /// \p Path if it is a whole entry; a damaged one is removed with a warning.
  std::optional<std::string> reuse(const std::string &Path) const;

  MiddleEndCache(std::string Dir, std::string Clang, std::string CompilerIdentity)
      : Dir(std::move(Dir)), Clang(std::move(Clang)),
        CompilerIdentity(std::move(CompilerIdentity)) {}

  std::string Dir, Clang;
  /// The compiler's resolved path, size and modification time: an upgraded or rebuilt
  /// compiler never reuses another's middle end.
  std::string CompilerIdentity;
};

} // namespace mlgo
