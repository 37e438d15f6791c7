/// \file
/// Explanations of a comparison: each block of a function decoded in both variants,
/// its instructions given their profiled cycles, the two aligned by opcode, and the
/// blocks that changed most kept.
#include "detail/Explainer.h"
#include "code/Disassembler.h"
#include "replay/fast/SameTiming.h"

#include "llvm/MC/MCInst.h"
#include <algorithm>
#include <map>
#include <unordered_map>

namespace mlgo {

namespace {

/// A decoded instruction and what aligns it with the other variant's: its opcode and
/// how it accesses a stack slot (registers and slot offsets may differ).
struct Decoded {
  ExplainedInstruction Shown;
  uint64_t Key;
  llvm::MCInst Inst;
};

/// One variant's side of a function: its code and its profile.
struct Side {
  const CodeImage *Image = nullptr;
  const CodeFunction *Function = nullptr;
  const llvm::DenseMap<uint64_t, InstructionCost> *Costs = nullptr;
  std::unordered_map<uint32_t, std::vector<Decoded>> Blocks; ///< by block ID
  SpillCounts Counts;
};

InstructionCost costAt(const Side &S, uint64_t Address) {
  if (!S.Costs)
    return {};
  auto It = S.Costs->find(Address);
  return It == S.Costs->end() ? InstructionCost() : It->second;
}

/// Decodes every block of \p S's function, with costs and spill counts.
void decodeFunction(const Disassembler &Dis, Side &S) {
  for (const CodeBlock &Block :
       S.Image->blocks().slice(S.Function->FirstBlock, S.Function->NumBlocks)) {
    std::vector<Decoded> &Out = S.Blocks[Block.ID];
    llvm::ArrayRef<uint8_t> Bytes = S.Image->code(Block.Address, Block.Size);
    uint64_t Offset = 0;
    while (Offset < Bytes.size()) {
      llvm::MCInst Inst;
      uint64_t Address = Block.Address + Offset;
      auto Size = Dis.decode(Bytes.drop_front(Offset), Address, Inst);
      if (!Size)
        break; // CodeImage decoded the same bytes: not reached on its blocks
      StackSlotAccess Stack = Dis.stackSlotAccess(Inst);
      InstructionCost Cost = costAt(S, Address);
      Out.push_back({{Address, Dis.print(Inst, Address, *Size), Cost.Cycles, Cost.Executions,
                      Stack.Stores, Stack.Loads},
                     uint64_t(Inst.getOpcode()) << 2 | Stack.Stores << 1 | Stack.Loads, Inst});
      if (Stack.Stores) {
        ++S.Counts.Spills;
        S.Counts.SpillsRun += Cost.Executions;
      }
      if (Stack.Loads) {
        ++S.Counts.Reloads;
        S.Counts.ReloadsRun += Cost.Executions;
      }
      Offset += *Size;
    }
  }
}

std::string stackKind(const ExplainedInstruction &I) {
  return I.Reload && I.Spill ? "reload+spill" : I.Spill ? "spill" : I.Reload ? "reload" : "";
}

ExplainedRow makeRow(const Decoded *B, const Decoded *C) {
  ExplainedRow Row;
  if (B)
    Row.Baseline = B->Shown;
  if (C)
    Row.Candidate = C->Shown;
  std::string Kind = stackKind(C ? C->Shown : B->Shown);
  if (!Kind.empty())
    Row.Mark = B && C ? Kind : (C ? "+" : "-") + Kind;
  return Row;
}

/// The rows of a block: a longest common subsequence of the two instruction lists by
/// opcode and stack access, the rest where they fall. Very long blocks (beyond what
/// the quadratic table should take) are listed side by side as they are.
std::vector<ExplainedRow> alignBlock(const std::vector<Decoded> &B,
                                     const std::vector<Decoded> &C) {
  std::vector<ExplainedRow> Rows;
  size_t N = B.size(), M = C.size();
  if (N * M > (1u << 22)) {
    for (size_t I = 0; I < std::max(N, M); ++I)
      Rows.push_back(makeRow(I < N ? &B[I] : nullptr, I < M ? &C[I] : nullptr));
    return Rows;
  }
  // Common[i][j]: the longest common subsequence of B[i..] and C[j..].
  std::vector<uint32_t> Common((N + 1) * (M + 1), 0);
  auto At = [&](size_t I, size_t J) -> uint32_t & { return Common[I * (M + 1) + J]; };
  for (size_t I = N; I-- > 0;)
    for (size_t J = M; J-- > 0;)
      At(I, J) = B[I].Key == C[J].Key ? At(I + 1, J + 1) + 1
                                      : std::max(At(I + 1, J), At(I, J + 1));
  size_t I = 0, J = 0;
  while (I < N || J < M) {
    if (I < N && J < M && B[I].Key == C[J].Key && At(I, J) == At(I + 1, J + 1) + 1)
      Rows.push_back(makeRow(&B[I++], &C[J++]));
    else if (J < M && (I == N || At(I, J + 1) >= At(I + 1, J)))
      Rows.push_back(makeRow(nullptr, &C[J++]));
    else
      Rows.push_back(makeRow(&B[I++], nullptr));
  }
  return Rows;
}

void sumBlock(const std::vector<Decoded> &Code, uint64_t &Runs, uint64_t &Cycles) {
  for (const Decoded &D : Code) {
    Runs = std::max(Runs, D.Shown.Executions);
    Cycles += D.Shown.Cycles;
  }
}

/// The blocks of both sides (the same IDs, unless the candidate's CFG differs) whose
/// cycles changed, the largest change first, then the most cycles.
CodeChange compareCode(const Disassembler &Dis, const std::vector<Decoded> &B,
                       const std::vector<Decoded> &C) {
  std::vector<llvm::MCInst> X, Y;
  for (const Decoded &D : B)
    X.push_back(D.Inst);
  for (const Decoded &D : C)
    Y.push_back(D.Inst);
  // Where stack slots are counts: a spill moved to another slot is a change in code.
  SameTiming Same(Dis.instrInfo(), Dis.registerInfo().getProgramCounter(),
                  /*AddressesMatter=*/true);
  CodeMatch M = Same(X, Y);
  return M == CodeMatch::Same      ? CodeChange::None
         : M == CodeMatch::Renamed ? CodeChange::Registers
                                   : CodeChange::Code;
}

std::vector<ExplainedBlock> explainBlocks(const Disassembler &Dis, const Side &B,
                                          const Side &C, uint32_t Keep) {
  static const std::vector<Decoded> None;
  std::map<uint32_t, std::pair<const std::vector<Decoded> *, const std::vector<Decoded> *>>
      ById;
  for (const auto &[ID, Code] : B.Blocks)
    ById[ID] = {&Code, &None};
  for (const auto &[ID, Code] : C.Blocks) {
    auto It = ById.try_emplace(ID, &None, &None).first;
    It->second.second = &Code;
  }
  std::vector<ExplainedBlock> Blocks;
  for (const auto &[ID, Code] : ById) {
    ExplainedBlock Block;
    Block.ID = ID;
    sumBlock(*Code.first, Block.BaselineRuns, Block.BaselineCycles);
    sumBlock(*Code.second, Block.CandidateRuns, Block.CandidateCycles);
    if (Block.delta())
      Blocks.push_back(std::move(Block));
  }
  std::stable_sort(Blocks.begin(), Blocks.end(), [](const auto &X, const auto &Y) {
    if (std::llabs(X.delta()) != std::llabs(Y.delta()))
      return std::llabs(X.delta()) > std::llabs(Y.delta());
    return X.BaselineCycles + X.CandidateCycles > Y.BaselineCycles + Y.CandidateCycles;
  });
  if (Blocks.size() > Keep)
    Blocks.resize(Keep);
  for (ExplainedBlock &Block : Blocks) {
    const auto &[BaselineCode, CandidateCode] = ById[Block.ID];
    Block.Change = compareCode(Dis, *BaselineCode, *CandidateCode);
    Block.Rows = alignBlock(*BaselineCode, *CandidateCode);
  }
  return Blocks;
}

/// \p Image's side of traced function \p Index (key \p Key), if the image has it.
std::optional<Side> sideOf(const CodeImage &Image, const InstructionProfile &Profile,
                           uint32_t Index, const std::string &Key) {
  auto F = Image.findFunction(Key);
  if (!F)
    return std::nullopt;
  Side S;
  S.Image = &Image;
  S.Function = &Image.functions()[*F];
  if (Index < Profile.size())
    S.Costs = &Profile[Index];
  return S;
}

} // namespace

llvm::Expected<std::vector<FunctionExplanation>>
explainChanges(const ReplayComparison &Comparison, const SegmentTraceHeader &Header,
               const CodeImage &Baseline, const CodeImage &Candidate,
               const std::vector<FunctionMismatch> &CandidateFallbacks,
               const InstructionProfile &BaselineProfile,
               const InstructionProfile &CandidateProfile, const ExplainSettings &Settings) {
  std::vector<FunctionExplanation> Out;
  if (!Settings.Functions)
    return Out;
  auto Dis = Disassembler::create(llvm::Triple(Baseline.triple()));
  if (!Dis)
    return Dis.takeError();
  std::unordered_map<std::string, uint32_t> IndexOf;
  for (uint32_t F = 0; F < Header.Functions.size(); ++F)
    IndexOf.emplace(Header.Functions[F].Key, F);
  for (const FunctionDelta &D : Comparison.deltas()) {
    if (Out.size() == Settings.Functions || D.delta() == 0)
      break;
    auto Index = IndexOf.find(D.Function); // not unmapped code's pseudo-functions
    if (Index == IndexOf.end())
      continue;
    bool FellBack = std::any_of(CandidateFallbacks.begin(), CandidateFallbacks.end(),
                                [&](const auto &M) { return M.Function == D.Function; });
    auto B = sideOf(Baseline, BaselineProfile, Index->second, D.Function);
    auto C = sideOf(FellBack ? Baseline : Candidate, CandidateProfile, Index->second,
                    D.Function);
    if (!B || !C)
      continue; // matched to the trace, so not reached
    decodeFunction(**Dis, *B);
    decodeFunction(**Dis, *C);
    FunctionExplanation E;
    E.Function = D.Function;
    E.BaselineCycles = D.BaselineCycles;
    E.CandidateCycles = D.CandidateCycles;
    E.Baseline = B->Counts;
    E.Candidate = C->Counts;
    E.Blocks = explainBlocks(**Dis, *B, *C, Settings.Blocks);
    Out.push_back(std::move(E));
  }
  return Out;
}

} // namespace mlgo
