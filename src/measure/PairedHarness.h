/// \file
/// The text of PairedHarness.c, compiled in (src/measure/CMakeLists.txt).
#pragma once

namespace mlgo {
const char *pairedHarnessSource();
} // namespace mlgo
