#!/usr/bin/env bash
# train on several programs (jobs): the tiny program and the bundled workload. The
# unperturbed policy's reward is the mean of its per-job speedups, each the speedup
# replay --corpus predicts for that job; a resumed run must have the same jobs; names
# must differ; a failing job fails the evaluation as a whole; a single --job is the
# classic run; a job file gives the --job run; --report lists each job's validation.
source "$(dirname "$0")/lib.sh"

source "$(dirname "$0")/tiny_program.sh"
build_tiny_program || { echo "FAILED: program, corpus, trace and subset"; exit 1; }
# The second program: the bundled workload at a short scale, its corpus and subset.
"$SRC/examples/build-workload.sh" "$work/wl" >/dev/null &&
  "$MLGO_RA" trace record --binary "$work/wl/workload" -o "$work/w.bbtrace" -- \
    "$work/wl/workload" 0.02 >/dev/null 2>&1 &&
  "$MLGO_RA" extract-corpus "$work/wl" -o "$work/wcorpus" >/dev/null &&
  "$MLGO_RA" subset --corpus "$work/wcorpus" --trace "$work/w.bbtrace" -o "$work/wsubset" \
    >/dev/null || { echo "FAILED: the workload, its trace, corpus and subset"; exit 1; }

app="$work/subset,$work/app.bbtrace,$work/app"
wl="wl=$work/wsubset,$work/w.bbtrace,$work/wl/workload"
train() { # train DIR ITERATIONS [OPTIONS...]: 1 direction a step, seed 3
  local dir=$1 iterations=$2
  shift 2
  "$MLGO_RA" train -o "$dir" --iterations "$iterations" --perturbations 1 --sigma 0.5 \
    --seed 3 -j 2 --mcpu skylake --cache-dir "$work/cache" "$@"
}
rewards() { # the reward fields of each step of a log, timings left out
  grep -o '"step":[0-9]*,"unperturbed_speedup":[^,]*,"reward_mean":[^,]*,"reward_min":[^,]*,"reward_max":[^,]*' "$1"
}
# speedup SUBSET TRACE POLICY: replay's predicted speedup of POLICY over default, as JSON
speedup() {
  "$MLGO_RA" replay --corpus "$1" --trace "$2" --baseline default --candidate "$3" \
    --mcpu skylake --cache-dir "$work/cache" --json |
    python3 -c 'import json, sys; print(repr(json.load(sys.stdin)["speedup"]))'
}
# step_field LOG STEP EXPR: EXPR (Python) of the step record r of LOG
step_field() {
  python3 - "$@" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("step") == int(sys.argv[2]):
        print(eval(sys.argv[3]))
PY
}

# One step, then resumed for a second: the policy of step 1 is the one after step 0.
run train "$work/j" 1 --job "$app" --job "$wl" --json
check "a run on two jobs succeeds" [ "$code" = 0 ]
check "its summary gives each job's speedup" \
  python3 -c 'import json, sys; s = json.loads(sys.argv[1]); sys.exit([j["name"] for j in s["jobs"]] != ["app", "wl"])' "$out"
check "and validates each job's whole trace" \
  python3 -c 'import json, sys; s = json.loads(sys.argv[1]); sys.exit([(t["job"], t["held_out"]) for t in s["validation"]["traces"]] != [("app", False), ("wl", False)])' "$out"
check "the checkpoint records the jobs" \
  grep -q '"name": "wl",' "$work/j/checkpoint.json"
cp "$work/j/policy.json" "$work/step1.json"
run train "$work/j" 2 --job "$app" --job "$wl" --resume
check "resumed with the same jobs, it succeeds" [ "$code" = 0 ]
check "printing the per-job speedups of each step" \
  grep -q '^train: step 2/2: unperturbed [-+][0-9.]*% (app [-+][0-9.]*%, wl [-+][0-9.]*%), ' <<<"$out"
for step in 0 1; do
  check "step $step: the unperturbed reward is the mean of the per-job speedups" \
    [ "$(step_field "$work/j/log.jsonl" $step 'r["unperturbed_speedup"] == sum(j["unperturbed_speedup"] for j in r["jobs"]) / len(r["jobs"])')" = True ]
done
for step in 0 1; do
  policy=initial
  [ $step = 1 ] && policy=$work/step1.json
  check "step $step: job app's speedup is replay's" \
    [ "$(step_field "$work/j/log.jsonl" $step 'repr(r["jobs"][0]["unperturbed_speedup"])')" = \
      "$(speedup "$work/subset" "$work/app.bbtrace" "$policy")" ]
  check "step $step: job wl's speedup is replay's" \
    [ "$(step_field "$work/j/log.jsonl" $step 'repr(r["jobs"][1]["unperturbed_speedup"])')" = \
      "$(speedup "$work/wsubset" "$work/w.bbtrace" "$policy")" ]
done
check "the policy changes the workload's code (a speedup not 0)" \
  [ "$(step_field "$work/j/log.jsonl" 0 'r["jobs"][1]["unperturbed_speedup"] != 0')" = True ]

