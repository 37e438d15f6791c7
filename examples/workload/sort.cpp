// Sorting records by a composite key with std::sort and a hand-written merge sort.
#include "workload.h"
#include <algorithm>
#include <cstring>
#include <vector>

namespace {

struct Record {
  uint32_t Group;
  uint32_t Priority;
  uint64_t Id;
  double Weight;
};

bool lessByKey(const Record &A, const Record &B) {
  if (A.Group != B.Group)
    return A.Group < B.Group;
  if (A.Priority != B.Priority)
    return A.Priority > B.Priority;
  if (A.Weight != B.Weight)
    return A.Weight < B.Weight;
  return A.Id < B.Id;
}

void mergeSort(std::vector<Record> &V, std::vector<Record> &Tmp, size_t Lo, size_t Hi) {
  if (Hi - Lo < 24) {
    for (size_t I = Lo + 1; I < Hi; ++I) {
      Record R = V[I];
      size_t J = I;
      while (J > Lo && lessByKey(R, V[J - 1])) {
        V[J] = V[J - 1];
        --J;
      }
      V[J] = R;
    }
    return;
  }
  size_t Mid = Lo + (Hi - Lo) / 2;
  mergeSort(V, Tmp, Lo, Mid);
  mergeSort(V, Tmp, Mid, Hi);
  size_t I = Lo, J = Mid, K = Lo;
  while (I < Mid && J < Hi)
    Tmp[K++] = lessByKey(V[J], V[I]) ? V[J++] : V[I++];
  while (I < Mid)
    Tmp[K++] = V[I++];
  while (J < Hi)
    Tmp[K++] = V[J++];
  std::copy(Tmp.begin() + Lo, Tmp.begin() + Hi, V.begin() + Lo);
}

uint64_t checksum(const std::vector<Record> &V) {
  uint64_t Check = 0;
  for (const Record &R : V)
    Check = Check * 1315423911u + R.Id + R.Group;
  return Check;
}

} // namespace

extern "C" uint64_t wl_sort_kernel(size_t num_records, uint64_t seed) {
  std::vector<Record> Records(num_records);
  uint64_t State = seed | 1;
  for (size_t I = 0; I < num_records; ++I) {
    uint64_t R = wl_next_random(&State);
    Records[I] = {static_cast<uint32_t>(R % 64), static_cast<uint32_t>((R >> 8) % 8), I,
                  static_cast<double>((R >> 16) % 10000) / 7.0};
  }
  std::vector<Record> Copy = Records, Tmp(num_records);
  std::sort(Records.begin(), Records.end(), lessByKey);
  mergeSort(Copy, Tmp, 0, Copy.size());
  uint64_t A = checksum(Records), B = checksum(Copy);
  return A == B ? A : 0;
}
