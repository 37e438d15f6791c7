/// \file
/// Each loop starts a 64-byte line (one that crosses a line can run slower) and works
/// on a stack area below the red zone that it reserves itself (the compiler may keep
/// values in the red zone, 128 bytes below the stack pointer), so that its stack slots
/// are [rsp + 8] as a compiler's spills are.
#include "StoreLoadLoops.h"

namespace mlgo {

namespace {

#if defined(__x86_64__)
// BODY works on x (%1), y (%2) and p (%3, a pointer to 8 writable longs, the first of
// which points to itself: mov p, [p] chases it).
#define MLGO_STORE_LOAD_LOOP(BODY)                                                        \
  [](uint64_t Left) {                                                                     \
    long X = 1, Y = 2, Buffer[8] = {0}, *P = Buffer;                                      \
    Buffer[0] = reinterpret_cast<long>(Buffer);                                           \
    __asm__ volatile("sub $256, %%rsp\n\t"                                                \
                     ".p2align 6\n"                                                       \
                     "1:\n\t" BODY "\n\t"                                                 \
                     "sub $1, %0\n\t"                                                     \
                     "jnz 1b\n\t"                                                         \
                     "add $256, %%rsp"                                                    \
                     : "+r"(Left), "+r"(X), "+r"(Y), "+r"(P)                              \
                     :                                                                    \
                     : "memory", "cc");                                                   \
  }
#endif

} // namespace

std::vector<StoreLoadLoop> storeLoadLoops() {
  std::vector<StoreLoadLoop> Loops;
#if defined(__x86_64__)
  auto add = [&](const char *Name, const char *Code, unsigned Alu, LoopBody Body) {
    Loops.push_back({{Name, Code, 0, Alu}, Body});
  };
  add("spill_reload", "xor x, 5; mov [rsp+8], x; mov x, [rsp+8]", 1,
      MLGO_STORE_LOAD_LOOP("xor $5, %1\n\tmov %1, 8(%%rsp)\n\tmov 8(%%rsp), %1"));
  add("spill_reload_32", "xor x, 5; mov [rsp+8], x32; mov x32, [rsp+8]", 1,
      MLGO_STORE_LOAD_LOOP("xor $5, %1\n\tmov %k1, 8(%%rsp)\n\tmov 8(%%rsp), %k1"));
  add("push_pop", "xor x, 5; push x; pop x", 1,
      MLGO_STORE_LOAD_LOOP("xor $5, %1\n\tpush %1\n\tpop %1"));
  add("spill_reload_other", "xor x, 5; mov [rsp+8], x; mov y, [rsp+8]; lea x, [y+1]", 2,
      MLGO_STORE_LOAD_LOOP("xor $5, %1\n\tmov %1, 8(%%rsp)\n\tmov 8(%%rsp), %2\n\tlea 1(%2), %1"));
  add("folded_reload", "xor x, 5; mov [rsp+8], x; xor x, [rsp+8]", 2,
      MLGO_STORE_LOAD_LOOP("xor $5, %1\n\tmov %1, 8(%%rsp)\n\txor 8(%%rsp), %1"));
  add("pointer_store_load", "xor x, 5; mov [p+8], x; mov x, [p+8]", 1,
      MLGO_STORE_LOAD_LOOP("xor $5, %1\n\tmov %1, 8(%3)\n\tmov 8(%3), %1"));
  add(SlotOperationLoop, "add [rsp+8], 1", 1, MLGO_STORE_LOAD_LOOP("addq $1, 8(%%rsp)"));
  // A load past a store whose address comes late: three multiplies after each load
  // (9 cycles), against the same chase without the store.
  add(PointerChaseLoop, "mov p, [p]", 0, MLGO_STORE_LOAD_LOOP("mov (%3), %3"));
  add(LoadPastStoreLoop, "mov p, [p]; imul x, p, 1; imul x, x, 1; imul x, x, 1; mov [x+32], y",
      0,
      MLGO_STORE_LOAD_LOOP("mov (%3), %3\n\timul $1, %3, %1\n\timul $1, %1, %1\n\t"
                           "imul $1, %1, %1\n\tmov %2, 32(%1)"));
  // Stores of one register to 16 slots: no chain, only the stores' throughput.
  add(StoreThroughputLoop, "16 x mov [rsp+8k], x", 0,
      MLGO_STORE_LOAD_LOOP("mov %1, 8(%%rsp)\n\tmov %1, 16(%%rsp)\n\tmov %1, 24(%%rsp)\n\t"
                           "mov %1, 32(%%rsp)\n\tmov %1, 40(%%rsp)\n\tmov %1, 48(%%rsp)\n\t"
                           "mov %1, 56(%%rsp)\n\tmov %1, 64(%%rsp)\n\tmov %1, 72(%%rsp)\n\t"
                           "mov %1, 80(%%rsp)\n\tmov %1, 88(%%rsp)\n\tmov %1, 96(%%rsp)\n\t"
                           "mov %1, 104(%%rsp)\n\tmov %1, 112(%%rsp)\n\tmov %1, 120(%%rsp)\n\t"
                           "mov %1, 128(%%rsp)"));
#endif
  return Loops;
}

} // namespace mlgo
