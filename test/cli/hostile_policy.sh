#!/usr/bin/env bash
# Hostile and careless inputs to policies, options, checkpoints and training directories
# (issue 16): each ends in one error line with exit 2 (or 1 for a failed step), and
# nothing of the user's is overwritten, nothing unusable written.
source "$(dirname "$0")/lib.sh"

source "$(dirname "$0")/tiny_program.sh"
build_tiny_program || { echo "FAILED: program, corpus, trace and subset"; exit 1; }

train() { # train DIR [OPTIONS...]: steps of 2 directions, seed 7
  local dir=$1
  shift
  "$MLGO_RA" train --corpus "$work/subset" --trace "$work/app.bbtrace" --baseline "$work/app" \
    -o "$dir" --perturbations 2 --sigma 0.5 --seed 7 -j 2 "$@"
}
one_line() { [ "$(wc -l <<<"$err")" = 1 ]; }

# Policies: a network bounded by the parameters the file holds, weights finite as floats.
"$MLGO_RA" export initial -o "$work/initial.json" >/dev/null
layers=$(printf '4096, %.0s' $(seq 63))4096
sed -z "s/\"hidden\": \[[^]]*\]/\"hidden\": [$layers]/" "$work/initial.json" >"$work/deep.json"
check "the deep policy declares 64 layers of 4096" grep -q "\"hidden\": \[$layers\]" "$work/deep.json"
run "$MLGO_RA" export "$work/deep.json" -o "$work/deep-out.json"
check "export of 64 hidden layers of 4096 is bad input (2)" [ "$code" = 2 ]
check "in one line" one_line
check "naming the file and the bound" \
  grep -q "^mlgo-ra: error: $work/deep.json: 64 hidden layers (at most 16)$" <<<"$err"
check "writing nothing" [ ! -e "$work/deep-out.json" ]
run "$MLGO_RA" compile --corpus "$work/subset" --policy "$work/deep.json" -o "$work/deep-variant"
check "so is compile with it (2)" [ "$code" = 2 ]
check "in one line too" one_line
run train "$work/deep-run" --init "$work/deep.json"
check "and train --init (2)" [ "$code" = 2 ]
check "in one line as well" grep -q "^mlgo-ra: error: $work/deep.json: 64 hidden layers" <<<"$err"

sed '/"parameters": \[/{n;s/-\?[0-9][-0-9.e+]*/1e39/}' "$work/initial.json" >"$work/large.json"
check "the large policy has a weight of 1e39" grep -q "^ *1e39,$" "$work/large.json"
run "$MLGO_RA" export "$work/large.json" -o "$work/large-out.json"
check "a weight that is infinite as a float is bad input (2)" [ "$code" = 2 ]
check "named in one line" grep -q "^mlgo-ra: error: $work/large.json: field 'parameters': element 0: 1e+39 is not a finite float$" <<<"$err"
check "and no policy of nulls is written" [ ! -e "$work/large-out.json" ]

# Real-valued options: NaN and infinities would turn checks off or train NaNs.
for value in nan inf -1; do
  run "$MLGO_RA" replay --trace "$work/app.bbtrace" --baseline "$work/app" --candidate \
    "$work/app" --fail-if-slower "$value"
  check "--fail-if-slower $value is a usage error (2)" [ "$code" = 2 ]
  check "saying why" grep -q "^mlgo-ra: error: --fail-if-slower: $value is not a finite number at least 0 (see 'mlgo-ra replay --help')$" <<<"$err"
done
for option in "--step-size inf" "--step-size 0" "--sigma nan" "--sigma -0.5" "--timeout nan"; do
  run train "$work/opt-run" --iterations 1 $option
  check "train $option is a usage error (2)" [ "$code" = 2 ]
  check "naming ${option% *}" grep -q "^mlgo-ra: error: ${option% *}: ${option#* } is not a finite number" <<<"$err"
done
check "no run was started" [ ! -e "$work/opt-run" ]
run "$MLGO_RA" compile --corpus "$work/subset" --policy initial -o "$work/v" --timeout inf
check "compile --timeout inf is a usage error (2)" [ "$code" = 2 ]

# train --baseline must be the traced binary, as replay requires.
sed 's/r < 4;/r < 5;/' "$work/main.c" >"$work/main2.c"
"$CLANG" -O2 "$work/main2.c" "$work/objs/kernels.o" -o "$work/other"
run train "$work/other-run" --iterations 1 --baseline "$work/other"
check "training against another binary than the traced one is bad input (2)" [ "$code" = 2 ]
check "as replay says it" grep -q "^mlgo-ra: error: $work/app.bbtrace: was recorded on $work/app (.*), not on $work/other (.*)$" <<<"$err"
check "in one line, before any work" [ ! -e "$work/other-run" ]
run "$MLGO_RA" replay --trace "$work/app.bbtrace" --baseline "$work/other" --candidate "$work/app"
check "(replay's own words)" grep -q "^mlgo-ra: error: $work/app.bbtrace: was recorded on $work/app (.*), not on $work/other (.*)$" <<<"$err"

