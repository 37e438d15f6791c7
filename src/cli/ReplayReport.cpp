/// \file
/// replay's explanations as text and its verdict as Markdown. Text from inputs
/// (function names, paths) reaches Markdown only inside code spans and fenced blocks,
/// escaped so that it can neither end them nor a table cell.
#include "ReplayReport.h"
#include "support/Printable.h"

#include <algorithm>
#include <fmt/format.h>

namespace mlgo {

namespace {

std::string percentOf(int64_t Delta, uint64_t Base) {
  return Base ? fmt::format("{:+.2f}%", 100.0 * Delta / Base) : "new";
}

std::string perRun(uint64_t Cycles, uint64_t Runs) {
  return fmt::format("{:.2f}", Runs ? double(Cycles) / Runs : 0.0);
}

std::string spillLine(const FunctionExplanation &E) {
  const SpillCounts &B = E.Baseline, &C = E.Candidate;
  return fmt::format("spills {} → {} (run {} → {} times), reloads {} → {} (run {} → {} "
                     "times)",
                     B.Spills, C.Spills, B.SpillsRun, C.SpillsRun, B.Reloads, C.Reloads,
                     B.ReloadsRun, C.ReloadsRun);
}

void blockText(const ExplainedBlock &Block, const std::string &Indent, std::string &Out) {
  std::string Runs = Block.BaselineRuns == Block.CandidateRuns
                         ? fmt::format("{}", Block.BaselineRuns)
                         : fmt::format("{} / {}", Block.BaselineRuns, Block.CandidateRuns);
  bool Once = Block.BaselineRuns == 1 && Block.CandidateRuns == 1;
  const char *Change = Block.Change == CodeChange::None        ? "same code"
                       : Block.Change == CodeChange::Registers ? "registers renamed"
                                                               : "code differs";
  Out += fmt::format("{}block {} ({}), ran {} time{}: {} → {} cycles a run ({:+} cycles)\n",
                     Indent, Block.ID, Change, Runs, Once ? "" : "s",
                     perRun(Block.BaselineCycles, Block.BaselineRuns),
                     perRun(Block.CandidateCycles, Block.CandidateRuns), Block.delta());
  size_t Width = 8, CandidateWidth = 9;
  for (const ExplainedRow &R : Block.Rows) {
    if (R.Baseline)
      Width = std::max(Width, R.Baseline->Text.size());
    if (R.Candidate)
      CandidateWidth = std::max(CandidateWidth, R.Candidate->Text.size());
  }
  Width = std::min<size_t>(Width, 60);
  CandidateWidth = std::min<size_t>(CandidateWidth, 60);
  auto column = [&](const std::optional<ExplainedInstruction> &I, size_t W, uint64_t Runs) {
    return I ? fmt::format("{:<{}}  {:>6}", I->Text, W, perRun(I->Cycles, Runs))
             : fmt::format("{:<{}}  {:>6}", "", W, "");
  };
  std::string Line = fmt::format("{}  {:<{}}  {:>6}  {:<{}}  {:>6}", Indent, "baseline", Width,
                                 "c/run", "candidate", CandidateWidth, "c/run");
  Out += Line + "\n";
  for (const ExplainedRow &R : Block.Rows) {
    Line = fmt::format("{}  {}  {}  {}", Indent, column(R.Baseline, Width, Block.BaselineRuns),
                       column(R.Candidate, CandidateWidth, Block.CandidateRuns), R.Mark);
    Out += llvm::StringRef(Line).rtrim().str() + "\n";
  }
}

/// \p Text as a Markdown code span; in a table cell, with its pipes escaped.
std::string codeSpan(llvm::StringRef Text, bool InTable = true) {
  std::string Shown = printable(Text), Escaped;
  size_t Run = 0, Longest = 0;
  for (char C : Shown) {
    Run = C == '`' ? Run + 1 : 0;
    Longest = std::max(Longest, Run);
    Escaped += InTable && C == '|' ? "\\|" : std::string(1, C);
  }
  std::string Fence(Longest + 1, '`');
  bool Pad = Shown.empty() || Shown.front() == '`' || Shown.back() == '`';
  return Fence + (Pad ? " " : "") + Escaped + (Pad ? " " : "") + Fence;
}

/// \p Text in a fenced block that no line of it can end.
std::string fenced(const std::string &Text) {
  size_t Run = 0, Longest = 2;
  for (char C : Text) {
    Run = C == '`' ? Run + 1 : 0;
    Longest = std::max(Longest, Run);
  }
  std::string Fence(Longest + 1, '`');
  return Fence + "text\n" + Text + Fence + "\n";
}

std::string modeName(const ReplayResult &R) {
  if (R.Exact)
    return "exact (every instruction simulated)";
  return R.Sampling.empty() ? "fast (simulated where the code differs)"
                            : fmt::format("fast, on the trace shard {}", R.Sampling);
}

/// The rows every report has: CPU, engine, trace, mode.
std::string setupRows(const ReplayResult &R, llvm::StringRef Trace) {
  return fmt::format("| CPU | {} ({}), {} engine |\n| trace | {}: {} instructions, {:.2f}% "
                     "modeled |\n| replay | {} |\n",
                     codeSpan(R.CPU), codeSpan(R.Triple), engineName(R.Engine),
                     codeSpan(Trace), R.TraceInstructions, 100 * R.modeledShare(),
                     modeName(R));
}

std::string mismatchLines(const ReplayResult &R, llvm::StringRef Role) {
  std::string Out;
  for (const FunctionMismatch &M : R.Mismatches)
    Out += fmt::format("- {} runs the baseline's {} ({})\n", Role,
                       codeSpan(M.Function, false), codeSpan(M.Reason, false));
  return Out.empty() ? Out : "\n" + Out;
}

std::string verdictLine(const ReplayComparison &C, const Verdict &V) {
  double Percent = 100 * C.runSpeedup();
  std::string Change = Percent < 0   ? fmt::format("{:.3f}% slower", -Percent)
                       : Percent > 0 ? fmt::format("{:.3f}% faster", Percent)
                                     : "neither faster nor slower";
  if (C.Run)
    Change += " over the whole run";
  if (!V.FailIfSlower)
    return fmt::format("**Verdict: no check** (no `--fail-if-slower`): the candidate is "
                       "predicted {} (exit code {}).",
                       Change, V.ExitCode);
  return fmt::format("**Verdict: {}.** The candidate is predicted {}, {} the {}% that "
                     "`--fail-if-slower {}` allows (exit code {}).",
                     V.Regressed ? "fail" : "pass", Change,
                     V.Regressed ? "more than" : "within", *V.FailIfSlower, *V.FailIfSlower,
                     V.ExitCode);
}

} // namespace

std::string explainText(const std::vector<FunctionExplanation> &Explained,
                        llvm::StringRef Indent) {
  std::string Out, In = Indent.str();
  for (const FunctionExplanation &E : Explained) {
    Out += fmt::format("{}{}: {:+} cycles ({}): baseline {}, candidate {}\n", In,
                       printable(E.Function), E.delta(),
                       percentOf(E.delta(), E.BaselineCycles), E.BaselineCycles,
                       E.CandidateCycles);
    Out += In + "  " + spillLine(E) + "\n";
    for (const ExplainedBlock &Block : E.Blocks)
      blockText(Block, In + "  ", Out);
  }
  return Out;
}

std::string comparisonMarkdown(const ReplayComparison &C, const Verdict &V,
                               llvm::StringRef Trace, size_t Top) {
  const ReplayResult &B = C.Baseline, &Cand = C.Candidate;
  std::string Error = Cand.Sampling.empty()
                          ? ""
                          : fmt::format(" ± {:.3f} (one standard error of the trace shard)",
                                        100 * C.speedupError());
  std::string Out = fmt::format(
      "## mlgo-ra replay: predicted speedup {:+.3f}%{}\n\n{}\n\n| | |\n|---|---|\n"
      "| baseline | {}: {} cycles, IPC {:.3f} |\n| candidate | {}: {} cycles, IPC {:.3f} |\n"
      "| predicted speedup | {:+.3f}%{} |\n",
      100 * C.runSpeedup(), V.FailIfSlower ? (V.Regressed ? " (fail)" : " (pass)") : "",
      verdictLine(C, V), codeSpan(B.Code), B.Cycles, B.ipc(), codeSpan(Cand.Code),
      Cand.Cycles, Cand.ipc(), 100 * C.speedup(), Error);
  if (C.Run)
    Out += fmt::format("| predicted speedup of the whole run | {:+.3f}% (the engine models "
                       "{:.1f}% of the baseline's {:.4g} native cycles) |\n",
                       100 * C.runSpeedup(),
                       100 * C.Run->modeledShare(double(B.Cycles)), C.Run->NativeCycles);
  Out += setupRows(Cand, Trace);
  Out += mismatchLines(Cand, "the candidate");
  Out += "\n### Functions that changed most\n\n| function | baseline cycles | candidate "
         "cycles | change | |\n|---|---:|---:|---:|---:|\n";
  std::vector<FunctionDelta> Deltas = C.deltas();
  for (size_t I = 0; I < Deltas.size() && I < Top; ++I)
    Out += fmt::format("| {} | {} | {} | {:+} | {} |\n", codeSpan(Deltas[I].Function),
                       Deltas[I].BaselineCycles, Deltas[I].CandidateCycles,
                       Deltas[I].delta(),
                       percentOf(Deltas[I].delta(), Deltas[I].BaselineCycles));
  if (C.Explanations) {
    Out += "\n### Why: the functions that changed most, block by block\n\n"
           "Cycles per run of each block over the trace; `+spill`/`+reload`: a store "
           "to/load from a stack slot only the candidate has, `-spill`/`-reload`: one "
           "only the baseline has.\n";
    for (const FunctionExplanation &E : *C.Explanations)
      Out += fmt::format("\n#### {}: {:+} cycles ({})\n\n", codeSpan(E.Function, false),
                         E.delta(), percentOf(E.delta(), E.BaselineCycles)) +
             fenced(explainText({E}, ""));
    if (C.Explanations->empty())
      Out += "\nNo function's predicted cycles changed.\n";
  }
  return Out;
}

std::string resultMarkdown(const ReplayResult &R, llvm::StringRef Trace, size_t Top) {
  std::string Out = fmt::format(
      "## mlgo-ra replay: {} predicted cycles\n\n| | |\n|---|---|\n| code | {} |\n"
      "| predicted | {} cycles, {} instructions, IPC {:.3f} |\n",
      R.Cycles, codeSpan(R.Code), R.Cycles, R.Instructions, R.ipc());
  Out += setupRows(R, Trace);
  Out += mismatchLines(R, "the variant");
  Out += "\n### Functions with the most cycles\n\n| function | cycles | share |\n"
         "|---|---:|---:|\n";
  for (size_t I = 0; I < R.Functions.size() && I < Top; ++I)
    Out += fmt::format("| {} | {} | {:.2f}% |\n", codeSpan(R.Functions[I].Function),
                       R.Functions[I].Cycles,
                       R.Cycles ? 100.0 * R.Functions[I].Cycles / R.Cycles : 0);
  return Out;
}

} // namespace mlgo
