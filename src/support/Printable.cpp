/// \file
/// Escaping control characters and invalid UTF-8 for one-line output.
#include "Printable.h"

#include "llvm/Support/ConvertUTF.h"
#include <fmt/format.h>

namespace mlgo {

namespace {

void escapeByte(std::string &Out, uint8_t B) {
  switch (B) {
  case '\n':
    Out += "\\n";
    return;
  case '\r':
    Out += "\\r";
    return;
  case '\t':
    Out += "\\t";
    return;
  default:
    Out += fmt::format("\\x{:02x}", B);
  }
}

} // namespace

std::string printable(llvm::StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  const auto *P = reinterpret_cast<const llvm::UTF8 *>(Text.data());
  const auto *End = P + Text.size();
  while (P < End) {
    uint8_t B = *P;
    if (B >= 0x20 && B < 0x7f) {
      Out.push_back(char(B));
      ++P;
      continue;
    }
    if (B < 0x80) { // C0 controls and DEL
      escapeByte(Out, B);
      ++P;
      continue;
    }
    unsigned Length = llvm::getNumBytesForUTF8(B);
    bool Valid = Length <= unsigned(End - P) && llvm::isLegalUTF8Sequence(P, P + Length);
    // C1 controls (U+0080..U+009F: 0xC2 0x80..0x9F) act on some terminals, as ESC does.
    bool C1 = Valid && Length == 2 && B == 0xc2 && P[1] < 0xa0;
    if (!Valid || C1) {
      for (unsigned I = 0; I < (Valid ? Length : 1); ++I)
        escapeByte(Out, P[I]);
      P += Valid ? Length : 1;
      continue;
    }
    Out.append(reinterpret_cast<const char *>(P), Length);
    P += Length;
  }
  return Out;
}

} // namespace mlgo
