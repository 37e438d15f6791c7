/// \file
/// --core-profile, as replay and train take it: what the core does beyond its
/// scheduling model (replay/CoreProfile.h).
#pragma once

#include "replay/engine/CoreProfile.h"

#include <CLI/CLI.hpp>
#include <string>

namespace mlgo {

/// Adds --core-profile to \p Cmd, read into \p Value (default "auto").
CLI::Option *addCoreProfileOption(CLI::App *Cmd, std::string &Value);

/// \p Value's profile for \p CPU (resolved: not "native"), into \p Profile; an error
/// names the file.
llvm::Error resolveCoreProfileOption(const std::string &Value, const std::string &CPU,
                                     CoreProfile &Profile);

} // namespace mlgo
