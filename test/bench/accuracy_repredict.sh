# bench/accuracy --repredict --unmapped: an earlier run whose trace holds no library code
# (the bundled workload and a variant with more spill code in hash.c, its measured runs
# made up; accuracy-stats wants three, so two more copies of these) predicted again with library code replayed: the trace is recorded again beside
# the old one, which --unmapped skip still uses, and each mode's predictions are replay's.
# Set by CTest: MLGO_RA, CLANG, SRC, SCRATCH, ACCURACY_TOOLS.
source "$(dirname "$0")/../cli/lib.sh"
workload_pair 0.05 # bench/accuracy's trace arguments for the workload: 0.05 1
accuracy() { MLGO_RA=$MLGO_RA "$SRC/bench/accuracy" "$@"; }

dir=$work/run/workload
mkdir -p "$dir"/variants/{control,stress4,again,same}
cp "$base" "$dir/variants/control/workload"
cp "$stress" "$dir/variants/stress4/workload"
cp "$stress" "$dir/variants/again/workload"
cp "$base" "$dir/variants/same/workload"
cp "$trace" "$dir/trace.bbtrace"
echo "baseline=$base" >"$dir/programs" # repredict reads the baseline's name
printf '%s\n' $'workload\tcontrol\tcontrol\t0.000000' $'workload\tstress4\tvariant\t-0.1' \
  $'workload\tagain\tvariant\t-0.1' $'workload\tsame\tvariant\t0' >"$work/run/variants.tsv"
{
  echo "# metric: cpu-time"
  for round in 1 2 3; do
    printf 'workload\t%s\t%s\t%s\t%s\n' "$round" 0 baseline 1 "$round" 1 control 1 \
      "$round" 2 baseline 1 "$round" 3 stress4 1.05 "$round" 4 baseline 1 "$round" 5 again 1.04 \
      "$round" 6 baseline 1 "$round" 7 same 1.01 "$round" 8 baseline 1
  done
} >"$dir/runs.tsv"
# predicted MODE TRACE: the variant's speedup as replay predicts it
predicted() {
  local b c
  b=$("$MLGO_RA" replay --stack-engine --engine flow --unmapped "$1" --trace "$2" --code "$base" \
    --mcpu skylake --json | grep -m1 -o '"cycles": [0-9]*' | grep -o '[0-9]*$')
  c=$("$MLGO_RA" replay --stack-engine --engine flow --unmapped "$1" --trace "$2" --code "$stress" \
    --mcpu skylake --json | grep -m1 -o '"cycles": [0-9]*' | grep -o '[0-9]*$')
  awk -v b="$b" -v c="$c" 'BEGIN { printf "%.6f", b / c - 1 }'
}
tsv_line() { grep $'^workload\tstress4\t' "$1" | cut -f4; }

run accuracy --repredict --mcpu skylake -o "$work/run"
check "repredict replays library code by default" [ "$code" = 0 ]
check "  after recording the trace again, with a one-line note" \
  [ "$(grep -c "workload: its trace holds no library code: recording $dir/trace-unmapped.bbtrace (--keep-unmapped, arguments 0.05 1)$" <<<"$err")" = 1 ]
check "  beside the old trace, which stays as it was" cmp -s "$trace" "$dir/trace.bbtrace"
check "  and the report says so" \
  grep -q "^Predicted again: mlgo-ra replay, engine flow, skylake model, library code replayed (--unmapped replay) " \
  "$work/run/report-skylake-flow-unmapped.md"
replayed=$(predicted replay "$dir/trace-unmapped.bbtrace")
check "  the variant's prediction is replay's with library code ($replayed)" \
  [ "$(tsv_line "$work/run/variants-skylake-flow-unmapped.tsv")" = "$replayed" ]
check "  which the new trace holds" \
  grep -q '"unmapped_skipped": 0' "$dir/baseline-skylake-flow-unmapped.json"

run accuracy --repredict --mcpu skylake -o "$work/run"
check "a second repredict uses the recorded trace" bash -c "[ $code = 0 ] && ! grep -q recording <<<'$err'"
check "  and predicts the same" [ "$(tsv_line "$work/run/variants-skylake-flow-unmapped.tsv")" = "$replayed" ]

run accuracy --repredict --unmapped skip --mcpu skylake -o "$work/run"
skipped=$(predicted skip "$trace")
check "--unmapped skip succeeds" [ "$code" = 0 ]
check "  predicting from the old trace ($skipped)" \
  [ "$(tsv_line "$work/run/variants-skylake-flow.tsv")" = "$skipped" ]
check "  which differs from the prediction with library code" [ "$skipped" != "$replayed" ]
check "  and the report says so" \
  grep -q "^Predicted again: mlgo-ra replay, engine flow, skylake model, library code skipped (--unmapped skip) " \
  "$work/run/report-skylake-flow.md"

run accuracy --repredict --unmapped all -o "$work/run"
check "an unknown --unmapped is an error" \
  bash -c "[ $code = 2 ] && [ '$err' = 'bench/accuracy: --unmapped must be skip or replay' ]"
finish
