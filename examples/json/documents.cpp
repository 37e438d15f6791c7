#include "documents.h"

namespace {
unsigned nextRandom(unsigned &State) {
  State ^= State << 13;
  State ^= State >> 17;
  State ^= State << 5;
  return State;
}
const char *const Tags[] = {"gift", "express", "fragile", "bulk", "return", "vip"};
} // namespace

nlohmann::json makeOrders(int N, unsigned Seed) {
  unsigned State = Seed | 1;
  nlohmann::json Orders = nlohmann::json::array();
  for (int I = 0; I < N; ++I) {
    nlohmann::json Order;
    Order["id"] = I;
    Order["customer"] = {{"name", "customer-" + std::to_string(nextRandom(State) % 997)},
                         {"country", nextRandom(State) % 2 ? "DE" : "FR"}};
    nlohmann::json Items = nlohmann::json::array();
    for (unsigned J = 0, K = 1 + nextRandom(State) % 5; J < K; ++J)
      Items.push_back({{"sku", nextRandom(State) % 10000},
                       {"price", (nextRandom(State) % 10000) / 100.0},
                       {"quantity", 1 + nextRandom(State) % 4}});
    Order["items"] = std::move(Items);
    if (nextRandom(State) % 3 == 0)
      Order["tags"] = {Tags[nextRandom(State) % 6], Tags[nextRandom(State) % 6]};
    Orders.push_back(std::move(Order));
  }
  return Orders;
}
