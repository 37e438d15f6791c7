// Arithmetic expressions: a generator, a tokenizer and a precedence-climbing evaluator.
#include "parse.h"

namespace {
unsigned nextRandom(unsigned &State) {
  State ^= State << 13;
  State ^= State >> 17;
  State ^= State << 5;
  return State;
}

void makeExpression(std::string &Out, unsigned &State, int Depth) {
  if (Depth == 0 || nextRandom(State) % 4 == 0) {
    if (nextRandom(State) % 8 == 0)
      Out += '-';
    Out += std::to_string(nextRandom(State) % 100000);
    return;
  }
  bool Paren = nextRandom(State) % 3 == 0;
  if (Paren)
    Out += '(';
  makeExpression(Out, State, Depth - 1);
  Out += " +-*/%"[1 + nextRandom(State) % 5];
  makeExpression(Out, State, Depth - 1);
  if (Paren)
    Out += ')';
}

class Evaluator {
public:
  explicit Evaluator(std::string_view Line) : S(Line) {}

  int64_t expression(int MinPrecedence) {
    int64_t Left = unary();
    for (;;) {
      skipSpace();
      if (P >= S.size())
        return Left;
      char Op = S[P];
      int Precedence = Op == '+' || Op == '-' ? 1 : Op == '*' || Op == '/' || Op == '%' ? 2 : 0;
      if (Precedence == 0 || Precedence < MinPrecedence)
        return Left;
      ++P;
      int64_t Right = expression(Precedence + 1);
      switch (Op) {
      case '+': Left = int64_t(uint64_t(Left) + uint64_t(Right)); break;
      case '-': Left = int64_t(uint64_t(Left) - uint64_t(Right)); break;
      case '*': Left = int64_t(uint64_t(Left) * uint64_t(Right)); break;
      case '/': Left = Right == 0 || (Right == -1 && Left == INT64_MIN) ? 0 : Left / Right; break;
      default: Left = Right == 0 || Right == -1 ? 0 : Left % Right; break;
      }
    }
  }

private:
  void skipSpace() {
    while (P < S.size() && S[P] == ' ')
      ++P;
  }

  int64_t unary() {
    skipSpace();
    if (S[P] == '-') {
      ++P;
      return int64_t(0 - uint64_t(unary()));
    }
    if (S[P] == '(') {
      ++P;
      int64_t Value = expression(1);
      skipSpace();
      ++P; // ')'
      return Value;
    }
    int64_t Value = 0;
    while (P < S.size() && S[P] >= '0' && S[P] <= '9')
      Value = Value * 10 + (S[P++] - '0');
    return Value;
  }

  std::string_view S;
  size_t P = 0;
};
} // namespace

std::string makeExpressions(int Lines, unsigned Seed) {
  unsigned State = Seed | 1;
  std::string Out;
  for (int L = 0; L < Lines; ++L) {
    makeExpression(Out, State, 6);
    Out += '\n';
  }
  return Out;
}

uint64_t evaluateLines(std::string_view Text) {
  uint64_t Check = 0;
  for (size_t Pos = 0; Pos < Text.size();) {
    size_t End = Text.find('\n', Pos);
    Check = Check * 31 + uint64_t(Evaluator(Text.substr(Pos, End - Pos)).expression(1));
    Pos = End + 1;
  }
  return Check;
}
