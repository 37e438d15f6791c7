/// \file
/// Where trace record finds the mlgotrace Valgrind tool when no option or environment
/// variable names it: beside an installed mlgo-ra, or in the build tree it came from.
#pragma once

#include <string>

namespace mlgo {

/// The directory to use as VALGRIND_LIB: MLGO_RA_TOOL_DIR_FROM_BIN (../libexec/mlgo-ra)
/// from this executable's directory if that exists; else, for the build tree's own
/// binary, the directory the build assembled; else the installed location, so that the
/// error names where the tool belongs.
std::string mlgotraceDirectory();

} // namespace mlgo
