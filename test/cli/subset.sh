#!/usr/bin/env bash
# subset end to end on the bundled workload: corpus + trace → the modules that matter.
source "$(dirname "$0")/lib.sh"

app=$("$SRC/examples/build-workload.sh" "$work/w") || { echo "FAILED: build"; exit 1; }
"$MLGO_RA" extract-corpus "$work/w/compile_commands.json" -o "$work/corpus" >/dev/null 2>&1 ||
  { echo "FAILED: extract-corpus"; exit 1; }
"$MLGO_RA" trace record --binary "$app" -o "$work/w.bbtrace" -- "$app" 0.02 >/dev/null 2>&1 ||
  { echo "FAILED: trace record"; exit 1; }

run "$MLGO_RA" subset --corpus "$work/corpus" --trace "$work/w.bbtrace" -o "$work/subset"
check "subset succeeds" [ "$code" = 0 ]
check "all six modules hold traced kernels, minimally" \
  grep -q "^subset: 6 of 6 modules define 9 of the 9 traced functions (minimal)" <<<"$out"
check "covering every traced instruction of the binary's functions" grep -q "coverage 100.00%" <<<"$out"
check "the subset is a corpus" [ -f "$work/subset/corpus_description.json" ]
check "with the functions to compile" grep -q '"wl_hash_kernel"' "$work/subset/subset_functions.json"

run "$MLGO_RA" subset --corpus "$work/corpus" --trace "$work/w.bbtrace" -o "$work/s2" --json
check "--json prints the result" grep -q '"method": "exact"' <<<"$out"

run "$MLGO_RA" subset --corpus "$work/nothing" --trace "$work/w.bbtrace" -o "$work/s3"
check "a missing corpus is bad input (2)" [ "$code" = 2 ]
check "named in the error" grep -q "^mlgo-ra: error: $work/nothing" <<<"$err"
check "and nothing is written" [ ! -e "$work/s3/corpus_description.json" ]
finish
