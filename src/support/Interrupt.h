/// \file
/// Process-wide interrupts: SIGINT and SIGTERM only set a flag that long work polls, so
/// that it cleans up (kills its compilers, removes its FIFOs) in ordinary code.
#pragma once

namespace mlgo {

/// Makes SIGINT and SIGTERM request an interrupt instead of killing the process, so
/// that running compiles kill their compiler and remove their FIFOs first. The caller
/// then exits (with 130).
void installInterruptHandler();
/// Set by the handler (or by a test); every running compile stops within ~50 ms.
void requestInterrupt();
bool interruptRequested();
void clearInterrupt();

} // namespace mlgo
