# The examples' self-timing (EXAMPLE_ITERATIONS, examples/iterations.h) on the drivers
# whose state an iteration must start anew: interp (its memory), crypto (data encrypted
# in place), dsp (the biquads' state). Timed or not, each prints the same; timed, it
# prints the best iteration's seconds on stderr; traced, it prints what it prints alone.
# No timing is checked, only that there is one.
source "$(dirname "$0")/lib.sh"

for example in interp crypto dsp; do
  binary=$(EXAMPLE=$example "$SRC/examples/build-workload.sh" "$work/$example" 2>&1) ||
    { echo "FAILED: build $example: $binary"; exit 1; }
  run "$binary" 0.05 3
  plain=$out
  check "$example prints its result" [ "$code" = 0 -a -n "$plain" ]
  check "$example, untimed, prints nothing on stderr" [ -z "$err" ]
  EXAMPLE_ITERATIONS=4 run "$binary" 0.05 3
  check "$example, 4 iterations, prints what one run prints" [ "$out" = "$plain" ]
  check "  and the best iteration's seconds on stderr" \
    grep -qE '^best of 4 iterations: [0-9]+\.[0-9]{6} s$' <<<"$err"
  EXAMPLE_ITERATIONS=1 run "$binary" 0.05 3
  check "$example, 1 iteration, prints its seconds too" \
    grep -qE '^best of 1 iterations: [0-9]+\.[0-9]{6} s$' <<<"$err"
  "$MLGO_RA" trace record --binary "$binary" -o "$work/$example.bbtrace" -- "$binary" 0.05 3 \
    >"$work/traced" 2>/dev/null
  check "$example, traced, prints what it prints alone" [ "$(cat "$work/traced")" = "$plain" ]
done

EXAMPLE_ITERATIONS=0 run "$binary" 0.05
check "EXAMPLE_ITERATIONS must be a count" \
  grep -q "^EXAMPLE_ITERATIONS must be a count >= 1, not '0'$" <<<"$err"
check "  exit code 2" [ "$code" = 2 ]
EXAMPLE_ITERATIONS=3x run "$binary" 0.05
check "  and nothing else" [ "$code" = 2 ]
finish
