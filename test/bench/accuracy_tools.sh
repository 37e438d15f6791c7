# bench/accuracy's helpers end to end on small programs that do 1x, 1.5x, 2x and 3x the
# work of a baseline: accuracy-measure runs them interleaved (each run two executions)
# and checks their output, accuracy-stats ranks them against "predictions",
# accuracy-perturb writes policies.
# Set by CTest: MEASURE, STATS, PERTURB, CLANG, SCRATCH.
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
  printf("%s\n", OUTPUT);
  return 0;
}
C
for w in 2 3 4 6; do
  "$CLANG" -O1 -DWORK=$w '-DOUTPUT="done"' "$work/busy.c" -o "$work/busy$w" || exit 1
done
"$CLANG" -O1 -DWORK=2 '-DOUTPUT="other"' "$work/busy.c" -o "$work/other" || exit 1
cp "$work/busy2" "$work/same"

# Seven rounds of runs of tens of milliseconds: the halves (odd and even rounds) each take
# a median of at least three runs, so that a run slowed by other load does not reorder
# 1.5x and 2x the work (five rounds of a third of this did: 1 in 6 beside three busy loops).
run "$MEASURE" --rounds 7 --executions 2 --workload busy -o "$work/runs.tsv" baseline="$work/busy2" \
  same="$work/same" w3="$work/busy3" w4="$work/busy4" w6="$work/busy6" -- 20000000
check "measure succeeds" [ "$code" = 0 ]
check "measure names its metric" grep -qE '^# metric: (cycles|task-clock|cpu-time)$' "$work/runs.tsv"
check "measure writes a value per run: 4 variants and 5 baselines a round" \
  [ "$(grep -cE $'^busy\t[1-7]\t[0-8]\t[a-z0-9]+\t[0-9.e+-]+$' "$work/runs.tsv")" = 63 ]
check "  the baseline before the first variant and after each" \
  [ "$(awk '$3 % 2 == 0 && $4 == "baseline"' "$work/runs.tsv" | wc -l)" = 35 ]
check "  every variant once a round" \
  [ "$(awk '$3 % 2 == 1 { print $2, $4 }' "$work/runs.tsv" | sort -u | wc -l)" = 28 ]
if ! grep -q cycles "$work/runs.tsv"; then
  check "measure says why it does not count cycles" grep -q "no cycle counter" <<<"$err"
fi

run "$MEASURE" --rounds 1 baseline="$work/busy2" other="$work/other" -- 1000
check "a variant printing something else is an error" \
  grep -q "^accuracy-measure: error: other: .* prints something else than the baseline$" <<<"$err"
check "  with exit code 1" [ "$code" = 1 ]
run "$MEASURE" --rounds 1 baseline="$work/missing" -- 1
check "a program that cannot run is an error" [ "$code" = 1 ]
run "$MEASURE" --rounds 1 --metric cpu-time baseline="$work/busy2" -- 1000
check "cpu-time can be asked for" grep -q '^# metric: cpu-time$' <<<"$out"
run "$MEASURE" --rounds 1 --metric seconds baseline="$work/busy2" -- 1000
check "an unknown metric is an error" grep -q "metric must be auto, cycles" <<<"$err"

# Programs that report their own seconds (as the examples do with EXAMPLE_ITERATIONS):
# 0.1 s per unit of work, exactly, so that the speedups are exact.
cat >"$work/reporter.c" <<'C'
#include <stdio.h>
int main(void) {
  printf("done\n");
  fprintf(stderr, "some noise\nbest of 3 iterations: %.6f s\n", WORK / 10.0);
  return 0;
}
C
for w in 2 3 4; do
  "$CLANG" -O1 -DWORK=$w "$work/reporter.c" -o "$work/reporter$w" || exit 1
done
"$CLANG" -O1 -x c - -o "$work/silent" <<<'int main(void) { return 0; }' || exit 1
run "$MEASURE" --rounds 3 --metric reported --workload rep -o "$work/reported.tsv" \
  baseline="$work/reporter2" w3="$work/reporter3" w4="$work/reporter4" --
check "measure reads the seconds a program reports" grep -q '^# metric: reported$' "$work/reported.tsv"
check "  from its standard error's last line: each run's" \
  [ "$(grep -c $'^rep\t[1-3]\t[0-4]\tw3\t0.3$' "$work/reported.tsv")" = 3 ]
check "  and the baseline's, before the first variant and after each" \
  [ "$(grep -c $'^rep\t[1-3]\t[0-4]\tbaseline\t0.2$' "$work/reported.tsv")" = 9 ]
run "$MEASURE" --rounds 1 --metric reported baseline="$work/silent" --
check "a program that reports no seconds is an error" \
  grep -q "^accuracy-measure: error: baseline: reports no seconds (its standard error's last line is '', not '...: S s')$" <<<"$err"
