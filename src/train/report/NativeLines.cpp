/// \file
/// A native measurement record as lines a person reads.
#include "TrainReports.h"

#include "llvm/ADT/StringExtras.h"
#include <fmt/format.h>

namespace mlgo {

std::string describeNative(const Json &Native) {
  std::string Lines;
  if (!Native.is_object() || !Native.contains("builds") || !Native["builds"].is_array())
    return Lines;
  auto number = [](const Json &J, const char *Key) {
    return J.contains(Key) && J[Key].is_number() ? J[Key].get<double>() : 0.0;
  };
  for (const Json &B : Native["builds"]) {
    if (!B.is_object())
      continue;
    Lines += fmt::format("{}: {:+.2f}% [{:+.2f}%, {:+.2f}%] {} ({} mode, {} {})\n",
                         B.value("name", std::string("?")), 100 * number(B, "speedup"),
                         100 * number(B, "low"), 100 * number(B, "high"),
                         B.value("verdict", std::string("?")),
                         Native.value("mode", std::string("?")), Native.value("units", 0u),
                         Native.value("mode", "") == "paired" ? "processes" : "rounds");
  }
  if (Native.contains("choice") && Native["choice"].is_object()) {
    const Json &C = Native["choice"];
    if (C.value("name", "") == "default")
      Lines += "chosen: default (" + C.value("why", std::string()) + ")\n";
    else
      Lines += fmt::format("chosen: {} ({}), {:+.2f}% [{:+.2f}%, {:+.2f}%]\n",
                           C.value("name", std::string("?")),
                           C.value("policy", std::string("?")), 100 * number(C, "speedup"),
                           100 * number(C, "low"), 100 * number(C, "high"));
  }
  return Lines;
}

std::string nativeText(const Json &Record) {
  std::string Text;
  if (!Record.is_object() || !Record.contains("native"))
    return Text;
  std::string Lines = describeNative(Record["native"]);
  for (llvm::StringRef Line : llvm::split(llvm::StringRef(Lines).rtrim('\n'), '\n'))
    Text += "  measured natively, " + Line.str() + "\n";
  return Text;
}

} // namespace mlgo
