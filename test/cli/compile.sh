#!/usr/bin/env bash
# compile end to end: the bundled workload's corpus and subset compiled with policies.
# The default variant reproduces the traced binary (replay predicts exactly 0), the fast
# path gives the same code as whole compiles, and bad inputs fail cleanly.
source "$(dirname "$0")/lib.sh"

workload_subset 0.02
cache=$work/cache

json_number() { # json_number KEY: the first number after "KEY": in $out
  grep -o "\"$1\": -\?[0-9.e+-]*" <<<"$out" | head -1 | sed 's/.*: //'
}

run "$MLGO_RA" compile --corpus "$work/subset" --policy default -o "$work/default" \
  --cache-dir "$cache"
check "the default variant compiles" [ "$code" = 0 ]
check "on the fast path, every middle end computed" \
  grep -q "fast path: 0 of 6 middle ends cached" <<<"$out"
check "only the traced functions" grep -q "code generation of 9 traced functions" <<<"$out"
check "it wrote one object per module" [ "$(find "$work/default" -name '*.o' | wc -l)" = 6 ]

run "$MLGO_RA" replay --trace "$trace" --baseline "$base" --candidate "$work/default" --json
check "the default variant replays against the traced binary" [ "$code" = 0 ]
check "with a predicted speedup of exactly 0" [ "$(json_number speedup)" = "0.0" ]

run "$MLGO_RA" compile --corpus "$work/subset" --policy initial -o "$work/initial" \
  --cache-dir "$cache" --record-decisions --json
check "the initial policy compiles" [ "$code" = 0 ]
check "reusing every cached middle end" [ "$(grep -c '"reused": true' <<<"$out")" = 6 ]
check "answering the advisor" awk -v d="$(json_number decisions)" 'BEGIN { exit !(d > 0) }'
check "recording its decisions beside the objects" \
  [ -s "$work/initial/CMakeFiles/workload.dir/sort.cpp.o.decisions.jsonl" ]

run "$MLGO_RA" compile --corpus "$work/subset" --policy initial -o "$work/initial-whole" --full
check "a whole compile of the same policy succeeds" [ "$code" = 0 ]
check "and says so" grep -q "whole compiles" <<<"$out"
run "$MLGO_RA" replay --trace "$trace" --baseline "$work/initial-whole" \
  --candidate "$work/initial" --json
check "the fast path predicts the same cycles as whole compiles" \
  [ "$(json_number speedup)" = "0.0" ]

run "$MLGO_RA" replay --trace "$trace" --baseline "$work/default" --candidate "$work/initial" --json
expected=$(json_number speedup)
run "$MLGO_RA" replay --trace "$trace" --corpus "$work/subset" --cache-dir "$cache" \
  --baseline default --candidate initial --json
check "replay compiles policies named with --corpus" [ "$code" = 0 ]
check "to the same prediction as their compiled variants" [ "$(json_number speedup)" = "$expected" ]
check "naming them as policies" grep -q '"code": "policy initial"' <<<"$out"
run "$MLGO_RA" replay --trace "$trace" --baseline default --candidate initial
check "a policy without --corpus fails (2)" [ "$code" = 2 ]
check "saying what is missing" \
  [ "$err" = "mlgo-ra: error: default: names a policy: give --corpus to compile it" ]

run "$MLGO_RA" compile --corpus "$work/subset" --policy nosuch -o "$work/x" --cache-dir "$cache"
check "an unknown policy fails (2)" [ "$code" = 2 ]
check "with a one-line error" [ "$(wc -l <<<"$err")" = 1 ]
check "and no output" [ ! -e "$work/x" ]
run "$MLGO_RA" compile --corpus "$work/nothing" --policy default -o "$work/x"
check "a missing corpus fails (2)" [ "$code" = 2 ]
mkdir "$work/mine" && echo keep >"$work/mine/notes"
run "$MLGO_RA" compile --corpus "$work/subset" --policy default -o "$work/mine" --cache-dir "$cache"
check "a directory that is not a variant is not replaced (2)" [ "$code" = 2 ]
check "saying why" grep -q "^mlgo-ra: error: $work/mine: exists and does not hold a variant" <<<"$err"
check "and it is intact" [ "$(cat "$work/mine/notes")" = keep ]
run "$MLGO_RA" compile --corpus "$work/subset" --policy default -o "$work/y" \
  --cache-dir "$cache" --clang /bin/false
check "a failing compiler fails the compile (1)" [ "$code" = 1 ]
check "leaving no variant" [ ! -e "$work/y" ]
finish
