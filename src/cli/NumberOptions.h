/// \file
/// The check every real-valued option gets. CLI11 reads "nan" and "inf" as numbers,
/// and NaN passes every comparison-based check: `--fail-if-slower nan` turned CI's
/// regression check off, `--step-size inf` trained a policy of NaNs.
#pragma once

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <string>

namespace mlgo {

/// Accepts a finite number that is at least \p Min, or above it with \p Strict.
inline CLI::Validator finiteNumber(double Min, bool Strict = false) {
  std::string Bound = fmt::format("{} {:g}", Strict ? "above" : "at least", Min);
  return CLI::Validator(
      [=](std::string &Text) -> std::string {
        char *End = nullptr;
        double Value = std::strtod(Text.c_str(), &End);
        if (Text.empty() || *End != '\0')
          return ""; // not a number at all: CLI11's conversion says so
        if (std::isfinite(Value) && (Strict ? Value > Min : Value >= Min))
          return "";
        return Text + " is not a finite number " + Bound;
      },
      "NUMBER " + Bound);
}

} // namespace mlgo
