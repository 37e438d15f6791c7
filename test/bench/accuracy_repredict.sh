# bench/accuracy --repredict --unmapped: an earlier run whose trace holds no library code
# (the bundled workload and a variant with more spill code in hash.c, its measurement
# made up; accuracy-stats wants three, so two more copies of these) predicted again with
# library code replayed: the trace is recorded again beside the old one, which --unmapped
# skip still uses, and each mode's predictions are replay's. Then --remeasure measures
# the same builds again with `mlgo-ra measure`, as processes.
# Set by CTest: MLGO_RA, CLANG, SRC, SCRATCH, ACCURACY_TOOLS.
source "$(dirname "$0")/../cli/lib.sh"
workload_pair 0.05 # bench/accuracy's trace arguments for the workload: 0.05 1
accuracy() { MLGO_RA=$MLGO_RA "$SRC/bench/accuracy" "$@"; }

dir=$work/run/workload
mkdir -p "$dir"/variants/{default,stress4,again,same}
cp "$base" "$dir/variants/default/workload"
cp "$stress" "$dir/variants/stress4/workload"
cp "$stress" "$dir/variants/again/workload"
cp "$base" "$dir/variants/same/workload"
cp "$trace" "$dir/trace.bbtrace"
programs=("baseline=$base")
for v in default stress4 again same; do programs+=("$v=$dir/variants/$v/workload"); done
echo "${programs[*]}" >"$dir/programs" # repredict reads the baseline's name
echo "$work/base" >"$dir/builds"
echo "0.05 1" >"$dir/measure-args"
printf '%s\n' $'workload\tdefault\tcontrol\t0.000000' $'workload\tstress4\tvariant\t-0.1' \
  $'workload\tagain\tvariant\t-0.1' $'workload\tsame\tvariant\t0' >"$work/run/variants.tsv"
build() { # build NAME SPEEDUP: one build of measure's --json
  awk -v n="$1" -v s="$2" 'BEGIN { printf "{\"name\": \"%s\", \"path\": \"/p/%s\", \"control\": %s, \"speedup\": %s, \"low\": %.3f, \"high\": %.3f, \"samples\": 9, \"verdict\": \"-\"}", n, n, n == "control" ? "true" : "false", s, s - 0.01, s + 0.01 }'
}
echo "{\"mode\": \"processes\", \"metric\": \"CPU seconds\", \"baseline_value\": 0.01, \"units\": 9, \"seconds\": 3, \"precision_points\": 0.5, \"precision_reached\": false, \"seed\": 1, \"builds\": [$(build control 0), $(build default 0), $(build stress4 -0.05), $(build again -0.04), $(build same -0.01)]}" \
  >"$dir/measured-1.json"
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
# --remeasure: the same builds measured for real, as processes (the workload times no
# iterations of its own: its CPU seconds), the earlier predictions kept.
run accuracy --remeasure --measure processes --iterations 1 --time-budget 10 --precision 50 \
  -o "$work/run"
check "remeasure succeeds" [ "$code" = 0 ]
check "  measure's result replaces the made-up one: every variant and measure's control" \
  [ "$(grep -o '"name": "[a-z0-9]*"' "$dir/measured-1.json" | tr '\n' ' ')" = \
    '"name": "control" "name": "default" "name": "stress4" "name": "again" "name": "same" ' ]
check "  in processes mode" grep -q '"mode": "processes"' "$dir/measured-1.json"
check "  the report says how it measured" \
  grep -q "^Measured: mlgo-ra measure, processes mode, each run 1 iterations of about 0.2 s" "$work/run/report.md"
check "  and compares the three variants with their predictions" \
  grep -q "^3 variants of 1 workloads: Spearman " "$work/run/report.md"
check "  the control on a line of its own" grep -q '^| workload | default (control) | +0.000% |' "$work/run/report.md"
finish
