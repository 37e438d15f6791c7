/// \file
/// The predictor of BranchPredictor.h.
#include "BranchPredictor.h"

namespace mlgo {

namespace {
constexpr uint32_t Entries = uint32_t(1) << BranchPredictor::HistoryBits;
} // namespace

BranchPredictor::BranchPredictor() : ByHistory(Entries) {}

bool BranchPredictor::Guess::update(uint32_t Actual) {
  bool Right = Next == Actual;
  if (Right)
    Confident = true;
  else if (Confident)
    Confident = false;
  else
    Next = Actual;
  return Right;
}

bool BranchPredictor::predicts(uint32_t Site, uint32_t Next) {
  if (Site >= Sites.size())
    Sites.resize(Site + 1);
  PerSite &At = Sites[Site];
  if (At.FirstNext == Unseen)
    At.FirstNext = Next;
  // Segments are numbered densely: spread a site's bits over the whole index before
  // the history is mixed in, as a branch's address would be.
  uint32_t Spread = (Site * 0x9E3779B1u) >> (32 - HistoryBits);
  Guess &WithHistory = ByHistory[(Spread ^ History) & (Entries - 1)];
  Guess &Base = At.Base;
  bool SiteSeen = Base.Next != Unseen;
  bool HistorySeen = WithHistory.Site == Site;
  if (!HistorySeen)
    WithHistory = {Unseen, Site, false};
  bool RightWithHistory = WithHistory.update(Next);
  bool RightBase = Base.update(Next);
  History = History << 1 | uint32_t(Next != At.FirstNext);
  // A site met for the first time is taken as predicted: a core guesses a new branch
  // by its direction, which the trace does not tell.
  if (HistorySeen)
    return RightWithHistory;
  return RightBase || !SiteSeen;
}

} // namespace mlgo
