// The JSON example's two halves: building documents and querying parsed ones.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

// An order book of N orders with nested customers, items and tags; deterministic.
nlohmann::json makeOrders(int N, unsigned Seed);
// Totals computed from a parsed document: what a service does with a request.
struct OrderTotals {
  double Revenue = 0;
  long Items = 0;
  long Tagged = 0;
};
OrderTotals summarize(const nlohmann::json &Orders);
