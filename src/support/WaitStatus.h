/// \file
/// A child process's wait status in words, for the one-line errors that name a child
/// that failed.
#pragma once

#include <string>

namespace mlgo {

/// "exited with code 1", "was killed by signal 9 (Killed)".
std::string describeWaitStatus(int Status);

} // namespace mlgo
