# bench/accuracy's helpers end to end on small programs that do 1x, 1.5x, 2x and 3x the
# work of a baseline: `mlgo-ra measure --json` times them as processes, accuracy-stats
# ranks its results against "predictions", accuracy-perturb writes policies.
# Set by CTest: MLGO_RA, STATS, PERTURB, CLANG, SCRATCH.
mkdir -p "${SCRATCH:-/tmp}"
source "$(dirname "$0")/../cli/lib.sh"

cat >"$work/busy.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  long n = atol(argv[1]) * WORK / 2;
  volatile unsigned long x = 1;
  for (long i = 0; i < n; ++i)
    x = x * 6364136223846793005UL + 1;
  printf("done\n");
  return 0;
}
C
for w in 2 3 4 6; do
  "$CLANG" -O1 -DWORK=$w "$work/busy.c" -o "$work/busy$w" || exit 1
done
cp "$work/busy2" "$work/same"

# Runs of tens of milliseconds for at most 20 s: 1.5x the work is far outside the noise.
run "$MLGO_RA" measure --mode processes --baseline "$work/busy2" --candidate same="$work/same" \
  --candidate w3="$work/busy3" --candidate w4="$work/busy4" --candidate w6="$work/busy6" \
  --time-budget 20 --precision 2 --json -- 20000000
check "measure succeeds" [ "$code" = 0 ]
echo "$out" >"$work/measured.json"

printf '%s\n' "# workload variant status predicted note" \
  $'busy\tsame\tcontrol\t0' $'busy\tw3\tvariant\t-0.2' $'busy\tw4\tvariant\t-0.4' \
  $'busy\tw6\tvariant\t-0.5' $'busy\tbroken\tdropped\t-\tCFG mismatch in f' >"$work/variants.tsv"
run "$STATS" --variants "$work/variants.tsv" --measured "busy=$work/measured.json" --svg "$work/plot.svg"
check "stats succeeds" [ "$code" = 0 ]
check "stats ranks the variants as predicted" \
  grep -q "^3 variants of 1 workloads: Spearman 1.000, Kendall tau-b 1.000; sign agreement 3 of 3 above noise; least squares measured = " <<<"$out"
check "stats reports the 3x variant about 67% slower (less the start-up)" \
  grep -qE '^\| busy \| w6 \| -50.000% \| -(5[5-9]|6[0-9])\.[0-9]{2}% \|' <<<"$out"
check "  and so those above noise" grep -q "^Over the 3 variants above noise: Spearman 1.000, Kendall tau-b 1.000$" <<<"$out"
check "stats names the measurement: its mode and measure's control" \
  grep -qE '^\| busy \| measured.json \| processes mode, .* \| [+-][0-9.]+% \[[+-][0-9.]+%, [+-][0-9.]+%\] \|$' <<<"$out"
check "stats counts the dropped variant" grep -q "^Dropped: 1 (0 with the same code as the baseline or another variant, 1 for other reasons" <<<"$out"
check "stats lists the dropped variant and why" \
  grep -q '^| busy | broken | dropped | | | | CFG mismatch in f |$' <<<"$out"
check "stats marks the control" grep -q '^| busy | same (control) | +0.000% |' <<<"$out"
check "the plot has a point per variant and the diagonal" \
  [ "$(grep -c '<circle cx=.*<title>busy w' "$work/plot.svg")" = 3 ] &&
  grep -q 'measured = predicted' "$work/plot.svg"

# With the engine's baseline cycles a quarter of the native run's (measure's
# baseline_cycles), the predictions are the whole run's: -50% (twice the modeled cycles)
# is (1 + 3) / (2 + 3) - 1 = -20%, -20% is 4 / 4.25 - 1.
quarter=$(python3 -c 'import json, sys; print(repr(json.load(open(sys.argv[1]))["baseline_cycles"] / 4))' "$work/measured.json")
run "$STATS" --variants "$work/variants.tsv" --measured "busy=$work/measured.json" --modeled "busy=$quarter"
check "stats --modeled: the share the engine models" grep -qE '^\| busy \| [0-9.e+]+ \| [0-9.e+]+ \| 0.250 \|$' <<<"$out"
check "  the whole run's predictions" grep -q '^| busy | w6 | -20.000% |' <<<"$out" &&
  grep -q '^| busy | w3 | -5.882% |' <<<"$out"

