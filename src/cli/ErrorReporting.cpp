/// \file
/// One line per error on stderr, in the format scripts grep for: names taken from inputs
/// may hold newlines, which are escaped here, once for every message.
#include "Commands.h"
#include "ExitCode.h"
#include "support/Error.h"
#include "support/Interrupt.h"
#include "support/Printable.h"

#include "llvm/Support/WithColor.h"

namespace mlgo {

int reportError(llvm::Error E) {
  int Code = BadInput;
  llvm::handleAllErrors(std::move(E), [&](const llvm::ErrorInfoBase &Info) {
    if (!Info.isA<InputError>())
      Code = Failure;
    llvm::WithColor::error(llvm::errs(), "mlgo-ra") << printable(Info.message()) << "\n";
  });
  return Code;
}

int reportStageError(llvm::Error E) {
  if (!interruptRequested())
    return reportError(std::move(E));
  // Whatever failed after the interrupt (every running compile, the step, the
  // stage) failed because of it: one line says so.
  llvm::consumeError(std::move(E));
  llvm::WithColor::error(llvm::errs(), "mlgo-ra") << "interrupted\n";
  return Interrupted;
}

} // namespace mlgo
