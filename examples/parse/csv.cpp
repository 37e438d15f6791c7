// CSV: a field scanner with quotes, and integer and decimal conversion by hand.
#include "parse.h"

namespace {
unsigned nextRandom(unsigned &State) {
  State ^= State << 13;
  State ^= State >> 17;
  State ^= State << 5;
  return State;
}

// Parses an optionally signed decimal number with an optional fraction and exponent.
double toDouble(std::string_view S) {
  size_t I = 0;
  bool Negative = I < S.size() && S[I] == '-';
  I += Negative || (I < S.size() && S[I] == '+');
  double Value = 0, Scale = 1;
  for (; I < S.size() && S[I] >= '0' && S[I] <= '9'; ++I)
    Value = Value * 10 + (S[I] - '0');
  if (I < S.size() && S[I] == '.')
    for (++I; I < S.size() && S[I] >= '0' && S[I] <= '9'; ++I)
      Value += (S[I] - '0') * (Scale *= 0.1);
  if (I + 1 < S.size() && (S[I] == 'e' || S[I] == 'E')) {
    bool NegExp = S[++I] == '-';
    I += S[I] == '-' || S[I] == '+';
    int Exp = 0;
    for (; I < S.size() && S[I] >= '0' && S[I] <= '9'; ++I)
      Exp = Exp * 10 + (S[I] - '0');
    for (; Exp > 0; --Exp)
      Value = NegExp ? Value / 10 : Value * 10;
  }
  return Negative ? -Value : Value;
}

int64_t toInt(std::string_view S) {
  int64_t Value = 0;
  bool Negative = !S.empty() && S[0] == '-';
  for (size_t I = Negative; I < S.size(); ++I)
    Value = Value * 10 + (S[I] - '0');
  return Negative ? -Value : Value;
}
} // namespace

std::string makeCsv(int Records, unsigned Seed) {
  unsigned State = Seed | 1;
  std::string Out = "id,name,quantity,price,ratio\n";
  for (int R = 0; R < Records; ++R) {
    Out += std::to_string(R * 7 + nextRandom(State) % 7) + ',';
    if (nextRandom(State) % 4 == 0)
      Out += "\"item, \"\"special\"\" " + std::to_string(nextRandom(State) % 1000) + "\",";
    else
      Out += "item-" + std::to_string(nextRandom(State) % 100000) + ',';
    Out += std::to_string(int(nextRandom(State) % 2000) - 1000) + ',';
    Out += std::to_string(nextRandom(State) % 100000 / 100) + '.' +
           std::to_string(10 + nextRandom(State) % 90) + ',';
    Out += std::to_string(nextRandom(State) % 1000) + "e-" +
           std::to_string(nextRandom(State) % 4) + '\n';
  }
  return Out;
}

CsvTotals parseCsv(std::string_view Text) {
  CsvTotals T;
  size_t Pos = Text.find('\n') + 1; // skip the header
  std::string Quoted;
  while (Pos < Text.size()) {
    std::string_view Fields[5];
    for (int F = 0; F < 5; ++F) {
      if (Text[Pos] == '"') { // a quoted field: "" is a quote
        Quoted.clear();
        for (++Pos; !(Text[Pos] == '"' && Text[Pos + 1] != '"'); ++Pos) {
          Quoted += Text[Pos];
          Pos += Text[Pos] == '"';
        }
        Fields[F] = Quoted;
        Pos += 2;
        continue;
      }
      size_t End = Pos;
      while (End < Text.size() && Text[End] != ',' && Text[End] != '\n')
        ++End;
      Fields[F] = Text.substr(Pos, End - Pos);
      Pos = End + 1;
    }
    ++T.Records;
    T.IdSum += toInt(Fields[0]);
    for (char C : Fields[1])
      T.NameHash = (T.NameHash ^ (unsigned char)C) * 1099511628211ULL;
    T.Quantity += toInt(Fields[2]);
    T.Price += toDouble(Fields[3]);
    double Ratio = toDouble(Fields[4]);
    T.MaxRatio = Ratio > T.MaxRatio ? Ratio : T.MaxRatio;
  }
  return T;
}