# A job with its native cycles (here four times default's predicted cycles): its rewards
# are the speedups of its whole run, as replay --native-cycles predicts them.
native=$(( 4 * $("$MLGO_RA" replay --corpus "$work/wsubset" --trace "$work/w.bbtrace" \
  --code default --mcpu skylake --cache-dir "$work/cache" --json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["cycles"])') ))
run train "$work/n" 1 --job "$app" --job "$wl,$native"
check "a run with a job's native cycles succeeds" [ "$code" = 0 ]
whole=$("$MLGO_RA" replay --corpus "$work/wsubset" --trace "$work/w.bbtrace" --baseline default \
  --candidate initial --mcpu skylake --cache-dir "$work/cache" --native-cycles "$native" --json |
  python3 -c 'import json, sys; w = json.load(sys.stdin)["whole_run"]; print(repr(w["speedup"]))')
check "  its speedup is replay's of the whole run ($whole)" \
  [ "$(step_field "$work/n/log.jsonl" 0 'repr(r["jobs"][1]["unperturbed_speedup"])')" = "$whole" ]
check "  about a quarter of the engine's" \
  [ "$(step_field "$work/n/log.jsonl" 0 "abs(r['jobs'][1]['unperturbed_speedup'] * 4 / $(speedup "$work/wsubset" "$work/w.bbtrace" initial) - 1) < 0.05")" = True ]
check "  the other job's as before" \
  [ "$(step_field "$work/n/log.jsonl" 0 'repr(r["jobs"][0]["unperturbed_speedup"])')" = \
    "$(step_field "$work/j/log.jsonl" 0 'repr(r["jobs"][0]["unperturbed_speedup"])')" ]
check "  the checkpoint records them" grep -q "\"native_cycles\": $native" "$work/n/checkpoint.json"
check "  validation gives the whole run's speedups of that job's trace alone" \
  python3 - "$work/n/log.jsonl" "$native" <<'PY'
import json, sys
traces = [json.loads(l)["validation"]["traces"] for l in open(sys.argv[1]) if '"validation"' in l][-1]
whole = {t["job"]: t.get("whole_run") for t in traces}
sys.exit(not (whole["app"] is None and whole["wl"]["native_cycles"] == float(sys.argv[2])))
PY
run train "$work/n" 2 --job "$app" --job "$wl" --resume
check "  resuming without them is bad input (2)" [ "$code" = 2 ]
run train "$work/x" 1 --job "$app,0"
check "0 native cycles is bad input (2)" [ "$code" = 2 ]
check "  saying so" grep -qx "mlgo-ra: error: --job: native cycles 0 are not a finite number above 0" <<<"$err"
run train "$work/x" 1 --job "$app" --native-cycles 5
check "--native-cycles with jobs is bad input (2)" [ "$code" = 2 ]

# A resumed run must have the run's jobs, in order.
written="^mlgo-ra: error: $work/j/checkpoint.json: was written with"
for other in "--job $app" "--job $wl --job $app"; do
  # shellcheck disable=SC2086
  run train "$work/j" 3 $other --resume
  check "resuming with other jobs ($other) is bad input (2)" [ "$code" = 2 ]
  check "in one line naming the run's jobs" \
    [ "$(wc -l <<<"$err")" = 1 ] &&
    grep -q "$written jobs \[{\"name\":\"app\",\"corpus\":\"$work/subset\",.*{\"name\":\"wl\",.*\], not \[" <<<"$err"
done
run train "$work/j" 3 --resume --corpus "$work/subset" --trace "$work/app.bbtrace" \
  --baseline "$work/app"
check "resuming without jobs is bad input (2)" [ "$code" = 2 ]
check "in one line" [ "$(wc -l <<<"$err")" = 1 ] && grep -q "$written corpus none, not " <<<"$err"
check "the run is left as it was" [ "$(grep -c '^{"step"' "$work/j/log.jsonl")" = 2 ]

# Names: unique, words.
run train "$work/x" 1 --job "$app" --job "$app"
check "two jobs of one name are bad input (2)" [ "$code" = 2 ]
check "saying so in one line" \
  grep -qx "mlgo-ra: error: --job: two jobs are named 'app'; name each (NAME= in --job, \"name\" in a job file)" <<<"$err"
run train "$work/x" 1 --job "a/b=$work/subset,$work/app.bbtrace,$work/app"
check "a name that is not a word is bad input (2)" [ "$code" = 2 -a "$(wc -l <<<"$err")" = 1 ]
run train "$work/x" 1 --job "$work/subset,$work/app.bbtrace"
check "a job without its binary is bad input (2)" [ "$code" = 2 ]
check "saying the form" grep -qx "mlgo-ra: error: --job: '$work/subset,$work/app.bbtrace' is not \[NAME=\]CORPUS,TRACE,BINARY\[,NATIVE_CYCLES\]" <<<"$err"
run train "$work/x" 1 --job "$app" --corpus "$work/subset"
check "--job with --corpus is bad input (2)" [ "$code" = 2 -a "$(wc -l <<<"$err")" = 1 ]
run train "$work/x" 1 --job "$app" --job "$wl" --validate-trace "$work/app.bbtrace"
check "--validate-trace with several jobs is bad input (2)" [ "$code" = 2 ]
check "in one line" grep -q "^mlgo-ra: error: --validate-trace: " <<<"$err"
check "before training" [ ! -e "$work/x/log.jsonl" ]

# A compiler that fails on every policy compile of the workload's job: each evaluation
# fails as a whole, its pair dropped and the step skipped; the best policy's validation
# on that job fails too, which fails the run after its step is logged.
cat >"$work/wl-fails-clang" <<SH
#!/bin/sh
case "\$*" in *regalloc-enable-advisor*) case "\$*" in */work/wl/*)
  echo "injected failure" >&2; exit 1 ;; esac ;; esac
exec "$CLANG" "\$@"
SH
chmod +x "$work/wl-fails-clang"
run train "$work/f" 1 --job "$app" --job "$wl" --clang "$work/wl-fails-clang"
check "a run whose job always fails fails at its validation (1)" [ "$code" = 1 ]
check "naming the job" grep -qx "mlgo-ra: error: job wl: validation: .*injected failure" <<<"$err"
check "every evaluation failed, in the failing job" \
  grep -q '"unperturbed_speedup":null,"jobs":\[{"name":"app","unperturbed_speedup":null},{"name":"wl","unperturbed_speedup":null}\],"evaluations":3,"failures":3,"first_failure":"job wl: [^"]*injected failure' "$work/f/log.jsonl"
check "and the step was skipped" grep -q '"skipped":true' "$work/f/log.jsonl"

# One job given with --job is the classic run: the same rewards and policy.
run train "$work/classic" 2 --corpus "$work/wsubset" --trace "$work/w.bbtrace" \
  --baseline "$work/wl/workload"
check "a classic run succeeds" [ "$code" = 0 ]
check "its log names no job" [ -z "$(grep '"jobs"' "$work/classic/log.jsonl")" ]
run train "$work/one" 2 --job "$wl"
check "a run of that one job succeeds" [ "$code" = 0 ]
check "with the classic run's rewards" \
  [ -n "$(rewards "$work/one/log.jsonl")" -a \
    "$(rewards "$work/one/log.jsonl")" = "$(rewards "$work/classic/log.jsonl")" ]
check "and policy" cmp -s "$work/one/policy.json" "$work/classic/policy.json"

# A job file, its paths relative to it, gives the --job run.
mkdir "$work/jobs"
cat >"$work/jobs/jobs.json" <<'JSON'
[{"corpus": "../subset", "trace": "../app.bbtrace", "baseline": "../app"},
 {"name": "wl", "corpus": "../wsubset", "trace": "../w.bbtrace", "baseline": "../wl/workload"}]
JSON
run train "$work/file" 1 --job-file "$work/jobs/jobs.json"
check "a run from a job file succeeds" [ "$code" = 0 ]
check "with the --job run's rewards" \
  [ "$(rewards "$work/file/log.jsonl")" = "$(rewards "$work/j/log.jsonl" | head -1)" ]
echo "[{\"corpus\": \"../subset\", \"trace\": \"../app.bbtrace\", \"baseline\": \"../app\", \"native_cycles\": -1}]" >"$work/jobs/bad.json"
run train "$work/x" 1 --job-file "$work/jobs/bad.json"
check "a job file's negative native cycles are bad input (2)" [ "$code" = 2 ]
check "naming the file" grep -qx "mlgo-ra: error: $work/jobs/bad.json: native cycles -1 are not a finite number above 0" <<<"$err"
echo '[{"corpus": "x"}]' >"$work/jobs/bad.json"
run train "$work/x" 1 --job-file "$work/jobs/bad.json"
check "a job file's job without a trace is bad input (2)" [ "$code" = 2 ]
check "naming the file" grep -qx "mlgo-ra: error: $work/jobs/bad.json: missing field 'trace'" <<<"$err"

# --validate and --report of the run of two jobs.
run train "$work/j" 2 --job "$app" --job "$wl" --validate
check "--validate of a run of jobs succeeds" [ "$code" = 0 ]
check "validating each job" \
  [ "$(grep -c '^  job [a-z]*: .* (the training trace): best ' <<<"$out")" = 2 ]
run "$MLGO_RA" train --report "$work/j"
check "--report succeeds" [ "$code" = 0 ]
check "the reward plot has the best-so-far line" grep -q '<title>best so far</title>' "$work/j/reward.svg"
check "labelled in its legend" grep -q '>best so far</text>' "$work/j/reward.svg"
check "and a validation point per job and validated step (1 and 2)" \
  [ "$(grep -c '<circle' "$work/j/reward.svg")" = 4 ]
check "named by its job" grep -q '>best, whole trace: wl [-+][0-9.]*%</text>' "$work/j/reward.svg"
check "report.md lists each job's validation" \
  [ "$(grep -c '^| \(app\|wl\) | [a-z.]*bbtrace | training trace | [-+][0-9.]*% | [-+][0-9.]*% | [0-9]* |$' "$work/j/report.md")" = 2 ]
check "and where each job's change comes from" grep -q '^## Where the change comes from: job wl$' "$work/j/report.md"
finish
