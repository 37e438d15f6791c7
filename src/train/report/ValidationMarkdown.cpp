/// \file
/// A training run's validation as Markdown (train --report's DIR/report.md).
#include "ValidationMarkdown.h"
#include "support/Printable.h"

#include "llvm/Support/Path.h"
#include <cmath>
#include <fmt/format.h>

namespace mlgo {

namespace {

/// Text in a Markdown table cell: printable, no column break.
std::string cell(llvm::StringRef Text) {
  std::string Out;
  for (char C : printable(Text)) {
    if (C == '|' || C == '`' || C == '*' || C == '_' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out;
}

std::string text(const Json &Object, const char *Key) {
  return findJsonField<std::string>(Object, Key).value_or("?");
}

std::string percent(const Json &Object, const char *Key) {
  std::optional<double> Value = findJsonField<double>(Object, Key);
  return Value && std::isfinite(*Value * 100) ? fmt::format("{:+.3f}%", 100 * *Value)
                                              : "n/a";
}

std::string integer(const Json &Object, const char *Key) {
  if (std::optional<int64_t> Value = findJsonField<int64_t>(Object, Key))
    return fmt::format("{}", *Value);
  if (std::optional<uint64_t> Value = findJsonField<uint64_t>(Object, Key))
    return fmt::format("{}", *Value);
  return "n/a";
}

/// The section of one training trace: the functions whose cycles changed most.
std::string functionsMarkdown(const Json &Whole, const std::optional<std::string> &Job) {
  std::optional<uint64_t> Total = findJsonField<uint64_t>(Whole, "default_cycles");
  std::string Out = fmt::format(
      "\n## Where the change comes from{}\n\n"
      "The functions of the whole training trace{} whose predicted cycles the best policy "
      "changes most against `default` ({} of {} changed functions; negative: faster). "
      "The share is the change over all of `default`'s cycles ({}).\n\n"
      "| function | default cycles | best cycles | change | share |\n"
      "|---|---:|---:|---:|---:|\n",
      Job ? fmt::format(": job {}", cell(*Job)) : "",
      Job ? fmt::format(" of job {}", cell(*Job)) : "",
      Whole.contains("functions") && Whole["functions"].is_array()
          ? Whole["functions"].size()
          : 0,
      integer(Whole, "changed_functions"), integer(Whole, "default_cycles"));
  if (Whole.contains("functions") && Whole["functions"].is_array())
    for (const Json &F : Whole["functions"]) {
      std::optional<int64_t> Delta = findJsonField<int64_t>(F, "delta");
      Out += fmt::format("| {} | {} | {} | {} | {} |\n", cell(text(F, "function")),
                         integer(F, "default_cycles"), integer(F, "best_cycles"),
                         Delta ? fmt::format("{:+}", *Delta) : "n/a",
                         Delta && Total && *Total
                             ? fmt::format("{:+.3f}%", 100.0 * *Delta / *Total)
                             : "n/a");
    }
  return Out;
}

} // namespace

std::string validationMarkdown(const Json &Validation, llvm::StringRef Directory) {
  std::string Start = cell(text(Validation, "start"));
  bool HasTraces = Validation.contains("traces") && Validation["traces"].is_array();
  // With jobs (several programs), each trace names its job: a column of its own.
  bool Jobs = false;
  if (HasTraces)
    for (const Json &Trace : Validation["traces"])
      Jobs |= findJsonField<std::string>(Trace, "job").has_value();
  std::string Out = fmt::format(
      "# Training run {}\n\n"
      "The best policy, `{}`, after {} steps, replayed on whole traces ({}, {} "
      "engine, cpu {}): its predicted speedup over `default`, and that of the start "
      "policy ({}). The training rewards may come from a shard of the training trace; "
      "held-out traces are the program run on other inputs.{}\n\n"
      "|{} trace | | best over default | start over default | functions changed |\n"
      "|{}---|---|---:|---:|---:|\n",
      cell(Directory), printable(text(Validation, "policy")), integer(Validation, "steps"),
      cell(text(Validation, "mode")), cell(text(Validation, "engine")),
      cell(text(Validation, "cpu")), Start,
      Jobs ? " The run trained on several programs (jobs), its reward the mean of their "
             "speedups; each job's whole trace is validated."
           : "",
      Jobs ? " job |" : "", Jobs ? "---|" : "");
  std::vector<std::pair<const Json *, std::optional<std::string>>> Wholes;
  if (HasTraces)
    for (const Json &Trace : Validation["traces"]) {
      bool HeldOut = findJsonField<bool>(Trace, "held_out").value_or(true);
      std::optional<std::string> Job = findJsonField<std::string>(Trace, "job");
      // Without jobs, the first training trace; with jobs, each job's.
      if (!HeldOut && (Jobs || Wholes.empty()))
        Wholes.push_back({&Trace, Jobs ? Job.value_or("?") : std::optional<std::string>()});
      Out += fmt::format("|{} {} | {} | {} | {} | {} |\n",
                         Jobs ? " " + cell(Job.value_or("?")) + " |" : "",
                         cell(llvm::sys::path::filename(text(Trace, "trace"))),
                         HeldOut ? "held out" : "training trace",
                         percent(Trace, "best_speedup"), percent(Trace, "start_speedup"),
                         integer(Trace, "changed_functions"));
    }
  for (const auto &[Whole, Job] : Wholes)
    Out += functionsMarkdown(*Whole, Job);
  return Out;
}

} // namespace mlgo
