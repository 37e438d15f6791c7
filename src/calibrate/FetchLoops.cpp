/// \file
/// Each fetch loop is 16 blocks of `lea; lea; jmp` (10 bytes), each entered by the jump
/// that ends the one before and starting at the same offset in its own 64-byte line: at
/// 0 (within a line), or where it crosses a boundary of 16, 32 or 64 bytes and no larger
/// one. The other front-end loops are nops (3 or 4 bytes, no work but dispatch) and a
/// fused `sub; jnz`: N operations in one line, or 8 nops and the pair placed across a
/// line boundary. The instructions are independent: the front end, not the back end,
/// sets the pace.
#include "FetchLoops.h"

#include <string>

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
// NOPS copies of NOP and sub (4 bytes); jnz (2), one operation, from OFFSET in a line.
#define MLGO_NOP_LOOP(OFFSET, NOPS, NOP)                                                  \
  [](uint64_t Left) {                                                                     \
    __asm__ volatile(".p2align 6\n\t"                                                     \
                     ".fill " MLGO_FETCH_STRING(OFFSET) ", 1, 0x90\n"                     \
                     "1:\n\t"                                                             \
                     ".rept " MLGO_FETCH_STRING(NOPS) "\n\t" NOP "\n\t"                  \
                     ".endr\n\t"                                                          \
                     "sub $1, %0\n\t"                                                     \
                     "jnz 1b"                                                             \
                     : "+r"(Left)                                                         \
                     :                                                                    \
                     : "cc");                                                             \
  }
// N operations in one line: N - 1 3-byte nops and the pair (N <= 20).
#define MLGO_LINE_LOOP(NOPS) MLGO_NOP_LOOP(0, NOPS, "nopl (%%rax)")
// 8 4-byte nops and the pair from OFFSET.
#define MLGO_JUMP_LOOP(OFFSET) MLGO_NOP_LOOP(OFFSET, 8, "nopl 0(%%rax)")
#endif
} // namespace

std::vector<FrontEndLoop> frontEndLoops() {
  std::vector<FrontEndLoop> Loops;
#if defined(__x86_64__)
  auto line = [&](unsigned Ops, LoopBody Body) {
    Loops.push_back({{LineOpsLoop + std::to_string(Ops),
                      std::to_string(Ops - 1) + " x nopl (%rax); sub; jnz, in one line", 0, 0},
                     Body});
  };
  line(8, MLGO_LINE_LOOP(7));
  line(10, MLGO_LINE_LOOP(9));
  line(11, MLGO_LINE_LOOP(10));
  line(12, MLGO_LINE_LOOP(11));
  line(13, MLGO_LINE_LOOP(12));
  line(14, MLGO_LINE_LOOP(13));
  line(16, MLGO_LINE_LOOP(15));
  line(20, MLGO_LINE_LOOP(19));
  // The sub at 60-63 and its jnz at 64-65; or both at 68-73, the nops across the line.
  Loops.push_back({{SplitJumpLoop, "8 x nopl 0(%rax); sub; jnz, from offset 28", 0, 0},
                   MLGO_JUMP_LOOP(28)});
  Loops.push_back({{WholeJumpLoop, "8 x nopl 0(%rax); sub; jnz, from offset 36", 0, 0},
                   MLGO_JUMP_LOOP(36)});
#endif
  return Loops;
}

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
