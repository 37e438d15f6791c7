/// \file
/// Interrupts: a signal only sets a flag; every compile polls it (the poll loop wakes
/// at least every 50 ms), so cleanup happens in ordinary code, not in a handler.
#include "Interrupt.h"

#include <atomic>
#include <signal.h>

namespace mlgo {

static std::atomic<bool> Interrupted{false};

static void onSignal(int) { Interrupted.store(true); }

void installInterruptHandler() {
  struct sigaction Action = {};
  Action.sa_handler = onSignal;
  sigemptyset(&Action.sa_mask);
  sigaction(SIGINT, &Action, nullptr);
  sigaction(SIGTERM, &Action, nullptr);
}

void requestInterrupt() { Interrupted.store(true); }
bool interruptRequested() { return Interrupted.load(); }
void clearInterrupt() { Interrupted.store(false); }

} // namespace mlgo
