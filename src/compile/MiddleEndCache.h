/// \file
/// The fast path's first half. A module's middle end (the optimization pipeline, most
/// of a compile's time) does not depend on the eviction policy, so it runs once per
/// module and its output is cached by content: the module's bitcode, its arguments and
/// the compiler. The optimized module is then reduced to the traced functions (also
/// cached); each policy only runs code generation on the result.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace mlgo {

class MiddleEndCache {
public:
  /// A cache in \p Dir (created if needed) for modules compiled by \p Clang.
  static llvm::Expected<MiddleEndCache> open(std::string Dir, std::string Clang);

  /// The optimized module (bitcode, use-list order kept) of \p Bitcode compiled with
  /// the cc1 arguments \p Args (no input, no output): from the cache, or by running
  /// the middle end. \p Reused tells which.
  llvm::Expected<std::string> optimized(llvm::StringRef Bitcode,
                                        llvm::ArrayRef<std::string> Args,
                                        double TimeoutSeconds, bool &Reused);

  /// \p Optimized with only \p Functions (IR names) defined; \p Module names the
  /// module in errors. A function the module does not define is an error.
  llvm::Expected<std::string> traced(llvm::StringRef Optimized,
                                     const std::vector<std::string> &Functions,
                                     llvm::StringRef Module);

  const std::string &directory() const { return Dir; }

private:
  MiddleEndCache(std::string Dir, std::string Clang, std::string CompilerIdentity)
      : Dir(std::move(Dir)), Clang(std::move(Clang)),
        CompilerIdentity(std::move(CompilerIdentity)) {}

  std::string Dir, Clang;
  /// The compiler's resolved path, size and modification time: an upgraded or rebuilt
  /// compiler never reuses another's middle end.
  std::string CompilerIdentity;
};

} // namespace mlgo
