#!/usr/bin/env bash
# train end to end on a tiny program: steps logged, checkpoint and policies written,
# a run killed with SIGKILL and resumed logs the same rewards as an uninterrupted one,
# a compiler failure drops its pair, --report draws the curve, bad settings fail, the
# search's shaping is recorded and must match on resume (older checkpoints: z-scores),
# the shortlist holds the best distinct policies evaluated, each replaying to its speedup,
# and a time budget ends a run between steps.
source "$(dirname "$0")/lib.sh"

source "$(dirname "$0")/tiny_program.sh"
build_tiny_program || { echo "FAILED: program, corpus, trace and subset"; exit 1; }

train() { # train DIR [OPTIONS...]: 3 steps of 2 directions, seed 7
  local dir=$1
  shift
  "$MLGO_RA" train --corpus "$work/subset" --trace "$work/app.bbtrace" --baseline "$work/app" \
    -o "$dir" --iterations 3 --perturbations 2 --sigma 0.5 --seed 7 -j 2 "$@"
}
training_pid() { # training_pid DIR: the mlgo-ra training into DIR
  pgrep -f "mlgo-ra train .* -o $1 " || true
}
validated() { # the traces of a log's last validation record, its time left out
  grep '^{"validation"' "$1" | tail -1 | sed 's/.*"traces"://; s/,"seconds":[^}]*}}$//'
}
# The kill-and-resume pair shapes by ranks and keeps the top pair, not the defaults, and
# keeps a shortlist.
search=(--fitness rank --top-directions 1 --shortlist 3)
rewards() { # the reward fields of each step of a log, timings left out
  grep -o '"step":[0-9]*,"unperturbed_speedup":[^,]*,"reward_mean":[^,]*,"reward_min":[^,]*,"reward_max":[^,]*' "$1"
}

run train "$work/a" "${search[@]}"
check "a run of 3 steps succeeds" [ "$code" = 0 ]
check "it logs one record per step, then its validation" \
  [ "$(grep -c '^{"step"' "$work/a/log.jsonl")" = 3 -a \
    "$(tail -1 "$work/a/log.jsonl" | grep -c '^{"validation"')" = 1 ]
check "with the unperturbed policy's predicted speedup" \
  grep -q '"step":2,"unperturbed_speedup":-\?[0-9]' "$work/a/log.jsonl"
check "on the whole trace, too short for a shard" grep -q '"sample": *"none"' "$work/a/checkpoint.json"
native=$("$MLGO_RA" train --mcpu help | sed -n '1s/.*native, the default: \([^)]*\)):$/\1/p')
check "for the host's CPU ($native), not the word native" \
  grep -q "\"cpu\": *\"$native\"" "$work/a/checkpoint.json"
check "its checkpoint records the shaping" \
  grep -q '"fitness": *"rank"' "$work/a/checkpoint.json"
check "and the pairs kept" grep -q '"top_directions": *1' "$work/a/checkpoint.json"
check "it writes the checkpoint and both policies" \
  [ -s "$work/a/checkpoint.json" -a -s "$work/a/policy.json" -a -s "$work/a/best.json" ]
# best.json is the best policy evaluated, a perturbation too: the highest predicted
# speedup of any step, and (the tiny trace is replayed whole) its validation on the
# training trace is exactly that speedup.
highest=$(grep '^{"step"' "$work/a/log.jsonl" |
  grep -o '"\(unperturbed_speedup\|reward_max\)":[^,]*' | cut -d: -f2 | sort -g | tail -1)
check "here a perturbation's, above every unperturbed policy's" \
  [ "$(grep -c "\"unperturbed_speedup\":$highest," "$work/a/log.jsonl")" = 0 ]
check "the best speedup logged is the highest evaluated" \
  grep -q "^{\"step\":2,.*\"best_speedup\":$highest," "$work/a/log.jsonl"
check "and best.json validates to exactly it" \
  grep -q "^{\"validation\".*\"held_out\":false,[^}]*\"best_speedup\":$highest," \
    "$work/a/log.jsonl"
