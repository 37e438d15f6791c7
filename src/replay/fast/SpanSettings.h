/// \file
/// Fast replay's span settings: how far around a difference from the reference it
/// simulates, and the shard (--sample) it may count differences in.
#pragma once

#include <cstdint>

namespace mlgo {

/// Fast replay's spans (src/replay/SpanPlan.h): where a variant's code differs from
/// its reference's, in instructions of the variant.
struct SpanSettings {
  /// Simulated before a span's first difference, not counted: fills the pipeline.
  /// 512 and 512 (both at least twice the 224-entry ROB of skylake) kept the errors of
  /// 22 variants within 0.034 points; 256 and 256 reached 0.049; 1024 and 1024 gave
  /// 0.030 and simulated a third more (docs/fast-replay.md).
  uint32_t WarmUp = 512;
  /// Of the same code after a span's last difference, still counted: by then the
  /// pipeline has converged to the reference's.
  uint32_t Settle = 512;
  /// Warm-up and settling for a replay with the stack engine (ReplayOptions): the
  /// pipeline then runs further ahead, and 512 erred 0.225 points on a variant of json,
  /// 4096 0.000.
  static constexpr uint32_t StackEngineSpan = 4096;
  /// Warm-up for the flow engine, whose mispredicted branches make dispatch wait for
  /// their resolution, and so for chains that began long before a span: 4096 erred
  /// 0.069 points on a variant of the workload's sort (test/cli/replay_fast.sh), 16384
  /// 0.000 (8192 still 0.069).
  static constexpr uint32_t FlowWarmUp = 16384;
  /// Sampling (a trace shard): when SampleEvery is not 0, differences count only in
  /// windows of SampleLength events, one in each period of SampleEvery events, weighted
  /// SampleEvery / SampleLength. Ordinals name the same events in every variant, so all
  /// variants are compared on the same windows.
  uint64_t SampleEvery = 0;
  uint64_t SampleLength = 0;

  bool samples() const { return SampleEvery != 0; }
  /// The weight of a counted difference.
  double sampleWeight() const { return samples() ? double(SampleEvery) / SampleLength : 1; }
  /// Whether the event of ordinal \p Event is in its period's window. Each window
  /// starts at its own place in its period, a hash of the period's number: windows at
  /// one place in every period alias with a program's loops, whose periods are often
  /// powers of two as SampleEvery is (the workload's hash kernel estimated at +0.2%
  /// where the whole trace says -5.4%, and -16% a third of a period later).
  bool inWindow(uint64_t Event) const {
    if (!samples())
      return true;
    uint64_t Period = Event / SampleEvery, At = Event % SampleEvery;
    uint64_t Start = windowHash(Period) % (SampleEvery - SampleLength + 1);
    return At >= Start && At < Start + SampleLength;
  }

private:
  /// splitmix64's finalizer: a fixed, well-mixed value per period.
  static uint64_t windowHash(uint64_t X) {
    X += 0x9E3779B97F4A7C15ull;
    X = (X ^ (X >> 30)) * 0xBF58476D1CE4E5B9ull;
    X = (X ^ (X >> 27)) * 0x94D049BB133111EBull;
    return X ^ (X >> 31);
  }
};

} // namespace mlgo
