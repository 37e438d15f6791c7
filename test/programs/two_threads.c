/* Two worker threads, alive at once (a barrier; Valgrind reuses an exited thread's
   id), each running its own function N times (argv[1], default 300000). */
#include <pthread.h>
#include <stdlib.h>
static pthread_barrier_t started;
static long n = 300000;
__attribute__((noinline)) long count_odd(long k) {
  long c = 0;
  for (long i = 0; i < k; ++i) c += (i * 7919) & 1;
  return c;
}
__attribute__((noinline)) long sum_squares(long k) {
  long s = 0;
  for (long i = 0; i < k; ++i) s += i * i;
  return s;
}
static void *odd(void *a) { pthread_barrier_wait(&started); return (void *)count_odd(n); }
static void *squares(void *a) { pthread_barrier_wait(&started); return (void *)sum_squares(n); }
volatile long result;
int main(int argc, char **argv) {
  pthread_t t[2];
  void *r;
  if (argc > 1) n = atol(argv[1]);
  pthread_barrier_init(&started, 0, 2);
  pthread_create(&t[0], 0, odd, 0);
  pthread_create(&t[1], 0, squares, 0);
  for (int i = 0; i < 2; ++i) { pthread_join(t[i], &r); result += (long)r; }
  return 0;
}