# The shortlist: the best distinct speedups evaluated, best first, the first best.json's.
listed=$(sed -n 's/^ *"speedup": *\([^,]*\),\?$/\1/p' "$work/a/shortlist.json")
check "the shortlist holds 3 policies" [ "$(wc -l <<<"$listed")" = 3 ]
check "in order of decreasing speedup, each once" [ "$(sort -gru <<<"$listed")" = "$listed" ]
check "the first the highest evaluated" [ "$(head -1 <<<"$listed")" = "$highest" ]
check "with best.json's parameters" \
  [ "$(grep -A3 '"parameters"' "$work/a/shortlist/1.json")" = \
    "$(grep -A3 '"parameters"' "$work/a/best.json")" ]
second=$(sed -n 2p <<<"$listed")
run "$MLGO_RA" replay --corpus "$work/subset" --trace "$work/app.bbtrace" --baseline default \
  --candidate "$work/a/shortlist/2.json" --exact --json
check "the second replays to exactly its speedup ($second)" \
  grep -q "\"speedup\": *$second,\?\$" <<<"$out"
check "the trained policy compiles" \
  "$MLGO_RA" compile --corpus "$work/subset" --policy "$work/a/best.json" -o "$work/best" \
    --cache-dir "$work/cache"

# Killed with SIGKILL once its first checkpoint exists, then resumed.
train "$work/b" "${search[@]}" >/dev/null 2>&1 &
for _ in $(seq 600); do [ -e "$work/b/checkpoint.json" ] && break; sleep 0.1; done
run training_pid "$work/b"
check "the run was still going when killed" [ -n "$out" ]
kill -9 $out 2>/dev/null
wait
run train "$work/b" --resume "${search[@]}"
check "the killed run resumes" [ "$code" = 0 ]
check "and logs the same rewards as the uninterrupted run" \
  [ "$(rewards "$work/b/log.jsonl")" = "$(rewards "$work/a/log.jsonl")" ]
check "and ends with the same policy" cmp -s "$work/a/policy.json" "$work/b/policy.json"
check "and the same shortlist" cmp -s "$work/a/shortlist.json" "$work/b/shortlist.json"
check "validated as the uninterrupted run's" \
  [ -n "$(validated "$work/a/log.jsonl")" -a \
    "$(validated "$work/b/log.jsonl")" = "$(validated "$work/a/log.jsonl")" ]
check "no compiler outlived the killed run" [ -z "$(pgrep -f "$work/b/" || true)" ]

# A compiler that fails once, on the first perturbed evaluation (evaluations run in
# order with -j 1: the unperturbed policy compiles each subset module first).
modules=$(grep -c '"name"' "$work/subset/subset_functions.json")
cat >"$work/flaky-clang" <<SH
#!/bin/sh
case "\$*" in *regalloc-enable-advisor*)
  n=\$(( \$(cat "$work/advisor-calls" 2>/dev/null || echo 0) + 1 ))
  echo \$n >"$work/advisor-calls"
  [ \$n = $((modules + 1)) ] && { echo "injected failure" >&2; exit 1; } ;;
esac
exec "$CLANG" "\$@"
SH
chmod +x "$work/flaky-clang"
run train "$work/c" --iterations 1 -j 1 --clang "$work/flaky-clang"
check "a run with a failing compile succeeds" [ "$code" = 0 ]
check "counting one failure" grep -q '"failures":1,' "$work/c/log.jsonl"
check "naming it" grep -q '"first_failure":"[^"]*injected failure' "$work/c/log.jsonl"
check "and still stepping (half the evaluations succeeded)" \
  grep -q '"skipped":false' "$work/c/log.jsonl"