# Training directories: never a user's.
mkdir "$work/mine"
echo '{"mine": true}' >"$work/mine/policy.json"
run train "$work/mine" --iterations 1
check "a directory holding a user's policy.json is refused (2)" [ "$code" = 2 ]
check "naming the file" grep -q "^mlgo-ra: error: $work/mine/policy.json: would be overwritten: $work/mine is not a training directory" <<<"$err"
check "which is kept" [ "$(cat "$work/mine/policy.json")" = '{"mine": true}' ]
check "with nothing added" [ "$(ls "$work/mine")" = policy.json ]
mkdir "$work/notes"
echo notes >"$work/notes/notes.txt"
run train "$work/notes" --iterations 1
check "so is any other directory with files (2)" [ "$code" = 2 ]
check "saying so" grep -q "^mlgo-ra: error: $work/notes: is not empty and not a training directory" <<<"$err"
check "adding nothing" [ "$(ls "$work/notes")" = notes.txt ]
run train "$work/nothing" --iterations 1 --resume
check "--resume needs a run directory (2)" [ "$code" = 2 ]
check "and creates none" [ ! -e "$work/nothing" ]
: >"$work/plain"
run train "$work/plain" --iterations 1
check "a file as the directory is refused (2)" [ "$code" = 2 ]
check "naming it" grep -q "^mlgo-ra: error: $work/plain: is not a directory$" <<<"$err"

# A real run of one step, then checkpoints and logs it must refuse to resume from.
run train "$work/a" --iterations 1
check "a run of 1 step succeeds" [ "$code" = 0 ]
resume_with() { # resume_with SED-SCRIPT [FILE]: resumes a copy of run a, edited
  rm -rf "$work/b" && cp -r "$work/a" "$work/b" &&
    sed -i "$1" "$work/b/${2:-checkpoint.json}" && cp "$work/b/checkpoint.json" "$work/edited" &&
    run train "$work/b" --iterations 2 --resume
}
kept() { cmp -s "$work/b/checkpoint.json" "$work/edited"; }
resume_with '/"optimizer"/,/}/s/"beta1": 0.9/"beta1": 1.0/'
check "a checkpoint with Adam's beta1 of 1 is refused (2)" [ "$code" = 2 ]
check "in one line" grep -q "^mlgo-ra: error: $work/b/checkpoint.json: the optimizer's beta1 is 1, outside \[0, 1)$" <<<"$err"
check "left as it was" kept
resume_with '/"parameters": \[/{n;s/-\?[0-9][-0-9.e+]*/1e39/}'
check "a checkpoint with a parameter infinite as a float is refused (2)" [ "$code" = 2 ]
check "naming it" grep -q "^mlgo-ra: error: $work/b/checkpoint.json: field 'parameters': element 0: 1e+39 is not a finite float$" <<<"$err"
resume_with 's/"format": "mlgo-ra.train-checkpoint"/"format": "mlgo-ra-policy"/'
check "a checkpoint of another format is refused (2)" [ "$code" = 2 ]
check "saying so" grep -q "^mlgo-ra: error: $work/b/checkpoint.json: not a training checkpoint (format 'mlgo-ra-policy')$" <<<"$err"
run train "$work/b" --iterations 2
check "nor does such a directory count as a run's (2)" [ "$code" = 2 ]
resume_with 's/"version": 1,/"version": 2,/'
check "a checkpoint of another version is refused (2)" [ "$code" = 2 ]
check "saying so" grep -q "^mlgo-ra: error: $work/b/checkpoint.json: checkpoint version 2 (this mlgo-ra reads 1)$" <<<"$err"
resume_with 's/"step":0,/"step":5,/' log.jsonl
check "a log whose records are not the checkpoint's is refused (2)" [ "$code" = 2 ]
check "naming the log" grep -q "^mlgo-ra: error: $work/b/log.jsonl: line 1 records step 5, not 0" <<<"$err"

# A step that would make parameters infinite stops the run, keeping the last checkpoint.
resume_with '/"optimizer"/,/}/s/"step_size": 0.005,/"step_size": 1e39,/'
check "a step beyond the floats stops the run (1)" [ "$code" = 1 ]
check "saying why in one line" grep -q "^mlgo-ra: error: step 1: Adam's update would take parameter [0-9]* beyond the finite floats (step size 1e+39); stopped with the checkpoint of step 0$" <<<"$err"
check "keeping the checkpoint" kept
check "and the policy" cmp -s "$work/a/policy.json" "$work/b/policy.json"
check "no policy holds a null" [ -z "$(grep -l null "$work/b"/*.json)" ]

# The reward curve never holds NaN, whatever the log says.
mkdir "$work/r"
cat >"$work/r/log.jsonl" <<'LOG'
{"step":0,"unperturbed_speedup":1e306,"reward_min":-1e306,"reward_max":1e308}
{"step":1,"unperturbed_speedup":null,"reward_min":0.01,"reward_max":0.02}
{"step":2,"unperturbed_speedup":-1e306}
LOG
run "$MLGO_RA" train --report "$work/r"
check "--report of extreme speedups succeeds" [ "$code" = 0 ]
check "with no NaN or infinity in the SVG" [ -z "$(grep -io 'nan\|inf' "$work/r/reward.svg")" ]
check "but a curve through both plottable steps" \
  grep -q "<polyline points=\"70.0,30.0 620.0,315.0 \"" "$work/r/reward.svg"
printf '{"step":0,"unperturbed_speedup":0.01}\n{"step":1,"unperturbed_speedup":0.01}\n' \
  >"$work/r/log.jsonl"
run "$MLGO_RA" train --report "$work/r"
check "--report of a constant curve succeeds" [ "$code" = 0 ]
check "without NaN" [ -z "$(grep -io 'nan\|inf' "$work/r/reward.svg")" ]
finish
