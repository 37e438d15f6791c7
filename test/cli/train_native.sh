#!/usr/bin/env bash
# train --measure-run: the whole program built with the best policy, the start policy and
# default by the program's own link command and measured as `mlgo-ra measure` does; the
# record in the log, the summary and the report; --validate measures again; a run that
# is shell code, a link that fails and missing companions fail in one line.
source "$(dirname "$0")/lib.sh"

source "$(dirname "$0")/tiny_program.sh"
build_tiny_program || { echo "FAILED: program, corpus, trace and subset"; exit 1; }

link="$CLANG \$(find . -name '*.o' | sort) -o app"
train() { # train DIR [OPTIONS...]: 2 steps of 2 directions, measured for 5 s at most
  local dir=$1
  shift
  "$MLGO_RA" train --corpus "$work/subset" --trace "$work/app.bbtrace" --baseline "$work/app" \
    -o "$dir" --iterations 2 --perturbations 2 --sigma 0.5 --seed 11 -j 2 --mcpu skylake \
    --cache-dir "$work/cache" --measure-corpus "$work/corpus" --measure-link "$link" \
    --measure-time-budget 5 "$@"
}
builds() { # builds LOG: the names and verdicts of the last native record's builds
  grep '^{"native"' "$1" | tail -1 | sed 's/"choice".*//' | grep -o '"name":"[a-z0-9]*"\|"verdict":"[a-z ]*"' |
    sed 's/.*:"\(.*\)"/\1/' | paste -sd' '
}
verdicts='(faster|slower|within noise)'

run train "$work/a" --measure-run '{program} 256'
check "a measured run succeeds" [ "$code" = 0 ]
check "its log ends with the native record, after the validation" \
  [ "$(tail -2 "$work/a/log.jsonl" | cut -c1-12 | paste -sd' ')" = '{"validation {"native":{"' ]
check "of the best and the start policies and a control, each with a verdict" \
  grep -Eq "^control $verdicts best $verdicts start $verdicts\$" <<<"$(builds "$work/a/log.jsonl")"
check "in processes mode, with its run" \
  grep -q '^{"native":{"run":"{program} 256","mode":"processes",' "$work/a/log.jsonl"
check "each build linked by the link command" \
  [ -x "$work/a/native/default/app" -a -x "$work/a/native/best/app" -a -x "$work/a/native/start/app" ]
"$MLGO_RA" compile --corpus "$work/corpus" --policy "$work/a/best.json" -o "$work/best" \
  --cache-dir "$work/cache" >/dev/null || { echo "FAILED: compile of best.json"; exit 1; }
same_objects() { # same_objects DIR DIR: the same object files, byte for byte
  local o
  for o in $(cd "$1" && find . -name '*.o' | sort); do cmp -s "$1/$o" "$2/$o" || return 1; done
  [ "$(cd "$1" && find . -name '*.o' | sort)" = "$(cd "$2" && find . -name '*.o' | sort)" ]
}
check "the best build is the best policy's code, every module" \
  same_objects "$work/best" "$work/a/native/best"
other_objects() { ! same_objects "$@"; }
check "which is not default's" other_objects "$work/a/native/default" "$work/a/native/best"
check "the summary says so" grep -Eq "^  measured natively, best: [+-][0-9.]+% \[[+-][0-9.]+%, [+-][0-9.]+%\] $verdicts \(processes mode, [0-9]+ rounds\)$" <<<"$out"
run "$MLGO_RA" train --report "$work/a"
check "the report has the measurement" grep -q "^## Measured natively" "$work/a/report.md"

run train "$work/a" --measure-run '{program} 256' --validate
check "--validate measures again" [ "$code" = 0 -a "$(grep -c '^{"native"' "$work/a/log.jsonl")" = 2 ]
check "and prints it" grep -q "^  measured natively, start: " <<<"$out"

# A run measured at its end resumes: its native records stay in the log.
run "$MLGO_RA" train --corpus "$work/subset" --trace "$work/app.bbtrace" --baseline "$work/app" \
  -o "$work/a" --iterations 3 --perturbations 2 --sigma 0.5 --seed 11 -j 2 --mcpu skylake \
  --cache-dir "$work/cache" --resume
check "a measured run resumes" [ "$code" = 0 ]
check "  its native records kept" [ "$(grep -c '^{"native"' "$work/a/log.jsonl")" = 2 ]
check "  and its third step logged" grep -q '^{"step":2,' "$work/a/log.jsonl"

# With a shortlist, the measurement chooses among its policies.
run train "$work/s" --measure-run '{program} 256' --shortlist 3
check "with --shortlist, every shortlisted policy is measured" \
  grep -Eq "^control $verdicts best $verdicts s2 $verdicts s3 $verdicts start $verdicts$" <<<"$(builds "$work/s/log.jsonl")"
check "  the choice is in the record" grep -q '"choice":{' "$work/s/log.jsonl"
chosen=$(grep '^{"native"' "$work/s/log.jsonl" | tail -1 | grep -o '"choice":{"name":"[a-z0-9]*"' | sed 's/.*"\([a-z0-9]*\)"$/\1/')
check "  and in the summary ($chosen)" grep -q "^  measured natively, chosen: $chosen" <<<"$out"
if [ "$chosen" = default ]; then
  check "  no chosen.json when no policy measured faster" [ ! -e "$work/s/chosen.json" ]
else
  check "  the chosen policy in chosen.json" [ -s "$work/s/chosen.json" ]
fi

run train "$work/b" --measure-run "{program} 256 > '\$work/x'"
check "a run that is shell code is bad input (2)" [ "$code" = 2 ]
check "  said before training" [ ! -e "$work/b/log.jsonl" ]
check "  named in the error" [ "$err" = "mlgo-ra: error: --measure-run: '{program} 256 > '\$work/x'': '>' is shell syntax; the program runs without a shell" ]
run train "$work/c" --measure-run '{program} 256' --measure-link false
check "a link that fails fails the run (1)" [ "$code" = 1 ]
check "named in the error" [ "$err" = "mlgo-ra: error: default: the link command exited with code 1 (see $work/c/native/default/link.err)" ]
run "$MLGO_RA" train --corpus "$work/subset" --trace "$work/app.bbtrace" --baseline "$work/app" \
  -o "$work/d" --measure-run '{program}'
check "--measure-run without its companions is bad input (2)" [ "$code" = 2 ]
check "which it names" [ "$err" = "mlgo-ra: error: --measure-run: needs --measure-corpus (every module of the program) and --measure-link" ]
check "before training" [ ! -e "$work/d/log.jsonl" ]
finish
