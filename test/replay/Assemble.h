/// \file
/// Assembling hand-written x86-64 kernels for replay's tests: AT&T text in, the
/// decoded instructions out, as the replay engines receive them.
#pragma once

#include "llvm/MC/MCInst.h"
#include <map>
#include <string>
#include <vector>

namespace mlgo::test {

/// Assembles \p Assembly with clang-22; the decoded instructions of each section
/// .text.<name>, by name.
std::map<std::string, std::vector<llvm::MCInst>> assemble(const std::string &Assembly);

} // namespace mlgo::test
