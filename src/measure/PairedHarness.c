/* The main of measure's paired programs: several builds of one program linked into one
   process, each build's global symbols renamed (its main becoming main__v0, main__v1,
   ...), their mains called in turn. Compiled by measure at run time (PairedPrograms.cpp).

   Why one process: on a shared virtual machine the same binary's CPU time drifts by tens
   of percent from run to run with the host's load. Calls of a few milliseconds to a
   second, alternated in one process with warm caches, see the same drift, and their
   ratio resolves a few tenths of a percent.

   Usage: harness --results FILE [--check DIR] [--seconds S] [--round K] NAME... -- ARG...
   NAME i names main__v<i>; the first is the baseline. With --check, every build is
   called once with its standard output in DIR/<i>.out, and the baseline a second time
   into DIR/again.out; then no timing. Otherwise rounds run until S thread CPU seconds
   are spent (at least one round): each round calls another build untimed (so that no
   call follows a call of its own build), then the baseline, then each other build in a
   shuffled order with the baseline after each (B V B V ... B), and appends "K SEQ I
   SECONDS" per call to FILE. A main that calls exit() ends the process: FILE then ends
   with "exit I", which names the build. The program's standard input, when it is a
   file, is rewound before each call. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static FILE *Results;
static int Calling = -1; /* the build whose main runs, for exit() */

static void fail(const char *What) {
  fprintf(stderr, "measure harness: error: %s\n", What);
  exit(3);
}

static void onExit(void) {
  if (Calling >= 0 && Results) {
    fprintf(Results, "exit %d\n", Calling);
    fflush(Results);
  }
}

static double threadSeconds(void) {
  struct timespec Now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &Now);
  return (double)Now.tv_sec + 1e-9 * (double)Now.tv_nsec;
}

static int ProgramArgc;
static char **ProgramArgv;

/* Calls build I with its standard output on descriptor Out; returns its CPU seconds. */
static double call(int I, int Out) {
  fflush(stdout);
  fseek(stdin, 0, SEEK_SET); /* fails harmlessly where stdin is no file */
  int Saved = dup(1);
  dup2(Out, 1);
  /* Each call gets a fresh copy of argv: a main may modify its arguments. */
  char *Argv[ProgramArgc + 1];
  for (int A = 0; A < ProgramArgc; ++A)
    Argv[A] = ProgramArgv[A];
  Argv[ProgramArgc] = NULL;
  Calling = I;
  double Began = threadSeconds();
  int Status = Builds[I](ProgramArgc, Argv);
  fflush(stdout);
  double Seconds = threadSeconds() - Began;
  Calling = -1;
  dup2(Saved, 1);
  close(Saved);
  if (Status != 0) {
    fprintf(Results, "status %d %d\n", I, Status);
    fflush(Results);
    exit(4);
  }
  return Seconds;
}

static void check(const char *Dir, int Count) {
  char Path[4096];
  for (int I = 0; I <= Count; ++I) {
    if (I < Count)
      snprintf(Path, sizeof Path, "%s/%d.out", Dir, I);
    else
      snprintf(Path, sizeof Path, "%s/again.out", Dir);
    int File = open(Path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (File < 0)
      fail("cannot write the output check's files");
    call(I < Count ? I : 0, File);
    close(File);
  }
}

int main(int Argc, char **Argv) {
  double Seconds = 1;
  long Round = 1;
  const char *ResultsPath = NULL, *CheckDir = NULL;
  int Count = 0, A = 1;
  for (; A < Argc && strcmp(Argv[A], "--") != 0; ++A) {
    if (strcmp(Argv[A], "--results") == 0 && A + 1 < Argc)
      ResultsPath = Argv[++A];
    else if (strcmp(Argv[A], "--check") == 0 && A + 1 < Argc)
      CheckDir = Argv[++A];
    else if (strcmp(Argv[A], "--seconds") == 0 && A + 1 < Argc)
      Seconds = atof(Argv[++A]);
    else if (strcmp(Argv[A], "--round") == 0 && A + 1 < Argc)
      Round = atol(Argv[++A]);
    else if (Argv[A][0] == '-')
      fail("unknown option");
    else
      ++Count;
  }
  if (A == Argc || !ResultsPath || Count < 2 || Count > MAX_BUILDS)
    fail("usage: harness --results FILE [--check DIR] [--seconds S] [--round K] NAME... -- ARG...");
  for (int I = 0; I < MAX_BUILDS; ++I)
    if ((I < Count) != (Builds[I] != NULL))
      fail("the builds linked are not the builds named");
  Results = fopen(ResultsPath, "w");
  if (!Results)
    fail("cannot write the results file");
  atexit(onExit);
  /* The program sees argv[0] and the arguments after "--". */
  Argv[A] = Argv[0];
  ProgramArgc = Argc - A;
  ProgramArgv = Argv + A;

  if (CheckDir) {
    check(CheckDir, Count);
    fprintf(Results, "done\n");
    fclose(Results);
    return 0;
  }
  int Quiet = open("/dev/null", O_WRONLY);
  int Order[MAX_BUILDS];
  unsigned long long State = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)Round;
  double Spent = 0;
  for (long First = Round; Spent < Seconds || Round == First; ++Round) {
    for (int I = 1; I < Count; ++I)
      Order[I - 1] = I;
    for (int I = Count - 2; I > 0; --I) { /* Fisher-Yates, xorshift64 */
      State ^= State >> 12, State ^= State << 25, State ^= State >> 27;
      int J = (int)((State * 0x2545F4914F6CDD1DULL >> 33) % (unsigned long long)(I + 1));
      int T = Order[I];
      Order[I] = Order[J], Order[J] = T;
    }
    call(Order[Count - 2], Quiet);
    int Sequence = 0;
    double T = call(0, Quiet);
    Spent += T;
    fprintf(Results, "%ld %d 0 %.9g\n", Round, Sequence++, T);
    for (int K = 0; K < Count - 1; ++K) {
      int I = Order[K];
      T = call(I, Quiet);
      Spent += T;
      fprintf(Results, "%ld %d %d %.9g\n", Round, Sequence++, I, T);
      T = call(0, Quiet);
      Spent += T;
      fprintf(Results, "%ld %d 0 %.9g\n", Round, Sequence++, T);
    }
  }
  fprintf(Results, "done\n");
  fclose(Results);
  return 0;
}
