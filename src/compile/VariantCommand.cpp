/// \file
/// Completing a module's cc1 command for a variant compile.
#include "VariantCommand.h"

#include "llvm/ADT/StringRef.h"
#include <algorithm>

namespace mlgo {

const std::vector<std::string> &requiredVariantFlags() {
  static const std::vector<std::string> Flags = {
      "-fbasic-block-address-map",
      "-mllvm", "-disable-branch-fold",
      "-mllvm", "-enable-tail-merge=false",
      "-mllvm", "-branch-fold-placement=false",
      "-mllvm", "-disable-tail-duplicate",
      "-mllvm", "-tail-dup-placement=false",
      "-mllvm", "-enable-shrink-wrap=false",
  };
  return Flags;
}

std::vector<std::string> variantArguments(llvm::ArrayRef<std::string> Args) {
  std::vector<std::string> Out;
  for (const std::string &Arg : Args)
    if (!llvm::StringRef(Arg).starts_with("-fembed-bitcode"))
      Out.push_back(Arg);
  auto Has = [&](const std::string &Flag) {
    return std::find(Out.begin(), Out.end(), Flag) != Out.end();
  };
  const std::vector<std::string> &Required = requiredVariantFlags();
  for (size_t I = 0; I < Required.size(); ++I) {
    bool IsMllvm = Required[I] == "-mllvm";
    const std::string &Flag = IsMllvm ? Required[I + 1] : Required[I];
    if (!Has(Flag)) {
      if (IsMllvm)
        Out.push_back("-mllvm");
      Out.push_back(Flag);
    }
    I += IsMllvm;
  }
  return Out;
}

} // namespace mlgo
