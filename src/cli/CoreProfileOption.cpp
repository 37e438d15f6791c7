/// \file
/// --core-profile for replay and train.
#include "CoreProfileOption.h"

namespace mlgo {

CLI::Option *addCoreProfileOption(CLI::App *Cmd, std::string &Value) {
  return Cmd
      ->add_option("--core-profile", Value,
                   "What the core does that its scheduling model does not say, for the "
                   "flow engine: a file that 'mlgo-ra calibrate' wrote on the CPU, 'auto' "
                   "(the built-in profile of --mcpu's CPU where one was measured: znver3, "
                   "znver4, znver5, emeraldrapids, graniterapids) or 'none' (docs/calibrate.md)")
      ->capture_default_str();
}

llvm::Error resolveCoreProfileOption(const std::string &Value, const std::string &CPU,
                                     CoreProfile &Profile) {
  auto Resolved = resolveCoreProfile(Value, CPU);
  if (!Resolved)
    return Resolved.takeError();
  Profile = std::move(*Resolved);
  return llvm::Error::success();
}

} // namespace mlgo
