/// \file
/// Reads /proc/cpuinfo's first processor.
#include "HostCpu.h"

#include <fstream>
#include <string>

namespace mlgo {

std::string hostCpuName() {
  std::ifstream In("/proc/cpuinfo");
  std::string Line, Vendor, Family, Model;
  auto value = [&](const std::string &L) {
    size_t Start = L.find(':');
    if (Start != std::string::npos)
      Start = L.find_first_not_of(" \t", Start + 1);
    return Start == std::string::npos ? std::string() : L.substr(Start);
  };
  while (std::getline(In, Line) && !Line.empty()) {
    if (Line.rfind("vendor_id", 0) == 0)
      Vendor = value(Line);
    else if (Line.rfind("cpu family", 0) == 0)
      Family = value(Line);
    else if (Line.rfind("model", 0) == 0 && Line.rfind("model name", 0) != 0)
      Model = value(Line);
  }
  if (Vendor.empty())
    return "unknown";
  return Vendor + " family " + Family + " model " + Model;
}

} // namespace mlgo
