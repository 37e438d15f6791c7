/* The interpreter: a switch in a loop, the registers in a local array. */
#include "vm.h"

int64_t vm_run(const insn_t *code, int64_t *mem, size_t mem_words, const int64_t args[4],
               uint64_t *steps) {
  int64_t r[16] = {args[0], args[1], args[2], args[3]};
  uint64_t n = 0;
  size_t pc = 0;
  for (;;) {
    const insn_t *i = &code[pc++];
    ++n;
    switch (i->op) {
    case OP_LI: r[i->a] = i->imm; break;
    case OP_MOV: r[i->a] = r[i->b]; break;
    case OP_ADD: r[i->a] = r[i->b] + r[i->c]; break;
    case OP_SUB: r[i->a] = r[i->b] - r[i->c]; break;
    case OP_MUL: r[i->a] = (int64_t)((uint64_t)r[i->b] * (uint64_t)r[i->c]); break;
    case OP_DIVU: r[i->a] = (int64_t)((uint64_t)r[i->b] / (uint64_t)r[i->c]); break;
    case OP_REMU: r[i->a] = (int64_t)((uint64_t)r[i->b] % (uint64_t)r[i->c]); break;
    case OP_AND: r[i->a] = r[i->b] & r[i->c]; break;
    case OP_XOR: r[i->a] = r[i->b] ^ r[i->c]; break;
    case OP_SHRI: r[i->a] = (int64_t)((uint64_t)r[i->b] >> (i->imm & 63)); break;
    case OP_SHLI: r[i->a] = (int64_t)((uint64_t)r[i->b] << (i->imm & 63)); break;
    case OP_ADDI: r[i->a] = r[i->b] + i->imm; break;
    case OP_LD: r[i->a] = mem[(uint64_t)(r[i->b] + i->imm) % mem_words]; break;
    case OP_ST: mem[(uint64_t)(r[i->b] + i->imm) % mem_words] = r[i->a]; break;
    case OP_JMP: pc = (size_t)i->imm; break;
    case OP_JLT: if (r[i->a] < r[i->b]) pc = (size_t)i->imm; break;
    case OP_JEQ: if (r[i->a] == r[i->b]) pc = (size_t)i->imm; break;
    case OP_JNE: if (r[i->a] != r[i->b]) pc = (size_t)i->imm; break;
    case OP_HALT: *steps += n; return r[i->a];
    }
  }
}
