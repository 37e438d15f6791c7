#!/usr/bin/env bash
# Fast replay's error bound (issue 6): over 26 variants of both examples (-stress-regalloc
# levels on single sources, the policies initial and poor, two perturbations of initial
# of training's size), the predicted speedup of fast replay stays within 0.05 points of
# --exact's, and pairs are ranked alike, with either engine; small traces keep it short. bench/replay runs the same check on larger ones.
source "$(dirname "$0")/lib.sh"

MLGO_RA=$MLGO_RA "$SRC/examples/build-variants.sh" "$work/v" 0.02 0.002 >"$work/build.log" 2>&1 ||
  { cat "$work/build.log"; echo "FAILED: build-variants"; exit 1; }
check "26 variants were built" [ "$(wc -l <"$work/v/variants.tsv")" = 26 ]

# Fast replay works alike with both engines (the flow engine's spans warm up on 4096
# instructions, as MCA's with --stack-engine).
for engine in mca flow; do
  run env MLGO_RA="$MLGO_RA" "$SRC/bench/replay-accuracy" "$work/v" -j 2 --both "--engine $engine --mcpu skylake"
  echo "$out"
  check "with $engine, fast replay is within 0.05 points of --exact and ranks pairs alike" [ "$code" = 0 ]
  check "it says so" grep -q "^largest speedup error 0\.0[0-4][0-9] points (bound 0.05); rank agreement \([0-9]*\)/\1 pairs" <<<"$out"
done
finish
