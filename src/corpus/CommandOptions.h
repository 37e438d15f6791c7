/// \file
/// What the sanitizer knows about cc1 options and -mllvm options: which it keeps
/// (they can change the code compiled from IR), which it drops (they cannot, or they
/// name the input, the outputs or the action, which our compiles supply), and which
/// load code. Everything else is unknown, and the sanitizer refuses it.
#pragma once

#include "llvm/ADT/StringRef.h"

namespace mlgo {

enum class OptionClass { Unknown, Keep, Drop, LoadsCode };

/// A cc1 option word and how it was matched.
struct OptionMatch {
  OptionClass Class = OptionClass::Unknown;
  /// The option's value is the next word (e.g. "-triple x86_64-pc-linux-gnu").
  bool TakesNextWord = false;
};

/// Classifies one cc1 argument word ("-O2", "-triple", "-fsanitize=address").
OptionMatch classifyOption(llvm::StringRef Word);

/// Classifies the word after "-mllvm" ("-stress-regalloc=4", "--load=x.so").
OptionClass classifyLLVMOption(llvm::StringRef Word);

} // namespace mlgo
