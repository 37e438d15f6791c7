/// \file
/// A measurement as text for people, JSON for scripts and Markdown for a CI job's
/// summary, and the check of --fail-if-slower.
#pragma once

#include "Measure.h"
#include "support/Json.h"

#include <string>

namespace mlgo {

Json measurementJson(const Measurement &M);
std::string measurementText(const Measurement &M);
std::string measurementMarkdown(const Measurement &M);

/// The candidates measured slower than the baseline by more than \p Percent above
/// noise: their whole interval below -Percent%.
std::vector<const BuildResult *> slowerThan(const Measurement &M, double Percent);

const char *modeName(MeasureMode Mode);

} // namespace mlgo