printf '%s\n' $'rep\tw3\tvariant\t-0.25' $'rep\tw4\tvariant\t-0.4' >"$work/rep-variants.tsv"
run "$STATS" --speedups-only --variants "$work/rep-variants.tsv" --runs "$work/reported.tsv"
check "stats --speedups-only prints each variant's median and quartiles over rounds, alone" \
  [ "$out" = $'rep\tw3\t-0.250000\t-0.333333\t-0.333333\t-0.333333\t3\nrep\tw4\t-0.400000\t-0.500000\t-0.500000\t-0.500000\t3' ]

printf '%s\n' "# workload variant status predicted note" \
  $'busy\tsame\tcontrol\t0' $'busy\tw3\tvariant\t-0.2' $'busy\tw4\tvariant\t-0.4' \
  $'busy\tw6\tvariant\t-0.5' $'busy\tbroken\tdropped\t-\tCFG mismatch in f' >"$work/variants.tsv"
run "$STATS" --variants "$work/variants.tsv" --runs "$work/runs.tsv" --svg "$work/plot.svg"
check "stats succeeds" [ "$code" = 0 ]
check "stats ranks the variants as predicted" \
  grep -q "^3 variants of 1 workloads: Spearman 1.000, Kendall tau-b 1.000; sign agreement 3 of 3 above noise; least squares measured = " <<<"$out"
check "stats reports the 3x variant about 67% slower (less the start-up)" \
  grep -qE '^\| busy \| w6 \| -50.000% \| -(5[5-9]|6[0-9])\.[0-9]{2}% \|' <<<"$out"
check "  and so those above noise" grep -q "^Over the 3 variants above noise: Spearman 1.000, Kendall tau-b 1.000$" <<<"$out"
check "  and the measurement's own ranking: its halves agree" \
  grep -q "^The measurement's own ranking: odd against even rounds Spearman 1.000; a perfect prediction would reach about 1.000 against all rounds$" <<<"$out"
check "stats counts the dropped variant" grep -q "^Dropped: 1 (0 with the same code as the baseline or another variant, 1 for other reasons" <<<"$out"
check "stats lists the dropped variant and why" \
  grep -q '^| busy | broken | dropped | | | | CFG mismatch in f |$' <<<"$out"
check "stats marks the control" grep -q '^| busy | same (control) | +0.000% |' <<<"$out"
check "the plot has a point per variant and the diagonal" \
  [ "$(grep -c '<circle cx=.*<title>busy w' "$work/plot.svg")" = 3 ] &&
  grep -q 'measured = predicted' "$work/plot.svg"
run "$STATS" --variants "$work/variants.tsv" --runs "$work/missing.tsv"
check "stats names a missing file" grep -q "^accuracy-stats: error: .*missing.tsv: cannot open$" <<<"$err"

# Rounds 1 and 3 rank a > b > c, rounds 2 and 4 a > c > b: the halves' Spearman is
# 1 - 6 * 2 / (3 * 8) = 0.5, all rounds' reliability 2 * 0.5 / 1.5, its root 0.816.
{
  echo "# metric: cpu-time"
  for round in 1 2 3 4; do
    if [ $((round % 2)) = 1 ]; then b=0.8 c=0.9; else b=0.95 c=0.85; fi
    printf 'halves\t%s\t%s\t%s\t%s\n' "$round" 0 baseline 1 "$round" 1 a 0.5 "$round" 2 baseline 1 \
      "$round" 3 b "$b" "$round" 4 baseline 1 "$round" 5 c "$c" "$round" 6 baseline 1
  done
} >"$work/halves.tsv"
printf '%s\n' $'halves\ta\tvariant\t0.5' $'halves\tb\tvariant\t0.1' $'halves\tc\tvariant\t0.05' \
  >"$work/halves-variants.tsv"
run "$STATS" --variants "$work/halves-variants.tsv" --runs "$work/halves.tsv"
check "stats measures how far the rounds' halves rank alike" \
  grep -q "^The measurement's own ranking: odd against even rounds Spearman 0.500; a perfect prediction would reach about 0.816 against all rounds$" <<<"$out"

run "$PERTURB" initial --sigma 0.1 --seed 7 -o "$work/a.json"
check "perturb writes a policy" grep -q '"name": "initial+0.1N(seed 7)"' "$work/a.json"
run "$PERTURB" initial --sigma 0.1 --seed 7 -o "$work/b.json"
check "the same seed gives the same policy" cmp -s "$work/a.json" "$work/b.json"
run "$PERTURB" initial --sigma 0.1 --seed 8 -o "$work/c.json"
check "another seed another" bash -c "! cmp -s '$work/a.json' '$work/c.json'"
run "$PERTURB" default --sigma 0.1 --seed 7 -o "$work/d.json"
check "default has nothing to perturb" grep -q "no parameters to perturb" <<<"$err"
finish
