/* paired-harness: the main of bench/measure-paired's program, which links several builds
   of one program into one process (each build's global symbols renamed, its main becoming
   main__v0, main__v1, ...) and calls their mains in turn.

   Why one process: on this project's virtual machines, the same binary's CPU time varies
   by 30% from run to run, even as the best of ten iterations of 0.1 s, because the host's
   load drifts over seconds. Calls of a few milliseconds, alternated in one process with
   warm caches, see the same drift: their ratio resolves a few tenths of a percent where
   separate processes resolve ten points.

   Usage: paired-harness [--rounds N] [--first-round K] [--workload W] NAME... -- ARG...
   NAME i names main__v<i>; the first is the baseline. Each round calls the baseline, then
   each other build in a shuffled order with the baseline after each (B V B V ... B), as
   accuracy-measure does (after an untimed call of another build, so that no call follows
   a call of its own build), and prints one line per call in accuracy-measure's format:
   "workload round sequence name seconds" (the calling thread's CPU seconds). Before the
   rounds, every build runs once with its standard output kept: it must print what the
   baseline prints, and the baseline must print it again when called a second time (its
   main must be callable more than once). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

typedef int Main(int, char **);
#define BUILD(I) extern int main__v##I(int, char **) __attribute__((weak));
#define BUILDS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) \
  X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23)
BUILDS(BUILD)
#undef BUILD
#define BUILD(I) main__v##I,
static Main *const Builds[] = {BUILDS(BUILD)};
#undef BUILD
enum { MAX_BUILDS = sizeof Builds / sizeof Builds[0] };

static void fail(const char *What, const char *Name) {
  fprintf(stderr, "paired-harness: error: %s%s%s\n", Name ? Name : "", Name ? ": " : "",
          What);
  exit(1);
}

static double threadSeconds(void) {
  struct timespec Now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &Now);
  return (double)Now.tv_sec + 1e-9 * (double)Now.tv_nsec;
}

static int ProgramArgc;
static char **ProgramArgv;
static int Quiet; /* a descriptor of /dev/null, where timed calls print */

/* Calls build I with its standard output on descriptor Out; returns its CPU seconds. */
static double call(int I, const char *Name, int Out) {
  fflush(stdout);
  int Saved = dup(1);
  dup2(Out, 1);
  double Began = threadSeconds();
  int Status = Builds[I](ProgramArgc, ProgramArgv);
  fflush(stdout);
  double Seconds = threadSeconds() - Began;
  dup2(Saved, 1);
  close(Saved);
  if (Status != 0)
    fail("its main returned non-zero", Name);
  return Seconds;
}

/* Build I's standard output of one call, as a malloc'd string. */
static char *output(int I, const char *Name) {
  int File = memfd_create("paired-output", 0);
  if (File < 0)
    fail("cannot create a memory file", NULL);
  call(I, Name, File);
  off_t Size = lseek(File, 0, SEEK_END);
  char *Text = calloc((size_t)Size + 1, 1);
  if (pread(File, Text, (size_t)Size, 0) != Size)
    fail("cannot read its output back", Name);
  close(File);
  return Text;
}

int main(int Argc, char **Argv) {
  long Rounds = 200, FirstRound = 1;
  const char *Workload = "workload";
  const char *Names[MAX_BUILDS];
  int Count = 0, A = 1;
  for (; A < Argc && strcmp(Argv[A], "--") != 0; ++A) {
    if (strcmp(Argv[A], "--rounds") == 0 && A + 1 < Argc)
      Rounds = atol(Argv[++A]);
    else if (strcmp(Argv[A], "--first-round") == 0 && A + 1 < Argc)
      FirstRound = atol(Argv[++A]);
    else if (strcmp(Argv[A], "--workload") == 0 && A + 1 < Argc)
      Workload = Argv[++A];
    else if (Argv[A][0] == '-')
      fail("unknown option; usage: paired-harness [--rounds N] [--first-round K] "
           "[--workload W] NAME... -- ARG...", Argv[A]);
    else if (Count == MAX_BUILDS)
      fail("more builds than the harness takes (24)", Argv[A]);
    else
      Names[Count++] = Argv[A];
  }
  if (A == Argc || Rounds < 1 || Count < 2)
    fail("usage: paired-harness [--rounds N >= 1] [--first-round K] [--workload W] "
         "BASELINE NAME... -- ARG...", NULL);
  for (int I = 0; I < MAX_BUILDS; ++I)
    if ((I < Count) != (Builds[I] != NULL))
      fail(I < Count ? "no such build linked (main__v<i> missing)"
                     : "more builds linked than named", I < Count ? Names[I] : NULL);
  /* The program sees argv[0] and the arguments after "--". */
  Argv[A] = Argv[0];
  ProgramArgc = Argc - A;
  ProgramArgv = Argv + A;
  unsetenv("EXAMPLE_ITERATIONS"); /* the examples then run their work once, untimed */

  Quiet = open("/dev/null", O_WRONLY);
  char *Expected = output(0, Names[0]);
  for (int I = 0; I < Count; ++I) {
    char *Got = output(I, Names[I]);
    if (strcmp(Got, Expected) != 0)
      fail(I == 0 ? "prints something else when its main is called again"
                  : "prints something else than the baseline", Names[I]);
    free(Got);
  }
  free(Expected);

  int Order[MAX_BUILDS];
  unsigned long long State = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)FirstRound;
  for (long Round = FirstRound; Round < FirstRound + Rounds; ++Round) {
    for (int I = 1; I < Count; ++I)
      Order[I - 1] = I;
    for (int I = Count - 2; I > 0; --I) { /* Fisher-Yates, xorshift64 */
      State ^= State >> 12, State ^= State << 25, State ^= State >> 27;
      int J = (int)((State * 0x2545F4914F6CDD1DULL >> 33) % (unsigned long long)(I + 1));
      int T = Order[I];
      Order[I] = Order[J], Order[J] = T;
    }
    /* The round's first baseline call must follow another build's, as every other call
       does: after the previous round's last baseline call it would find its own branch
       history and data in place and run faster. */
    call(Order[Count - 2], Names[Order[Count - 2]], Quiet);
    int Sequence = 0;
    printf("%s\t%ld\t%d\t%s\t%.9g\n", Workload, Round, Sequence++, "baseline",
           call(0, Names[0], Quiet));
    for (int K = 0; K < Count - 1; ++K) {
      int I = Order[K];
      printf("%s\t%ld\t%d\t%s\t%.9g\n", Workload, Round, Sequence++, Names[I],
             call(I, Names[I], Quiet));
      printf("%s\t%ld\t%d\t%s\t%.9g\n", Workload, Round, Sequence++, "baseline",
             call(0, Names[0], Quiet));
    }
  }
  return 0;
}
