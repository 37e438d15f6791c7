/// \file
/// What train tells a person or a program about a run, all in one place: a line per
/// step, the summary (text or JSON), the lines of a validation or native measurement
/// record, and the files of train --report (DIR/reward.svg, DIR/report.md). Each reads
/// records of the run's log (log.jsonl); the CLI prints what they return.
#pragma once

#include "support/Json.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlgo {

struct TrainResult;

/// A step's line: "step 3/10: unperturbed +0.120%, perturbations ... eta 40 s", from
/// its log record, \p Iterations the run's steps ("step 3:" without a limit,
/// SearchOptions::NoIterationLimit) and \p EtaSeconds the time left.
std::string stepLine(const Json &Record, unsigned Iterations, double EtaSeconds);

/// The time a run has left after \p StepsLeft more steps of \p MeanStepSeconds each; with
/// a time budget, \p BudgetLeftSeconds of it left, only the steps that start before it
/// runs out.
double etaSeconds(double MeanStepSeconds, uint64_t StepsLeft,
                  std::optional<double> BudgetLeftSeconds);

/// The summary of a run into \p Output, "train: "-prefixed lines: its predicted
/// speedups, per job, the shortlist, the validation and the native measurement.
std::string summaryText(const TrainResult &R, llvm::StringRef Output);

/// The summary as train --json prints it.
Json summaryJson(const TrainResult &R, llvm::StringRef Output);

/// A validation record's lines ({"validation": ...}): per trace, the best and start
/// policies' speedups.
std::string validationText(const Json &Record);

/// A native measurement record's lines ({"native": ...}), one per build; none without
/// such a record.
std::string nativeText(const Json &Record);

/// The lines a person reads of a "native" record's object, one per build: "best:
/// +0.42% [-0.31%, +1.10%] within noise (processes mode, 10 rounds)". Reads leniently.
std::string describeNative(const Json &Native);

/// Writes <Directory>/reward.svg from its log: the unperturbed policy's predicted speedup
/// per step, the perturbations' spread and the validation points; with a validation
/// record also <Directory>/report.md (the validation and the functions the best policy
/// changes most). Returns the files written.
llvm::Expected<std::vector<std::string>> writeTrainReport(llvm::StringRef Directory);

} // namespace mlgo
