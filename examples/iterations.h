/* Self-timing for the examples' drivers (bench/train-native). With EXAMPLE_ITERATIONS=N
   in the environment a driver runs its work N times, each time from the same state, and
   prints on standard error the CPU seconds of its fastest iteration:
     best of N iterations: S s
   Its standard output stays what one run prints. Without the variable it runs once and
   prints nothing more, as when it is traced. Timing inside the program leaves out its
   start-up, and the best of several iterations the ones another process slowed down. */
#ifndef EXAMPLES_ITERATIONS_H
#define EXAMPLES_ITERATIONS_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct {
  long left;       /* iterations still to start */
  long total;      /* 0: not timed (no EXAMPLE_ITERATIONS) */
  double began;    /* CPU seconds when the running iteration began */
  double best;     /* the fastest iteration's seconds so far, < 0 before the first */
} example_timer;

static inline double example_cpu_seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* The timer EXAMPLE_ITERATIONS asks for; exits (2) on a value that is not a count. */
static inline example_timer example_timer_start(void) {
  example_timer t = {1, 0, 0, -1};
  const char *text = getenv("EXAMPLE_ITERATIONS");
  if (text) {
    char *end = NULL;
    t.total = strtol(text, &end, 10);
    if (end == text || *end || t.total < 1) {
      fprintf(stderr, "EXAMPLE_ITERATIONS must be a count >= 1, not '%s'\n", text);
      exit(2);
    }
    t.left = t.total;
  }
  return t;
}

/* Whether to run another iteration: `while (example_next(&t)) { reset state; work; }`.
   Ends the running iteration's time, and after the last prints the best if timed. */
static inline int example_next(example_timer *t) {
  if (t->total && t->left < t->total) {
    double took = example_cpu_seconds() - t->began;
    if (t->best < 0 || took < t->best)
      t->best = took;
  }
  if (t->left == 0) {
    if (t->total)
      fprintf(stderr, "best of %ld iterations: %.6f s\n", t->total, t->best);
    return 0;
  }
  --t->left;
  if (t->total)
    t->began = example_cpu_seconds();
  return 1;
}

#endif
