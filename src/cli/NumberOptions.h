/// \file
/// The checks every numeric option gets. CLI11 reads "nan" and "inf" as numbers,
/// and NaN passes every comparison-based check: `--fail-if-slower nan` turned CI's
/// regression check off, `--step-size inf` trained a policy of NaNs.
#pragma once

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cmath>
#include <cstdint>
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

/// Accepts a whole number of decimal digits that is at least \p Min and fits 64 bits.
/// CLI11 reads "-1" into an unsigned option as 2^64 - 1: `--chunk -1` meant chunks of
/// every instruction but one.
inline CLI::Validator wholeNumber(uint64_t Min = 0) {
  return CLI::Validator(
      [=](std::string &Text) -> std::string {
        bool Digits = !Text.empty() && Text.size() <= 20 &&
                      Text.find_first_not_of("0123456789") == std::string::npos;
        errno = 0;
        unsigned long long Value = Digits ? std::strtoull(Text.c_str(), nullptr, 10) : 0;
        if (Digits && errno == 0 && Value >= Min)
          return "";
        return fmt::format("{} is not a whole number {}", Text,
                           Min ? fmt::format("of at least {}", Min) : std::string("(0 or more)"));
      },
      Min ? fmt::format("INTEGER at least {}", Min) : std::string("INTEGER"));
}

} // namespace mlgo
