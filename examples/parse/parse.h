// The parse example's kernels: text in, summaries out.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

// Per-column summary of CSV records "id,name,quantity,price,ratio" (a quoted name may
// hold commas and doubled quotes).
struct CsvTotals {
  long Records = 0;
  int64_t IdSum = 0, Quantity = 0;
  double Price = 0, MaxRatio = 0;
  uint64_t NameHash = 0;
};
std::string makeCsv(int Records, unsigned Seed);
CsvTotals parseCsv(std::string_view Text);

// Expressions over 64-bit integers with + - * / % ( ) and unary minus, one per line;
// returns a combination of their values (division by zero gives 0).
std::string makeExpressions(int Lines, unsigned Seed);
uint64_t evaluateLines(std::string_view Text);
