/// \file
/// Each loop is 16 blocks of `lea; lea; jmp` (10 bytes), each entered by the jump that
/// ends the one before and starting at the same offset in its own 64-byte line: at 0
/// (within a line), or where it crosses a boundary of 16, 32 or 64 bytes and no larger
/// one. The blocks' instructions are independent: the front end, not the back end,
/// sets the pace.
#include "FetchLoops.h"

namespace mlgo {

namespace {
#if defined(__x86_64__)
#define MLGO_FETCH_STRING(X) #X
// 16 blocks at OFFSET in their lines, then the loop's own jump back.
#define MLGO_FETCH_LOOP(OFFSET)                                                           \
  [](uint64_t Left) {                                                                     \
    __asm__ volatile(".p2align 6\n"                                                       \
                     "1:\n\t"                                                             \
                     ".rept 16\n\t"                                                       \
                     "jmp 3f\n\t"                                                         \
                     ".p2align 6\n\t"                                                     \
                     ".fill " MLGO_FETCH_STRING(OFFSET) ", 1, 0xcc\n"                     \
                     "3:\n\t"                                                             \
                     "lea 1(%%rcx), %%r8\n\t"                                             \
                     "lea 1(%%rcx), %%r9\n\t"                                             \
                     ".endr\n\t"                                                          \
                     "sub $1, %0\n\t"                                                     \
                     "jnz 1b"                                                             \
                     : "+r"(Left)                                                         \
                     :                                                                    \
                     : "r8", "r9", "cc");                                                 \
  }
#endif
} // namespace

std::vector<FetchLoop> fetchLoops() {
  std::vector<FetchLoop> Loops;
#if defined(__x86_64__)
  auto add = [&](const char *Name, unsigned Offset, unsigned Crosses, LoopBody Body) {
    Loops.push_back({{Name, Offset, Crosses, 0}, Body});
  };
  add("block_in_line", 0, 0, MLGO_FETCH_LOOP(0));
  add("block_across_16", 10, 16, MLGO_FETCH_LOOP(10));
  add("block_across_32", 26, 32, MLGO_FETCH_LOOP(26));
  add("block_across_64", 58, 64, MLGO_FETCH_LOOP(58));
#endif
  return Loops;
}

} // namespace mlgo
