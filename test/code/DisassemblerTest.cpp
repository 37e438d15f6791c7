// The Disassembler's text and stack-slot accesses (replay --explain marks spills and
// reloads with them), on hand-encoded x86-64 instructions.
#include "TestSupport.h"
#include "code/Disassembler.h"

#include "llvm/MC/MCInst.h"

using namespace mlgo;
using namespace mlgo::test;

namespace {

struct Expected {
  std::vector<uint8_t> Bytes;
  const char *Text;
  bool Stores, Loads;
};

} // namespace

TEST_CASE("instructions print in Intel syntax, stack slots are recognized", "[code]") {
  initializeTargets();
  auto Dis = requireOk(Disassembler::create(llvm::Triple("x86_64-unknown-linux-gnu")));
  const Expected Cases[] = {
      {{0x48, 0x89, 0x44, 0x24, 0x08}, "mov qword ptr [rsp + 0x8], rax", true, false},
      {{0x48, 0x8b, 0x5c, 0x24, 0x08}, "mov rbx, qword ptr [rsp + 0x8]", false, true},
      {{0x48, 0x8b, 0x45, 0xf0}, "mov rax, qword ptr [rbp - 0x10]", false, true},
      {{0x48, 0x89, 0x04, 0x24}, "mov qword ptr [rsp], rax", true, false},
      {{0x48, 0x01, 0x44, 0x24, 0x08}, "add qword ptr [rsp + 0x8], rax", true, true},
      {{0x48, 0x03, 0x44, 0x24, 0x10}, "add rax, qword ptr [rsp + 0x10]", false, true},
      // Not a stack slot: an index, another base, a segment, no memory access.
      {{0x48, 0x8b, 0x04, 0xcc}, "mov rax, qword ptr [rsp + 8*rcx]", false, false},
      {{0x48, 0x8b, 0x47, 0x08}, "mov rax, qword ptr [rdi + 0x8]", false, false},
      {{0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0}, "mov rax, qword ptr fs:[0x28]", false,
       false},
      {{0x48, 0x8d, 0x5c, 0x24, 0x08}, "lea rbx, [rsp + 0x8]", false, false},
      {{0x50}, "push rax", false, false},
  };
  for (const Expected &E : Cases) {
    INFO(E.Text);
    llvm::MCInst Inst;
    auto Size = Dis->decode(E.Bytes, 0x1000, Inst);
    REQUIRE(Size);
    CHECK(*Size == E.Bytes.size());
    CHECK(Dis->print(Inst, 0x1000, *Size) == E.Text);
    StackSlotAccess Access = Dis->stackSlotAccess(Inst);
    CHECK(Access.Stores == E.Stores);
    CHECK(Access.Loads == E.Loads);
  }
  // Branch targets print as addresses.
  llvm::MCInst Jump;
  REQUIRE(Dis->decode(std::vector<uint8_t>{0xeb, 0x10}, 0x1000, Jump));
  CHECK(Dis->print(Jump, 0x1000, 2) == "jmp 0x1012");
}
