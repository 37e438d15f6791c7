/// \file
/// The exit codes of mlgo-ra, in one place because scripts and CI jobs branch on them.
#pragma once

namespace mlgo {

enum ExitCode : int {
  Success = 0,
  /// A stage failed, or a check it was asked to make did not hold.
  Failure = 1,
  /// Bad usage or bad input: an option, a file the user named.
  BadInput = 2,
  Interrupted = 130,
};

} // namespace mlgo
