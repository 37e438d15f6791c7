/// \file
/// --engine, as replay and train take it.
#pragma once

#include "replay/engine/EngineKind.h"

#include "llvm/ADT/StringExtras.h"
#include <CLI/CLI.hpp>
#include <string>

namespace mlgo {

/// Adds --engine (flow or mca, default flow) to \p Cmd, read into \p Engine.
inline CLI::Option *addEngineOption(CLI::App *Cmd, EngineKind &Engine, const std::string &Help) {
  return Cmd->add_option("--engine", Engine, Help)
      ->transform(CLI::Validator(
          [](std::string &Text) -> std::string {
            std::optional<EngineKind> Kind = parseEngineName(llvm::StringRef(Text).lower());
            if (!Kind)
              return "'" + Text + "' is not an engine (flow, mca)";
            Text = std::to_string(static_cast<int>(*Kind));
            return "";
          },
          ""))
      ->type_name("flow|mca")
      ->default_str("flow");
}

} // namespace mlgo
