#!/usr/bin/env bash
# train's validation: the best policy replayed exactly on the whole trace and on a
# held-out trace (the same binary run on another input) gives the cycles `replay`
# predicts for the same policies; --validate on a run's directory validates without
# training; a resumed run validates at its end; --report draws the points and writes
# report.md; bad --validate-trace input fails in one line.
source "$(dirname "$0")/lib.sh"

source "$(dirname "$0")/tiny_program.sh"
build_tiny_program || { echo "FAILED: program, corpus, trace and subset"; exit 1; }
# The held-out input: 100 elements instead of 256.
"$MLGO_RA" trace record --binary "$work/app" -o "$work/other.bbtrace" -- "$work/app" 100 \
  >/dev/null 2>&1 || { echo "FAILED: the held-out trace"; exit 1; }

train() { # train DIR [OPTIONS...]: 3 steps of 2 directions, seed 11 (its best changes code)
  local dir=$1
  shift
  "$MLGO_RA" train --corpus "$work/subset" --trace "$work/app.bbtrace" --baseline "$work/app" \
    -o "$dir" --iterations 3 --perturbations 2 --sigma 0.5 --step-size 0.2 --seed 11 -j 2 \
    --mcpu skylake --cache-dir "$work/cache" "$@"
}
validation() { # validation LOG: its last validation record, the time left out
  grep '^{"validation"' "$1" | tail -1 | sed 's/,"seconds":[^}]*}/}/'
}
field() { # field NAME N: the number NAME of the Nth trace (1: the whole trace) in $record
  sed 's/{"trace":/\n/g' <<<"$record" | sed -n "$(($2 + 1))p" | sed 's/"functions":.*//' |
    grep -o "\"$1\":-\?[0-9.e+-]*" | sed 's/.*://'
}
replayed() { # replayed TRACE BASELINE CANDIDATE: "baseline-cycles candidate-cycles"
  "$MLGO_RA" replay --corpus "$work/subset" --trace "$1" --baseline "$2" --candidate "$3" \
    --mcpu skylake --cache-dir "$work/cache" --json |
    sed -n 's/^    "cycles": \([0-9]*\),$/\1/p' | tr '\n' ' ' | sed 's/ $//'
}

run train "$work/a" --validate-trace "$work/other.bbtrace"
check "a run with a held-out trace succeeds" [ "$code" = 0 ]
check "its summary gives the whole trace's validation" \
  grep -q "^  $work/app.bbtrace (the training trace): best +[0-9.]*%, start (initial) +0.000%; [1-9][0-9]* functions changed" <<<"$out"
check "and the held-out trace's" \
  grep -q "^  $work/other.bbtrace (held out): best +[0-9.]*%, start (initial)" <<<"$out"
record=$(validation "$work/a/log.jsonl")
check "the log ends with the validation record" \
  grep -q '^{"validation":{"policy":"[^"]*/a/best.json","start":"initial","steps":3,' <(tail -1 "$work/a/log.jsonl")
check "of the whole trace, then the held-out one" \
  grep -q '"held_out":false,.*"held_out":true,' <<<"$record"
check "the summary counts the record's changed functions" \
  grep -q "(the training trace): best .*; $(field changed_functions 1) functions changed" <<<"$out"
# The same replays as replay --corpus: exact, whole traces, the same cycles.
check "the whole trace's default and best cycles are replay's" \
  [ "$(field default_cycles 1) $(field best_cycles 1)" = \
    "$(replayed "$work/app.bbtrace" default "$work/a/best.json")" ]
check "and its start cycles" \
  [ "$(field default_cycles 1) $(field start_cycles 1)" = \
    "$(replayed "$work/app.bbtrace" default initial)" ]
check "the held-out trace's too" \
  [ "$(field default_cycles 2) $(field best_cycles 2)" = \
    "$(replayed "$work/other.bbtrace" default "$work/a/best.json")" ]
check "which differ from the whole trace's" [ "$(field default_cycles 1)" != "$(field default_cycles 2)" ]
speedup=$(awk -v d="$(field default_cycles 1)" -v b="$(field best_cycles 1)" 'BEGIN { printf "%+.3f", 100 * (d / b - 1) }')
check "the best policy's speedup is replay's ($speedup%)" \
  grep -q "predicted speedup ${speedup}% " <<<"$("$MLGO_RA" replay --corpus "$work/subset" \
    --trace "$work/app.bbtrace" --baseline default --candidate "$work/a/best.json" \
    --mcpu skylake --cache-dir "$work/cache")"
