/// \file
/// The first part of DIR/report.md (train --report): the run's validation.
#pragma once

#include "support/Json.h"

#include "llvm/ADT/StringRef.h"
#include <string>

namespace mlgo {

/// DIR/report.md of a validation record's "validation" object: per trace the best and
/// start policies' speedups, and the functions of the whole training trace the best
/// policy changes most against `default`. Reads leniently: the log may hold anything.
std::string validationMarkdown(const Json &Validation, llvm::StringRef Directory);

} // namespace mlgo
