/* The programs the interpreter runs, written as bytecode. Jump targets are instruction
   indices, noted in the comments. */
#include "vm.h"

static insn_t I(uint8_t op, uint8_t a, uint8_t b, uint8_t c, int32_t imm) {
  insn_t i = {op, a, b, c, imm};
  return i;
}

/* Counts the primes below r0 with a sieve over mem[0..r0). */
size_t prog_sieve(insn_t *p) {
  size_t n = 0;
  p[n++] = I(OP_LI, 6, 0, 0, 0);     /* 0: zero */
  p[n++] = I(OP_LI, 5, 0, 0, 1);     /* 1: one */
  p[n++] = I(OP_LI, 4, 0, 0, 0);     /* 2: i = 0 */
  p[n++] = I(OP_ST, 6, 4, 0, 0);     /* 3: clear: mem[i] = 0 */
  p[n++] = I(OP_ADDI, 4, 4, 0, 1);   /* 4 */
  p[n++] = I(OP_JLT, 4, 0, 0, 3);    /* 5 */
  p[n++] = I(OP_LI, 4, 0, 0, 2);     /* 6: i = 2 */
  p[n++] = I(OP_LI, 7, 0, 0, 0);     /* 7: count = 0 */
  p[n++] = I(OP_JLT, 4, 0, 0, 10);   /* 8: outer: i < n? */
  p[n++] = I(OP_HALT, 7, 0, 0, 0);   /* 9 */
  p[n++] = I(OP_LD, 8, 4, 0, 0);     /* 10 */
  p[n++] = I(OP_JNE, 8, 6, 0, 19);   /* 11: composite: next */
  p[n++] = I(OP_ADDI, 7, 7, 0, 1);   /* 12: count++ */
  p[n++] = I(OP_MUL, 9, 4, 4, 0);    /* 13: j = i * i */
  p[n++] = I(OP_JLT, 9, 0, 0, 16);   /* 14: mark: j < n? */
  p[n++] = I(OP_JMP, 0, 0, 0, 19);   /* 15 */
  p[n++] = I(OP_ST, 5, 9, 0, 0);     /* 16: mem[j] = 1 */
  p[n++] = I(OP_ADD, 9, 9, 4, 0);    /* 17: j += i */
  p[n++] = I(OP_JMP, 0, 0, 0, 14);   /* 18 */
  p[n++] = I(OP_ADDI, 4, 4, 0, 1);   /* 19: next: i++ */
  p[n++] = I(OP_JMP, 0, 0, 0, 8);    /* 20 */
  return n;
}

/* The sum of the Collatz path lengths of 1..r0. */
size_t prog_collatz(insn_t *p) {
  size_t n = 0;
  p[n++] = I(OP_LI, 4, 0, 0, 1);     /* 0: k = 1 */
  p[n++] = I(OP_LI, 7, 0, 0, 0);     /* 1: total = 0 */
  p[n++] = I(OP_LI, 5, 0, 0, 1);     /* 2: one */
  p[n++] = I(OP_LI, 10, 0, 0, 3);    /* 3: three */
  p[n++] = I(OP_JLT, 0, 4, 0, 17);   /* 4: loop: n < k? done */
  p[n++] = I(OP_MOV, 8, 4, 0, 0);    /* 5: x = k */
  p[n++] = I(OP_JEQ, 8, 5, 0, 15);   /* 6: step: x == 1? next */
  p[n++] = I(OP_AND, 9, 8, 5, 0);    /* 7 */
  p[n++] = I(OP_JEQ, 9, 5, 0, 11);   /* 8: odd? */
  p[n++] = I(OP_SHRI, 8, 8, 0, 1);   /* 9: x /= 2 */
  p[n++] = I(OP_JMP, 0, 0, 0, 13);   /* 10 */
  p[n++] = I(OP_MUL, 8, 8, 10, 0);   /* 11: x = 3x + 1 */
  p[n++] = I(OP_ADDI, 8, 8, 0, 1);   /* 12 */
  p[n++] = I(OP_ADDI, 7, 7, 0, 1);   /* 13: total++ */
  p[n++] = I(OP_JMP, 0, 0, 0, 6);    /* 14 */
  p[n++] = I(OP_ADDI, 4, 4, 0, 1);   /* 15: next: k++ */
  p[n++] = I(OP_JMP, 0, 0, 0, 4);    /* 16 */
  p[n++] = I(OP_HALT, 7, 0, 0, 0);   /* 17: done */
  return n;
}

/* Fills mem[0..r0) from a linear congruential generator, then runs r1 rounds of
   64-bit FNV-1a over the two low bytes of each word, writing the hash back. */