# (The flow engine's skylake model: the best policy speeds up mix, and changes g by a
# few cycles.)
check "the functions it changes, largest change first" \
  grep -q '"functions":\[{"function":"mix","default_cycles":[0-9]*,"best_cycles":[0-9]*,"delta":-[0-9]*},{"function":"g","default_cycles":[0-9]*,"best_cycles":[0-9]*,"delta":-\{0,1\}[0-9]*}' <<<"$record"

# --validate: the run's files are left as they are, one record is added.
mkdir "$work/before" && cp "$work/a"/*.json "$work/a/log.jsonl" "$work/before/"
run train "$work/a" --validate --validate-trace "$work/other.bbtrace" --json
check "--validate on a run's directory succeeds" [ "$code" = 0 ]
check "without training" [ -z "$err" ]
check "printing the record" grep -q '"validation": {' <<<"$out"
for f in checkpoint.json policy.json best.json; do
  check "leaving $f as it was" cmp -s "$work/before/$f" "$work/a/$f"
done
check "and the log's records, adding one" \
  [ "$(head -4 "$work/a/log.jsonl")" = "$(cat "$work/before/log.jsonl")" -a \
    "$(wc -l <"$work/a/log.jsonl")" = 5 ]
check "the same as at the end of training" [ "$(validation "$work/a/log.jsonl")" = "$record" ]

# A run whose rewards come from a shard is validated on the whole trace; resumed, at its end.
run train "$work/s" --iterations 2 --sample 64/1024
check "a run on a trace shard succeeds" [ "$code" = 0 ]
check "validated on the whole trace" \
  grep -q "\"default_cycles\":$(field default_cycles 1)," <(validation "$work/s/log.jsonl")
run train "$work/s" --iterations 3 --sample 64/1024 --resume
check "resumed, it succeeds" [ "$code" = 0 ]
check "keeping the first validation, after 2 steps" \
  [ "$(grep -c '^{"validation"' "$work/s/log.jsonl")" = 2 -a \
    "$(grep -n '"steps":2,' "$work/s/log.jsonl" | cut -d: -f1)" = 3 ]
check "and validating after 3" grep -q '"steps":3,' <(tail -1 "$work/s/log.jsonl")

run "$MLGO_RA" train --report "$work/a"
check "--report succeeds" [ "$code" = 0 ]
check "naming report.md" grep -q "^train: report written to $work/a/report.md$" <<<"$out"
check "the curve has labelled axes" \
  grep -q ">training step<" "$work/a/reward.svg"
check "and the validation points, labelled" \
  [ "$(grep -c '<circle' "$work/a/reward.svg")" = 2 ]
check "the whole trace's" grep -q ">best, whole trace +[0-9.]*%<" "$work/a/reward.svg"
check "and the held-out one's" grep -q ">best, held out: other.bbtrace +[0-9.]*%<" "$work/a/reward.svg"
check "report.md lists both traces" \
  grep -q "^| other.bbtrace | held out | +[0-9.]*% | +0.000% | $(field changed_functions 2) |$" \
    "$work/a/report.md"
check "and the functions the change comes from" \
  grep -q "^| mix | [0-9]* | [0-9]* | -[0-9]* | -[0-9.]*% |$" "$work/a/report.md"

# Bad input: one line, exit 2, before any training.
run train "$work/x" --validate-trace "$work/none.bbtrace"
check "a missing held-out trace is bad input (2)" [ "$code" = 2 ]
check "in one line naming it" \
  [ "$(wc -l <<<"$err")" = 1 ] && grep -q "^mlgo-ra: error: $work/none.bbtrace: " <<<"$err"
check "before training" [ ! -e "$work/x/log.jsonl" ]
run train "$work/x" --validate-trace "$work/other.bbtrace:"
check "an empty binary is bad input (2)" [ "$code" = 2 ]
check "saying the form" \
  grep -qx "mlgo-ra: error: --validate-trace: '$work/other.bbtrace:' is not TRACE\[:BINARY\]" <<<"$err"
run train "$work/x" --validate-trace "$work/other.bbtrace:$work/subset/subset_functions.json"
check "a binary it was not recorded on is bad input (2)" [ "$code" = 2 ]
check "in one line" [ "$(wc -l <<<"$err")" = 1 ]
run train "$work/x" --validate
check "--validate without a run is bad input (2)" [ "$code" = 2 ]
check "saying so" grep -qx "mlgo-ra: error: $work/x/checkpoint.json: does not exist: no training run to validate" <<<"$err"
run train "$work/a" --validate --init default
check "--validate with another start policy is bad input (2)" [ "$code" = 2 ]
check "naming it" grep -q "checkpoint.json: was written with init \"initial\", not \"default\"" <<<"$err"
finish
