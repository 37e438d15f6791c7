/// \file
/// One line per error on stderr, in the format scripts grep for.
#include "Commands.h"
#include "ExitCode.h"
#include "support/Error.h"

#include "llvm/Support/WithColor.h"

namespace mlgo {

int reportError(llvm::Error E) {
  int Code = BadInput;
  llvm::handleAllErrors(std::move(E), [&](const llvm::ErrorInfoBase &Info) {
    if (!Info.isA<InputError>())
      Code = Failure;
    llvm::WithColor::error(llvm::errs(), "mlgo-ra") << Info.message() << "\n";
  });
  return Code;
}

} // namespace mlgo
