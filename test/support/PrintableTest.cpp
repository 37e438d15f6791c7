#include "TestSupport.h"
#include "support/Printable.h"

using namespace mlgo;

TEST_CASE("printable keeps text on one line", "[support]") {
  CHECK(printable("main") == "main");
  CHECK(printable("f\nmlgo-ra: error: forged") == "f\\nmlgo-ra: error: forged");
  CHECK(printable("a\rb\tc") == "a\\rb\\tc");
  CHECK(printable(llvm::StringRef("a\0b", 3)) == "a\\x00b");
  CHECK(printable("\x1b[31mred") == "\\x1b[31mred");
  CHECK(printable("del\x7f") == "del\\x7f");
}

TEST_CASE("printable keeps UTF-8 and escapes what is not", "[support]") {
  CHECK(printable("caf\xc3\xa9 \xe2\x82\xac") == "caf\xc3\xa9 \xe2\x82\xac");
  CHECK(printable("\xff") == "\\xff");
  CHECK(printable("cut \xe2\x82") == "cut \\xe2\\x82");
  CHECK(printable("\xc2\x9b") == "\\xc2\\x9b"); // C1 control: CSI
  CHECK(printable(printable("a\nb")) == printable("a\nb"));
}