size_t prog_fnv(insn_t *p) {
  size_t n = 0;
  p[n++] = I(OP_LI, 4, 0, 0, 0);          /* 0: i = 0 */
  p[n++] = I(OP_LI, 5, 0, 0, 12345);      /* 1: x */
  p[n++] = I(OP_LI, 6, 0, 0, 1103515245); /* 2 */
  p[n++] = I(OP_JLT, 4, 0, 0, 5);         /* 3: fill: i < n? */
  p[n++] = I(OP_JMP, 0, 0, 0, 10);        /* 4 */
  p[n++] = I(OP_MUL, 5, 5, 6, 0);         /* 5 */
  p[n++] = I(OP_ADDI, 5, 5, 0, 12345);    /* 6 */
  p[n++] = I(OP_ST, 5, 4, 0, 0);          /* 7 */
  p[n++] = I(OP_ADDI, 4, 4, 0, 1);        /* 8 */
  p[n++] = I(OP_JMP, 0, 0, 0, 3);         /* 9 */
  p[n++] = I(OP_LI, 7, 0, 0, 0);          /* 10: round = 0 */
  p[n++] = I(OP_LI, 9, 0, 0, 1);          /* 11: prime = 2^40 + 0x1b3 */
  p[n++] = I(OP_SHLI, 9, 9, 0, 40);       /* 12 */
  p[n++] = I(OP_ADDI, 9, 9, 0, 0x1b3);    /* 13 */
  p[n++] = I(OP_LI, 8, 0, 0, 0x811c);     /* 14: hash = 0x811c9dc5 */
  p[n++] = I(OP_SHLI, 8, 8, 0, 16);       /* 15 */
  p[n++] = I(OP_ADDI, 8, 8, 0, 0x9dc5);   /* 16 */
  p[n++] = I(OP_LI, 11, 0, 0, 255);       /* 17 */
  p[n++] = I(OP_JLT, 7, 1, 0, 20);        /* 18: rounds: round < r1? */
  p[n++] = I(OP_HALT, 8, 0, 0, 0);        /* 19 */
  p[n++] = I(OP_LI, 4, 0, 0, 0);          /* 20: i = 0 */
  p[n++] = I(OP_JLT, 4, 0, 0, 24);        /* 21: words: i < n? */
  p[n++] = I(OP_ADDI, 7, 7, 0, 1);        /* 22: round++ */
  p[n++] = I(OP_JMP, 0, 0, 0, 18);        /* 23 */
  p[n++] = I(OP_LD, 10, 4, 0, 0);         /* 24 */
  p[n++] = I(OP_AND, 12, 10, 11, 0);      /* 25: low byte */
  p[n++] = I(OP_XOR, 8, 8, 12, 0);        /* 26 */
  p[n++] = I(OP_MUL, 8, 8, 9, 0);         /* 27 */
  p[n++] = I(OP_SHRI, 12, 10, 0, 8);      /* 28: second byte */
  p[n++] = I(OP_AND, 12, 12, 11, 0);      /* 29 */
  p[n++] = I(OP_XOR, 8, 8, 12, 0);        /* 30 */
  p[n++] = I(OP_MUL, 8, 8, 9, 0);         /* 31 */
  p[n++] = I(OP_ST, 8, 4, 0, 0);          /* 32: mem[i] = hash */
  p[n++] = I(OP_ADDI, 4, 4, 0, 1);        /* 33 */
  p[n++] = I(OP_JMP, 0, 0, 0, 21);        /* 34 */
  return n;
}

/* r0 steps of an arithmetic recurrence over eight values, one of them reduced modulo
   a prime each step; returns their combination. */
size_t prog_mix(insn_t *p) {
  size_t n = 0;
  for (uint8_t r = 4; r <= 10; ++r)
    p[n++] = I(OP_LI, r, 0, 0, 2 * r + 1); /* 0-6: the values */
  p[n++] = I(OP_LI, 11, 0, 0, 0);          /* 7: i = 0 */
  p[n++] = I(OP_LI, 13, 0, 0, 1000003);    /* 8: the prime */
  p[n++] = I(OP_JLT, 11, 0, 0, 11);        /* 9: loop: i < n? */
  p[n++] = I(OP_JMP, 0, 0, 0, 24);         /* 10 */
  p[n++] = I(OP_ADD, 4, 4, 5, 0);          /* 11 */
  p[n++] = I(OP_XOR, 5, 5, 6, 0);          /* 12 */
  p[n++] = I(OP_MUL, 6, 6, 7, 0);          /* 13 */
  p[n++] = I(OP_SHRI, 12, 8, 0, 7);        /* 14 */
  p[n++] = I(OP_XOR, 7, 7, 12, 0);         /* 15 */
  p[n++] = I(OP_ADD, 8, 8, 9, 0);          /* 16 */
  p[n++] = I(OP_SUB, 9, 9, 10, 0);         /* 17 */
  p[n++] = I(OP_REMU, 12, 4, 13, 0);       /* 18 */
  p[n++] = I(OP_XOR, 10, 10, 12, 0);       /* 19 */
  p[n++] = I(OP_SHLI, 12, 5, 0, 3);        /* 20 */
  p[n++] = I(OP_ADD, 6, 6, 12, 0);         /* 21 */
  p[n++] = I(OP_ADDI, 11, 11, 0, 1);       /* 22: i++ */
  p[n++] = I(OP_JMP, 0, 0, 0, 9);          /* 23 */
  for (uint8_t r = 5; r <= 10; ++r)
    p[n++] = I(OP_XOR, 4, 4, r, 0);        /* 24-29: combine */
  p[n++] = I(OP_HALT, 4, 0, 0, 0);         /* 30 */
  return n;
}
