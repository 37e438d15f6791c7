/// \file
/// The predictor of BranchPredictor.h.
#include "replay/refill/BranchPredictor.h"

namespace mlgo {

namespace {
constexpr uint32_t Entries = uint32_t(1) << BranchPredictor::TableBits;
constexpr uint64_t Base = 0x100000001B3ull; ///< the path hash's polynomial base (odd)

/// A transfer as the path keeps it: its site and where it went, mixed.
uint64_t transferHash(uint32_t Site, uint32_t Next) {
  uint64_t H = (uint64_t(Site) << 32 | Next) * 0x9E3779B97F4A7C15ull;
  return H ^ H >> 29;
}
} // namespace

BranchPredictor::BranchPredictor() : ByPath(Tables * Entries) {
  for (unsigned T = 0; T < Tables; ++T) {
    uint64_t Weight = 1;
    for (unsigned I = 0; I < PathLengths[T]; ++I)
      Weight *= Base;
    OutgoingWeight[T] = Weight;
  }
}

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
  if (Site >= BySite.size())
    BySite.resize(Site + 1);
  PerSite &At = BySite[Site];
  // A site met for the first time is taken as predicted: a core guesses a new branch by
  // its direction, which the trace does not tell.
  bool SiteSeen = At.Plain.Next != Unseen;
  bool PlainRight = At.Plain.update(Next) || !SiteSeen;
  bool Right = PlainRight;
  if (At.Varies || !PlainRight) {
    At.Varies = true;
    Right = predictsByPath(Site, Next, PlainRight);
  }
  // The transfer joins the path; the one PathLengths[T] transfers older leaves each
  // table's hash.
  uint64_t In = transferHash(Site, Next);
  for (unsigned T = 0; T < Tables; ++T) {
    uint64_t Out = Transfers >= PathLengths[T]
                       ? Path[(Transfers - PathLengths[T]) % PathCapacity]
                       : 0;
    PathHash[T] = PathHash[T] * Base + In - Out * OutgoingWeight[T];
  }
  Path[Transfers++ % PathCapacity] = In;
  return Right;
}

bool BranchPredictor::predictsByPath(uint32_t Site, uint32_t Next, bool PlainRight) {
  // Each table's entry for this site and path: the index and tag from the high bits of
  // the path's hash mixed with the site (a tag is never 0, which marks a free entry).
  std::array<Tagged *, Tables> Entry;
  std::array<uint32_t, Tables> Tag;
  int Provider = -1;
  for (unsigned T = 0; T < Tables; ++T) {
    uint64_t H = (PathHash[T] ^ uint64_t(Site) * 0xC2B2AE3D27D4EB4Full) *
                 0xD6E8FEB86659FD93ull;
    Entry[T] = &ByPath[T * Entries + (H >> (64 - TableBits))];
    Tag[T] = uint32_t(H >> 8) | 1;
    if (Entry[T]->Tag == Tag[T])
      Provider = int(T);
  }
  // The longest path seen predicts; the next shorter one (or the site alone) is the
  // alternative it must beat to be useful.
  int Alternative = -1;
  for (int T = Provider - 1; T >= 0 && Alternative < 0; --T)
    if (Entry[T]->Tag == Tag[T])
      Alternative = T;
  bool Right = PlainRight;
  if (Provider >= 0) {
    bool AlternativeRight =
        Alternative >= 0 ? Entry[Alternative]->Guessed.Next == Next : PlainRight;
    Tagged &Used = *Entry[Provider];
    Right = Used.Guessed.update(Next);
    if (Right != AlternativeRight)
      Used.Useful = Right;
  }
  // A miss: a longer path gets an entry, the first free of use; if none is, their use
  // is forgotten so that the next miss finds one.
  if (!Right) {
    bool Allocated = false;
    for (unsigned T = unsigned(Provider + 1); T < Tables && !Allocated; ++T)
      if (!Entry[T]->Useful) {
        *Entry[T] = {Tag[T], {Next, false}, false};
        Allocated = true;
      }
    if (!Allocated)
      for (unsigned T = unsigned(Provider + 1); T < Tables; ++T)
        Entry[T]->Useful = false;
  }
  return Right;
}

} // namespace mlgo