# One run per directory at a time.
train "$work/e" >/dev/null 2>&1 &
for _ in $(seq 600); do [ -e "$work/e/lock" ] && break; sleep 0.1; done
run train "$work/e" --resume
check "a second run into a directory in use fails (2)" [ "$code" = 2 ]
check "saying so" grep -q "^mlgo-ra: error: $work/e: is in use by another training run" <<<"$err"
kill -9 "$(training_pid "$work/e")" 2>/dev/null
wait

run "$MLGO_RA" train --report "$work/a"
check "--report succeeds" [ "$code" = 0 ]
check "and draws the reward curve" grep -q "<polyline" "$work/a/reward.svg"
third=$(sed -n 3p <<<"$listed")
third_step=$(grep -A2 '"shortlist/3.json"' "$work/a/shortlist.json" | sed -n 's/ *"step": *\([0-9]*\)$/\1/p')
third_pct=$(python3 -c 'import sys; print("%+.3f%%" % (100 * float(sys.argv[1])))' "$third")
check "and lists the shortlist in report.md (the third: step $third_step, $third_pct)" \
  grep -qxF "| shortlist/3.json | $third_step | $third_pct |" "$work/a/report.md"

run train "$work/a"
check "training into a run's directory without --resume fails (2)" [ "$code" = 2 ]
check "saying what to do" grep -q "already holds a training run; continue it with --resume" <<<"$err"
run train "$work/a" --resume --seed 8
check "resuming with another seed fails (2)" [ "$code" = 2 ]
check "naming the setting" grep -q "checkpoint.json: was written with seed 7, not 8" <<<"$err"
run train "$work/a" --resume --fitness zscore --top-directions 1
check "resuming with other fitness shaping fails (2)" [ "$code" = 2 ]
check "naming it" grep -q 'checkpoint.json: was written with fitness "rank", not "zscore"' <<<"$err"
run train "$work/a" --resume --fitness rank --top-directions 0
check "resuming with every pair instead of the top one fails (2)" [ "$code" = 2 ]
check "naming the pairs kept" \
  grep -q "checkpoint.json: was written with top_directions 1, not 2" <<<"$err"
run train "$work/a" --resume --fitness rank --top-directions 1 --shortlist 2
check "resuming with another shortlist fails (2)" [ "$code" = 2 ]
check "naming its size" grep -q "checkpoint.json: was written with shortlist 3, not 2" <<<"$err"
run train "$work/a" --resume --fitness rank --top-directions 1
check "resuming without the shortlist fails (2)" [ "$code" = 2 ]
check "saying so" grep -q "checkpoint.json: was written with shortlist 3, not none" <<<"$err"
run train "$work/t" --top-directions 3
check "more top directions than directions is bad input (2)" [ "$code" = 2 ]
check "saying so" grep -qx \
  "mlgo-ra: error: --top-directions: 3 is more than --perturbations (2)" <<<"$err"
run train "$work/t" --fitness ranks
check "an unknown fitness shaping is bad usage (2)" [ "$code" = 2 ]
check "listing the choices" grep -q "'ranks' is not a fitness shaping (zscore, rank)" <<<"$err"
# A checkpoint from before --fitness and --top-directions: z-scores over every pair.
cp -r "$work/a" "$work/old"
rm -f "$work/old/lock"
python3 - "$work/old/checkpoint.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
for key in ("fitness", "top_directions", "shortlist"):
    c["settings"].pop(key)
del c["shortlist"]
json.dump(c, open(sys.argv[1], "w"), indent=2)
PY
run train "$work/old" --resume --iterations 4 --fitness rank --top-directions 1
check "an older checkpoint does not resume with ranks (2)" [ "$code" = 2 ]
check "saying it was z-scored" \
  grep -q 'checkpoint.json: was written with fitness "zscore", not "rank"' <<<"$err"
