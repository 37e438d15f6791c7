// The JSON example: build an order book, serialize it, parse it back and summarize it,
// a number of rounds given by the scale argument (default 1: 20 rounds of 400 orders);
// below one round, fewer orders.
#include "../iterations.h"
#include "documents.h"
#include <algorithm>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  double Scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  int Rounds = Scale * 20 < 1 ? 1 : int(Scale * 20);
  int Orders = Scale * 20 < 1 ? std::max(1, int(400 * Scale * 20)) : 400;
  double Revenue = 0;
  long Items = 0, Tagged = 0, Bytes = 0;
  example_timer Timer = example_timer_start(); // EXAMPLE_ITERATIONS: see iterations.h
  while (example_next(&Timer)) {
    Revenue = 0, Items = 0, Tagged = 0, Bytes = 0;
    for (int R = 0; R < Rounds; ++R) {
      std::string Text = makeOrders(Orders, 12345 + R).dump();
      Bytes += Text.size();
      OrderTotals T = summarize(nlohmann::json::parse(Text));
      Revenue += T.Revenue;
      Items += T.Items;
      Tagged += T.Tagged;
    }
  }
  std::printf("json: %d rounds, %ld bytes, %ld items, %ld tags, revenue %.2f\n", Rounds,
              Bytes, Items, Tagged, Revenue);
  return 0;
}
