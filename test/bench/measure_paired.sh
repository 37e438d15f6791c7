# bench/measure-paired end to end on a small two-module program built four ways: the
# baseline, a copy of it, one doing half the work, one printing something else, and a
# baseline whose main prints something else when called again. Each build's objects
# sit where the link command names them, as mlgo-ra compile's output directories hold them.
# Set by CTest: PAIRED, STATS, CLANG, SCRATCH.
mkdir -p "${SCRATCH:-/tmp}"
source "$(dirname "$0")/../cli/lib.sh"

cat >"$work/work.c" <<'C'
long work(long n) { /* WORK times n steps of an LCG */
  volatile unsigned long x = 1;
  for (long i = 0; i < n * WORK; ++i)
    x = x * 6364136223846793005UL + 1;
  return n;
}
C
cat >"$work/main.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
long work(long);
static int calls;
int main(int argc, char **argv) {
  printf("%s %ld\n", OUTPUT, work(atol(argv[1])) + STATEFUL * calls++);
  return 0;
}
C
objects="CMakeFiles/p.dir/main.c.o CMakeFiles/p.dir/work.c.o"
build() { # build DIR WORK OUTPUT STATEFUL
  mkdir -p "$work/$1/CMakeFiles/p.dir"
  for m in main work; do
    "$CLANG" -O1 -falign-functions=64 -c -DWORK="$2" "-DOUTPUT=\"$3\"" -DSTATEFUL="$4" "$work/$m.c" \
      -o "$work/$1/CMakeFiles/p.dir/$m.c.o" || exit 1
  done
}
build base 2 done 0
build same 2 done 0
build half 1 done 0
build other 2 other 0
build stateful 2 done 1
link=": && $CLANG $objects -o p && :"

run "$PAIRED" --rounds 12 --processes 3 --workload p -o "$work/runs.tsv" --link "$link" \
  "$work/base" same="$work/same" half="$work/half" -- 200000
check "measure-paired succeeds" [ "$code" = 0 ]
check "it names its metric" [ "$(head -1 "$work/runs.tsv")" = "# metric: paired" ]
check "it marks each of its 3 processes" [ "$(grep -c '^# process [0-2]$' "$work/runs.tsv")" = 3 ]
check "a call a line: 2 builds and 3 baseline calls a round, 12 rounds" \
  [ "$(grep -cE $'^p\t([1-9]|1[0-2])\t[0-4]\t(baseline|same|half)\t[0-9.e+-]+$' "$work/runs.tsv")" = 60 ]
check "  the baseline before the first build and after each" \
  [ "$(awk '$3 % 2 == 0 && $4 == "baseline"' "$work/runs.tsv" | wc -l)" = 36 ]
check "  every build once a round" \
  [ "$(awk '!/^#/ && $3 % 2 == 1 { print $2, $4 }' "$work/runs.tsv" | sort -u | wc -l)" = 24 ]
check "it says which rounds each process runs" \
  grep -q "^bench/measure-paired: p: rounds 9-12 of 12 (layout 2)$" <<<"$err"
check "  each in a layout of its own by default" \
  grep -q "^bench/measure-paired: p: rounds 5-8 of 12 (layout 1)$" <<<"$err"
seed=$(sed -n 's/^bench\/measure-paired: p: 3 layouts, seed \([0-9]*\) (LAYOUT_SEED)$/\1/p' <<<"$err")
check "  drawn with a seed it prints" [ -n "$seed" ]
check "  and writes into the runs" [ "$(sed -n 2p "$work/runs.tsv")" = "# layouts: 3, seed $seed" ]

check "  the builds in their order in the first layout" \
  grep -q "^bench/measure-paired: p: layout 0: baseline same half$" <<<"$err"
check "  in the reverse in the second" \
  grep -q "^bench/measure-paired: p: layout 1: half same baseline$" <<<"$err"

# From the third layout on, the builds in random orders, the same for the same seed.
orders() { # orders SEED: the layouts' orders of the builds, as measure-paired says them
  LAYOUT_SEED=$1 "$PAIRED" --rounds 8 --processes 8 --workload p -o "$work/orders.tsv" \
    --link "$link" "$work/base" same="$work/same" half="$work/half" b3="$work/same" \
    b4="$work/same" -- 1 2>&1 >/dev/null | sed -n 's/^bench\/measure-paired: p: layout [2-7]: //p'
}
first=$(orders 7)
check "  8 layouts, 6 of them in random orders" [ "$(wc -l <<<"$first")" = 6 ]
check "  each an order of the 5 builds" \
  [ "$(tr ' ' '\n' <<<"$first" | sort | uniq -c | awk '{ print $1 }' | sort -u)" = 6 ]
check "  not all the same" [ "$(sort -u <<<"$first" | wc -l)" -gt 1 ]
check "  the same again with the same seed" [ "$(orders 7)" = "$first" ]
check "  others with another" [ "$(orders 8)" != "$first" ]

# From the third layout on, each build's code shifted by multiples of 16 bytes, off the
# 64 its functions are aligned to (-falign-functions=64 above).
LAYOUT_SEED=5 run "$PAIRED" --rounds 8 --processes 8 --workload p --keep "$work/kept" \
  -o "$work/kept.tsv" --link "$link" "$work/base" same="$work/same" half="$work/half" -- 1
