/// \file
/// The inside of measure: the builds as measured (0 the baseline, 1 the control, then
/// the candidates) and the two modes, each producing one sample a unit (a process in
/// paired mode, a round in processes mode) that Speedups.cpp turns into results.
#pragma once

#include "Measure.h"
#include "support/Error.h"

#include "llvm/Support/Error.h"
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace mlgo {

struct Contestant {
  std::string Name;
  std::string Path;       ///< absolute
  bool Directory = false; ///< objects (else an executable)
};

/// One unit's measurement: per contestant its speedup over the baseline (index 0
/// unused), and the baseline's median value.
struct UnitSample {
  std::vector<double> Speedups;
  double BaselineValue = 0;
};

/// A call or run of contestant Build and the value it measured.
struct Timed {
  size_t Build = 0;
  double Value = 0;
};

/// The speedups of one round timed in the order B V B V ... B: each build's against
/// the geometric mean of the baseline values on either side, so that a drift of the
/// machine's speed shows in both; then each candidate's over the control's (the
/// baseline's code called as the candidates are), the control's staying over the
/// baseline. Per contestant (index 0 unused); NaN where absent.
std::vector<double> roundSpeedups(const std::vector<Timed> &Round, size_t Contestants);

/// A contestant's result from its samples (one a unit): their median, the median's 95%
/// confidence interval and the verdict.
BuildResult summarise(const Contestant &C, const std::vector<double> &Samples, bool Control);

/// Paired mode's refusal of a program it cannot measure: its main calls exit(), or
/// prints other output when called again. An input error, which auto mode answers by
/// measuring as processes.
class PairedRefusal : public llvm::ErrorInfo<PairedRefusal, InputError> {
public:
  static char ID;
  using ErrorInfo::ErrorInfo;
};

class Units {
public:
  virtual ~Units() = default;
  /// What a value is, in words ("thread CPU seconds a call").
  virtual std::string metric() const = 0;
  /// Runs every build once (a warm-up), refuses a program the mode cannot measure, and
  /// with \p CompareOutputs checks that every build prints what the baseline prints.
  virtual llvm::Error check(bool CompareOutputs) = 0;
  /// Measures unit \p Unit (0, 1, ...).
  virtual llvm::Expected<UnitSample> run(unsigned Unit) = 0;
};

/// Paired mode over contestants that are all directories; \p Scratch is absolute.
llvm::Expected<std::unique_ptr<Units>>
pairedUnits(const MeasureOptions &Opts, const std::vector<Contestant> &Contestants,
            const std::string &Scratch, double SecondsPerProcess, std::mt19937_64 &Random);

/// Processes mode: directories are linked into \p Scratch first.
llvm::Expected<std::unique_ptr<Units>>
processesUnits(const MeasureOptions &Opts, const std::vector<Contestant> &Contestants,
               const std::string &Scratch, std::mt19937_64 &Random);

/// Compares the standard output files of the contestants' check runs, \p Outputs[B]
/// for contestant B (the baseline first): the first that differs is an input error
/// naming it.
llvm::Error compareOutputs(const std::vector<Contestant> &Contestants,
                           const std::vector<std::string> &Outputs);

} // namespace mlgo
