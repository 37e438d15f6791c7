/// \file
/// Warnings: a problem the run works around (a damaged cache entry recomputed, a cache
/// that cannot be written), printed as one line "mlgo-ra: warning: <what>" on stderr.
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <fmt/format.h>
#include <functional>
#include <string>

namespace mlgo {

/// Prints \p Message as one warning line; safe from any thread.
void warn(llvm::StringRef Message);

template <typename... Args> void warn(fmt::format_string<Args...> Format, Args &&...A) {
  warn(llvm::StringRef(fmt::format(Format, std::forward<Args>(A)...)));
}

/// Sends warnings to \p Sink instead of stderr (tests); an empty function restores
/// stderr.
void setWarningSink(std::function<void(llvm::StringRef)> Sink);

} // namespace mlgo
