# bench/train-repredict on a bench/train-native output directory made of the bundled
# workload: its `default` build, a "best" build with more spill code in hash.c and an
# "initial" one the same as `default`, their measurements made up in result.tsv. Each
# predicted-now speedup must be replay's, the measured ones result.tsv's.
# Set by CTest: MLGO_RA, CLANG, SRC, SCRATCH.
source "$(dirname "$0")/../cli/lib.sh"
workload_pair 0.05
repredict() { MCPU=skylake "$SRC/bench/train-repredict" "$@"; }

dir=$work/run/workload
mkdir -p "$dir/variants"
ln -s "$work/base" "$dir/variants/default"
ln -s "$work/stress" "$dir/variants/best"
ln -s "$work/base" "$dir/variants/initial"
cp "$trace" "$dir/train.bbtrace"
# name budget steps; best predicted (training, whole, held out), initial's (whole, held
# out); functions changed; best measured, interval; initial's; rounds, iterations, run
# arguments, loads; control measured, interval.
printf '%s\t' workload 5 10 0.01 0.01 0.01 0 0 1 -0.05 -0.06 -0.04 0.001 -0.002 0.003 \
  800 paired "1 1" 1.0 1.0 0.002 -0.001 >"$dir/result.tsv"
printf '0.004\n' >>"$dir/result.tsv"

now=$("$MLGO_RA" replay --trace "$trace" --baseline "$work/base" --candidate "$work/stress" \
  --mcpu skylake --json | python3 -c 'import json, sys; print("%+.2f%%" % (100 * json.load(sys.stdin)["speedup"]))')
run repredict "$work/run"
check "train-repredict succeeds" [ "$code" = 0 ]
check "  the best build's prediction is replay's ($now), then and measured result.tsv's" \
  grep -qF "| $dir | best | +1.00% | $now | -5.00% [-6.00%, -4.00%] | +0.20% |" <<<"$out"
check "  initial, the same code as default, is predicted +0.00%" \
  grep -qF "| $dir | initial | +0.00% | +0.00% | +0.10% [-0.20%, +0.30%] | +0.20% |" <<<"$out"
check "  the summary ranks both and agrees on the one measured above noise" \
  grep -q "^2 policies: Spearman, predicted now against measured 1.000 (then -1.000); sign agreement 1 of 1 measured above noise$" <<<"$out"
check "  it names the model" grep -q "^Predicted: replay --mcpu skylake" <<<"$out"

# With SHORTLIST: the shortlist's other policies, as the choice's call measured them
# (choice.tsv), predicted then on the training shard (run/shortlist.json).
mkdir -p "$dir/run"
printf '[{"speedup": 0.01}, {"speedup": 0.02}]\n' >"$dir/run/shortlist.json"
printf 'workload\tbest\t0\t-0.05\t-0.06\t-0.04\t10\nworkload\ts2\t0\t0.01\t-0.01\t0.03\t10\n' \
  >"$dir/choice.tsv"
ln -s "$work/base" "$dir/variants/s2"
run repredict "$work/run"
check "with a shortlist it succeeds" [ "$code" = 0 ]
check "  the other shortlisted policy is a row of its own, from the choice's measurement" \
  grep -qF "| $dir | s2 | +2.00% | +0.00% | +1.00% [-1.00%, +3.00%] | - |" <<<"$out"
check "  the chosen one (best) is not counted twice" \
  grep -q "^3 policies: Spearman" <<<"$out"

run repredict
check "without a directory it is a usage error" [ "$code" = 2 ]
check "  saying what it wants" grep -q "^usage: bench/train-repredict DIR" <<<"$err"
mkdir "$work/empty"
run repredict "$work/empty"
check "a directory without results is an error" [ "$code" = 1 ]
check "  naming it" grep -qF "bench/train-repredict: no result.tsv under $work/empty" <<<"$err"
finish
