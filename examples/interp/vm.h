/* A register machine: 16 64-bit registers, a word-addressed memory, and instructions
   of an opcode, three register operands and an immediate. */
#ifndef MLGO_INTERP_VM_H
#define MLGO_INTERP_VM_H

#include <stddef.h>
#include <stdint.h>

enum {
  OP_LI,   /* a = imm */
  OP_MOV,  /* a = b */
  OP_ADD,  /* a = b + c */
  OP_SUB,  /* a = b - c */
  OP_MUL,  /* a = b * c */
  OP_DIVU, /* a = b / c (unsigned; c != 0) */
  OP_REMU, /* a = b % c (unsigned; c != 0) */
  OP_AND,  /* a = b & c */
  OP_XOR,  /* a = b ^ c */
  OP_SHRI, /* a = b >> imm (unsigned) */
  OP_SHLI, /* a = b << imm */
  OP_ADDI, /* a = b + imm */
  OP_LD,   /* a = mem[b + imm] */
  OP_ST,   /* mem[b + imm] = a */
  OP_JMP,  /* pc = imm */
  OP_JLT,  /* if (a < b) pc = imm (signed) */
  OP_JEQ,  /* if (a == b) pc = imm */
  OP_JNE,  /* if (a != b) pc = imm */
  OP_HALT  /* stop; the result is register a */
};

typedef struct {
  uint8_t op, a, b, c;
  int32_t imm;
} insn_t;

/* Runs code from pc 0 over mem (mem_words words; addresses are taken modulo it) with
   registers r0..r3 set from args; returns the halting register and adds the number of
   executed instructions to *steps. */
int64_t vm_run(const insn_t *code, int64_t *mem, size_t mem_words, const int64_t args[4],
               uint64_t *steps);

/* programs.c: a bytecode assembler and the programs it writes; each returns the
   number of instructions written to code (at most 64). */
size_t prog_sieve(insn_t *code);   /* primes below r0, using mem */
size_t prog_collatz(insn_t *code); /* sum of Collatz lengths of 1..r0 */
size_t prog_fnv(insn_t *code);     /* FNV-1a over mem[0..r0), r1 rounds */
size_t prog_mix(insn_t *code);     /* an arithmetic loop with 8 live values, r0 steps */

#endif