run train "$work/old" --resume --iterations 4 --fitness zscore --top-directions 2
check "it resumes with z-scores and every pair" [ "$code" = 0 ]
check "for one more step" [ "$(grep -c '^{"step"' "$work/old/log.jsonl")" = 4 ]
run train "$work/d" --init default
check "training LLVM's own heuristic fails (2)" [ "$code" = 2 ]
if [ "$native" != skylake ]; then
  run train "$work/a" --resume --mcpu skylake
  check "resuming for another CPU fails (2)" [ "$code" = 2 ]
  check "naming both" \
    grep -q "checkpoint.json: was written with cpu \"$native\", not \"skylake\"" <<<"$err"
fi
run train "$work/m" --mcpu pentium-of-the-future
check "an unknown CPU is bad input (2)" [ "$code" = 2 ]
check "in one line saying how to list them" grep -qx \
  "mlgo-ra: error: --mcpu: 'pentium-of-the-future' is not a CPU that LLVM knows for .* ('--mcpu help' lists them)" <<<"$err"

# A time budget: no step starts once it is spent (here at once), but one always runs;
# without --iterations nothing else ends the run.
run "$MLGO_RA" train --corpus "$work/subset" --trace "$work/app.bbtrace" --baseline "$work/app" \
  -o "$work/budget" --perturbations 1 --sigma 0.5 --seed 7 -j 2 --time-budget 0.001
check "a run with a spent time budget succeeds" [ "$code" = 0 ]
check "after one step" [ "$(grep -c '^{"step"' "$work/budget/log.jsonl")" = 1 ]
check "then validates" grep -q '^{"validation"' "$work/budget/log.jsonl"
check "its step line names no last step" grep -q '^train: step 1: unperturbed' <<<"$out"
check "its summary says the budget ended it" \
  grep -q '^train: 1 steps in .* (the time budget is spent);' <<<"$out"
run train "$work/budget-left" --time-budget 3600
check "a budget not spent leaves the run to --iterations" \
  [ "$code" = 0 -a "$(grep -c '^{"step"' "$work/budget-left/log.jsonl")" = 3 ]
check "whose summary does not name the budget" \
  grep -q '^train: 3 steps in [^ ]*; predicted' <<<"$out"
run train "$work/t" --time-budget 0
check "a budget of 0 is bad usage (2)" [ "$code" = 2 ]

# Trace shards: every evaluation replays the same windows of the trace.
run train "$work/s" --iterations 1 --sample 64/1024
check "a run on a trace shard succeeds" [ "$code" = 0 ]
check "its checkpoint names the shard" grep -q '"sample": *"64/1024"' "$work/s/checkpoint.json"
run train "$work/s" --resume --iterations 2
check "resuming it without the shard fails (2)" [ "$code" = 2 ]
# On a trace of at least 64 windows of 16384 events (600 rounds: about 1.1 M events),
# with MCA every evaluation replays the 1024/16384 shard unless told otherwise; the flow
# engine (the default) replays the whole trace.
mkdir "$work/long"
(work=$work/long && build_tiny_program 600) || { echo "FAILED: the long program"; exit 1; }
long() { # long DIR OPTIONS...: one step on the long trace
  local dir=$1
  shift
  "$MLGO_RA" train --corpus "$work/long/subset" --trace "$work/long/app.bbtrace" \
    --baseline "$work/long/app" -o "$dir" --iterations 1 --perturbations 1 --sigma 0.5 \
    --seed 7 -j 2 "$@"
}
run long "$work/l" --engine mca
check "training on a long trace succeeds" [ "$code" = 0 ]
check "on the 1024/16384 shard by default with MCA" grep -q '"sample": *"1024/16384"' "$work/l/checkpoint.json"
run long "$work/lf"
check "and with the flow engine" [ "$code" = 0 ]
check "on the whole trace" grep -q '"sample": *"none"' "$work/lf/checkpoint.json"
check "its checkpoint names the engine" grep -q '"engine": *"flow"' "$work/lf/checkpoint.json"
run train "$work/f" --sample 1024/64
check "a window longer than its period is refused (2)" [ "$code" = 2 ]
check "naming the option" grep -q "^mlgo-ra: error: --sample: '1024/64' is not LENGTH/EVERY" <<<"$err"
finish
