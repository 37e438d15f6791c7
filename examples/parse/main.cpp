// The parse example's driver: generates CSV records and expression lines (counts scaled
// by argv[1], default 1) once, then parses and evaluates them argv[2] times (default 1).
#include "../iterations.h"
#include "parse.h"
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  double Scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  long Repeat = argc > 2 ? std::atol(argv[2]) : 1;
  int Records = int(2000 * Scale), Lines = int(1000 * Scale);
  if (Records < 1 || Lines < 1 || Repeat < 1) {
    std::fprintf(stderr, "usage: %s [scale > 0 [repeat >= 1]]\n", argv[0]);
    return 2;
  }
  std::string Csv = makeCsv(Records, 12345), Exprs = makeExpressions(Lines, 777);
  CsvTotals T;
  uint64_t Check = 0;
  example_timer Timer = example_timer_start(); // EXAMPLE_ITERATIONS: see iterations.h
  while (example_next(&Timer)) {
    Check = 0;
    for (long R = 0; R < Repeat; ++R) {
      T = parseCsv(Csv);
      Check = Check * 31 + evaluateLines(Exprs);
    }
  }
  std::printf("parse: %ld records, ids %lld, quantity %lld, price %.2f, max ratio %.3f, "
              "names %016llx, expressions %016llx\n",
              T.Records, (long long)T.IdSum, (long long)T.Quantity, T.Price, T.MaxRatio,
              (unsigned long long)T.NameHash, (unsigned long long)Check);
  return 0;
}
