/// \file
/// The load dependences of a recorded trace: the collector's load sites (per load
/// instruction of the traced program) that lie in the traced binary's segments, numbered
/// as their segment's data loads (code/DataLoad.h).
#pragma once

#include "SegmentTrace.h"
#include "code/CodeImage.h"

#include "llvm/Support/Error.h"
#include <map>

namespace mlgo {

class LoadSites {
public:
  explicit LoadSites(const CodeImage &Image) : Image(Image) {}

  /// The counts of the load instruction at \p Address in the image; sites outside its
  /// segments (other modules' code, unmapped code) are left out.
  void add(uint64_t Address, LoadCounts Counts);

  /// Each segment with a site: its data loads in order, with their sites' counts (none
  /// for a data load that never ran, or that the collector did not see).
  llvm::Expected<LoadDependences> dependences() const;

private:
  const CodeImage &Image;
  /// By segment, then by address.
  std::map<uint32_t, std::map<uint64_t, LoadCounts>> Sites;
};

} // namespace mlgo
