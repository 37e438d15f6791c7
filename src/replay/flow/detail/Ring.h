/// \file
/// A bounded first-in first-out queue in a ring.
#pragma once

#include "llvm/Support/MathExtras.h"
#include <cassert>
#include <cstddef>
#include <vector>

namespace mlgo {

/// A first-in first-out queue of at most Capacity items (a power of two), in a ring.
template <typename T> class Ring {
public:
  explicit Ring(size_t Capacity)
      : Items(llvm::PowerOf2Ceil(Capacity)), Mask(Items.size() - 1) {}
  bool empty() const { return Head == Tail; }
  size_t size() const { return Tail - Head; }
  const T &front() const { return Items[Head & Mask]; }
  void pop() { ++Head; }
  void push(const T &Item) {
    assert(size() < Items.size() && "a ring holds at most its capacity");
    Items[Tail++ & Mask] = Item;
  }
  /// push(Item) if \p Really, without a branch: the slot after the last is free.
  void pushIf(const T &Item, bool Really) {
    assert(size() < Items.size() && "a ring holds at most its capacity");
    Items[Tail & Mask] = Item;
    Tail += Really;
  }

private:
  std::vector<T> Items;
  size_t Mask;
  size_t Head = 0, Tail = 0;
};

} // namespace mlgo
