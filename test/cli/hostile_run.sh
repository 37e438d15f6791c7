#!/usr/bin/env bash
# A training run's directory after a full disk or a careless user, and validation that
# could only look valid: a cut last log line is dropped on --resume, damaged policies
# and shortlist files are written again from the checkpoint, --iterations 0 is refused,
# and a held-out trace of another program is an error, not +0.000%.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/tiny_program.sh"
build_tiny_program || { echo "FAILED: program, corpus, trace and subset"; exit 1; }

train() { # train DIR [OPTIONS...]: 2 directions, seed 7, a shortlist of 2
  local dir=$1
  shift
  "$MLGO_RA" train --corpus "$work/subset" --trace "$work/app.bbtrace" --baseline "$work/app" \
    -o "$dir" --perturbations 2 --sigma 0.5 --seed 7 -j 2 --shortlist 2 --mcpu skylake \
    --cache-dir "$work/cache" "$@"
}

run train "$work/zero" --iterations 0
check "--iterations 0 is a usage error (2)" [ "$code" = 2 ]
check "naming it" grep -q -- "--iterations: 0 is not a whole number of at least 1" <<<"$err"
check "and no run directory" [ ! -e "$work/zero" ]

run train "$work/a" --iterations 2
check "a run of 2 steps succeeds" [ "$code" = 0 ]

# A full disk cut the next step's record short; its checkpoint was not written.
printf '{"step":2,"unperturbed_speedup":0.0' >>"$work/a/log.jsonl"
# And damaged what the checkpoint holds whole.
: >"$work/a/shortlist.json"
head -c 10 "$work/a/shortlist/1.json" >"$work/cut" && mv "$work/cut" "$work/a/shortlist/1.json"
: >"$work/a/best.json"
run train "$work/a" --iterations 3 --resume
check "--resume after a cut log line succeeds" [ "$code" = 0 ]
check "warning that it drops the line" grep -qx "mlgo-ra: warning: $work/a/log.jsonl: dropping its unfinished last line (35 bytes), a record cut short" <<<"$err"
check "the log has steps 0, 1, 2 once each" \
  [ "$(grep -o '^{"step":[0-9]*' "$work/a/log.jsonl" | tr '\n' ' ')" = '{"step":0 {"step":1 {"step":2 ' ]
check "every line of it whole JSON" python3 -c "
import json, sys
for line in open(sys.argv[1]): json.loads(line)" "$work/a/log.jsonl"
for f in shortlist.json shortlist/1.json shortlist/2.json best.json; do
  check "$f is written again" python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$work/a/$f"
done
run "$MLGO_RA" replay --trace "$work/app.bbtrace" --corpus "$work/subset" --baseline "$work/app" \
  --candidate "$work/a/shortlist/1.json" --mcpu skylake --cache-dir "$work/cache"
check "and the shortlist's first policy replays" [ "$code" = 0 ]

# A held-out trace of a program the corpus has nothing of.
flags="-O2 -Xclang -fembed-bitcode=all -fbasic-block-address-map"
# shellcheck disable=SC2086
"$CLANG" $flags "$SRC/test/programs/call_tail.c" -o "$work/other" &&
  "$MLGO_RA" trace record --binary "$work/other" -o "$work/other.bbtrace" -- "$work/other" 3 \
    >/dev/null 2>&1 || { echo "FAILED: the other program"; exit 1; }
run train "$work/a" --iterations 3 --validate --validate-trace "$work/other.bbtrace:$work/other"
check "validating on another program's trace is bad input (2)" [ "$code" = 2 ]
check "saying that none of its functions is in the corpus" [ "$err" = \
  "mlgo-ra: error: $work/other.bbtrace: none of the functions it ran is in the training corpus $work/subset: it would replay only the baseline's code, which validates nothing (a trace of another program?)" ]
check "adding no validation record" [ "$(grep -c '^{"validation"' "$work/a/log.jsonl")" = 2 ]
finish