offsets() { # offsets LAYOUT...: each build's main's address modulo 64, in those layouts
  for l in "$@"; do
    llvm-nm-22 "$work/kept/layout$l" | awk '$3 ~ /^main__v[0-9]+$/ { print $1 }'
  done | while read -r address; do echo $((16#$address % 64)); done | sort -n | uniq
}
check "--keep keeps the 8 programs" [ "$(ls "$work/kept" | grep -c '^layout[0-7]$')" = 8 ]
check "  the first two with each main where the compiler aligned it" [ "$(offsets 0 1)" = 0 ]
shifted=$(offsets 2 3 4 5 6 7 | tr '\n' ' ')
check "  the others with mains 16, 32 or 48 bytes into a 64-byte line too ($shifted)" \
  grep -qE '^0 (16 )?(32 )?(48 )?$' <<<"$shifted"
check "  (some of them)" [ "$shifted" != "0 " ]

# Two layouts: the builds in one order and in the reverse, the processes alternating.
run "$PAIRED" --rounds 12 --processes 3 --layouts 2 --workload p -o "$work/runs2.tsv" \
  --link "$link" "$work/base" same="$work/same" half="$work/half" -- 200000
check "--layouts 2 succeeds" [ "$code" = 0 ]
check "  the third process running the first layout again" \
  grep -q "^bench/measure-paired: p: rounds 9-12 of 12 (layout 0)$" <<<"$err"
check "  with as many calls" [ "$(grep -vc '^#' "$work/runs2.tsv")" = 60 ]
run "$PAIRED" --rounds 12 --processes 3 --layouts 0 --workload p -o "$work/runs0.tsv" \
  --link "$link" "$work/base" same="$work/same" -- 200000
check "--layouts 0 is an error" [ "$code" = 1 ]
check "  saying so" grep -q "^bench/measure-paired: error: --layouts must be a count of at least 1$" <<<"$err"

printf 'p\tsame\tcontrol\t0\np\thalf\tvariant\t1\n' >"$work/variants.tsv"
run "$STATS" --speedups-only --variants "$work/variants.tsv" --runs "$work/runs.tsv"
check "accuracy-stats reads the paired runs" [ "$code" = 0 ]
# Half the work in work(), which is nearly all of a call: about 2x; far from 0 either way.
# 24 speedups: each of the 12 calls against the baseline call before it and after it.
check "  the build doing half the work is measured faster" \
  awk -F'\t' '$2 == "half" && $4 > 0.3 && $7 == 24 { found = 1 } END { exit !found }' <<<"$out"
run "$STATS" --speedups-only --variants "$work/variants.tsv" --runs "$work/runs.tsv" \
  "$work/runs2.tsv"
check "  two runs files of one workload (repeated runs) count the rounds of both" \
  awk -F'\t' '$2 == "half" && $7 == 48 { found = 1 } END { exit !found }' <<<"$out"
run "$STATS" --variants "$work/variants.tsv" --runs "$work/runs.tsv"
check "  its report names the interval of the paired metric" \
  grep -q "95% confidence interval of the median of the processes' medians" <<<"$out"

# --against same: half's speed over same's, round by round (one speedup a round); same's
# own line still over the baseline, two a round.
run "$STATS" --speedups-only --variants "$work/variants.tsv" --runs "$work/runs.tsv"
over_baseline=$(grep $'^p\tsame\t' <<<"$out")
run "$STATS" --speedups-only --variants "$work/variants.tsv" --runs "$work/runs.tsv" \
  --against same
check "--against succeeds" [ "$code" = 0 ]
check "  half measured over same: about 2x, one speedup a round" \
  awk -F'\t' '$2 == "half" && $4 > 0.3 && $7 == 12 { found = 1 } END { exit !found }' <<<"$out"
check "  same over the baseline, as without it" \
  [ "$(grep $'^p\tsame\t' <<<"$out")" = "$over_baseline" ]
run "$STATS" --speedups-only --variants "$work/variants.tsv" --runs "$work/runs.tsv" \
  --against nothing
check "--against a build not measured is an error naming it" \
  grep -q "^accuracy-stats: error: p: round 1: no run of nothing (--against)$" <<<"$err"

run "$PAIRED" --rounds 1 --processes 1 -o "$work/other.tsv" --link "$link" "$work/base" \
  other="$work/other" -- 1000
check "a build printing something else is an error" \
  grep -q "^paired-harness: error: other: prints something else than the baseline$" <<<"$err"
check "  with exit code 1" [ "$code" = 1 ]
check "  and no runs file" [ -z "$(ls "$work" | grep '^other.tsv')" ]
run "$PAIRED" --rounds 1 --processes 1 -o "$work/stateful.tsv" --link "$link" \
  "$work/stateful" same="$work/same" -- 1000
check "a baseline whose main cannot be called twice is an error" \
  grep -q "^paired-harness: error: baseline: prints something else when its main is called again$" <<<"$err"
run "$PAIRED" --rounds 1 --processes 1 -o "$work/missing.tsv" --link "$link" "$work/base" \
  none="$work/none" -- 1000
check "a build without the objects is an error naming the object" \
  grep -q "^bench/measure-paired: error: $work/none/CMakeFiles/p.dir/main.c.o: no such object$" <<<"$err"
check "  with exit code 1" [ "$code" = 1 ]
run "$PAIRED" --help
check "--help says what it does and how to call it" grep -q "^Usage: bench/measure-paired" <<<"$out"
finish
