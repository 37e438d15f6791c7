/// \file
/// A shard of the trace as --sample spells it: LENGTH/EVERY events, "auto" or "none".
#pragma once

#include "replay/fast/SpanSettings.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace mlgo {

/// Reads --sample's LENGTH/EVERY (events) into \p Spans; an InputError names \p Option.
llvm::Error parseSampling(llvm::StringRef Text, llvm::StringRef Option, SpanSettings &Spans);
/// Reads --sample as replay and train take it: "auto" (leaves \p Spans and
/// \p AutoShard as they are), "none" (clears \p AutoShard) or LENGTH/EVERY.
llvm::Error parseSampleOption(llvm::StringRef Text, llvm::StringRef Option,
                              SpanSettings &Spans, bool &AutoShard);
/// LENGTH/EVERY of \p Spans' shard.
std::string samplingName(const SpanSettings &Spans);

} // namespace mlgo