# Made-up results, split over two files as bench/accuracy splits more than 22 variants:
# each variant's speedup and interval are measure's, exactly.
made_up() { # made_up FILE NAME SPEEDUP LOW HIGH...
  local file=$1 builds=()
  shift
  while [ $# -gt 0 ]; do
    builds+=("{\"name\": \"$1\", \"path\": \"/p/$1\", \"control\": false, \"speedup\": $2, \"low\": $3, \"high\": $4, \"samples\": 12, \"verdict\": \"-\"}")
    shift 4
  done
  (IFS=,; echo "{\"mode\": \"processes\", \"metric\": \"CPU seconds\", \"baseline_value\": 1.5," \
    "\"units\": 12, \"seconds\": 30, \"precision_points\": 0.5, \"precision_reached\": true," \
    "\"seed\": 1, \"builds\": [{\"name\": \"control\", \"path\": \"/p/b\", \"control\": true," \
    "\"speedup\": 0.001, \"low\": -0.002, \"high\": 0.004, \"samples\": 12, \"verdict\": \"-\"}," \
    "${builds[*]}]}") >"$file"
}
made_up "$work/rep-1.json" w3 -0.25 -0.3 -0.2
made_up "$work/rep-2.json" w4 -0.4 -0.5 -0.35
printf '%s\n' $'rep\tw3\tvariant\t-0.2' $'rep\tw4\tvariant\t-0.3' >"$work/rep-variants.tsv"
run "$STATS" --speedups-only --variants "$work/rep-variants.tsv" \
  --measured "rep=$work/rep-1.json" --measured "rep=$work/rep-2.json"
check "stats --speedups-only prints each variant's median and interval, alone, from either file" \
  [ "$out" = $'rep\tw3\t-0.200000\t-0.250000\t-0.300000\t-0.200000\t12\nrep\tw4\t-0.300000\t-0.400000\t-0.500000\t-0.350000\t12' ]
run "$STATS" --variants "$work/rep-variants.tsv" --measured "rep=$work/rep-1.json" \
  --measured "rep=$work/rep-2.json" --modeled rep=1.5e9
check "a measurement without baseline_cycles needs --clock-ghz" \
  grep -q "^accuracy-stats: error: $work/rep-1.json: no baseline_cycles (measure timed no clock): give --clock-ghz$" <<<"$err"
run "$STATS" --variants "$work/rep-variants.tsv" --measured "rep=$work/rep-1.json" \
  --measured "rep=$work/rep-2.json" --modeled rep=1.5e9 --clock-ghz 2
check "  with it, its CPU seconds at that clock: half modeled, -30% is 1.4 / 1.7 - 1" \
  grep -q '^| rep | w4 | -17.647% |' <<<"$out"
printf 'rep\tcontrol\tcontrol\t0\n' >>"$work/rep-variants.tsv"
run "$STATS" --speedups-only --variants "$work/rep-variants.tsv" --measured "rep=$work/rep-1.json"
check "a variant no file measured is an error" \
  bash -c "[ $code = 1 ] && grep -q '^accuracy-stats: error: rep w4: not measured$' <<<'$err'"
printf 'rep\tcontrol\tcontrol\t0\n' >"$work/control.tsv"
run "$STATS" --speedups-only --variants "$work/control.tsv" --measured "rep=$work/rep-1.json"
check "a variant named control is measure's control" \
  [ "$out" = $'rep\tcontrol\t0.000000\t0.001000\t-0.002000\t0.004000\t12' ]
run "$STATS" --variants "$work/variants.tsv" --measured "busy=$work/missing.json"
check "stats names a missing file" grep -q "^accuracy-stats: error: .*missing.json" <<<"$err"
run "$STATS" --variants "$work/variants.tsv" --measured "$work/measured.json"
check "a file without its workload is an error" \
  grep -q "^accuracy-stats: error: .*measured.json: expected WORKLOAD=MEASURED.json$" <<<"$err"
echo '{"mode": "paired"}' >"$work/short.json"
run "$STATS" --variants "$work/variants.tsv" --measured "busy=$work/short.json"
check "a file that is not measure's is an error naming the field" \
  grep -q "^accuracy-stats: error: .*short.json.*metric" <<<"$err"

run "$PERTURB" initial --sigma 0.1 --seed 7 -o "$work/a.json"
check "perturb writes a policy" grep -q '"name": "initial+0.1N(seed 7)"' "$work/a.json"
run "$PERTURB" initial --sigma 0.1 --seed 7 -o "$work/b.json"
check "the same seed gives the same policy" cmp -s "$work/a.json" "$work/b.json"
run "$PERTURB" initial --sigma 0.1 --seed 8 -o "$work/c.json"
check "another seed another" bash -c "! cmp -s '$work/a.json' '$work/c.json'"
run "$PERTURB" default --sigma 0.1 --seed 7 -o "$work/d.json"
check "default has nothing to perturb" grep -q "no parameters to perturb" <<<"$err"
finish
