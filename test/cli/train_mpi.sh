#!/usr/bin/env bash
# train --mpi on localhost: 1, 2 and 3 ranks give the rewards and policy of a local run
# bit for bit (with rank shaping too); a rank killed mid-run fails the job with the
# checkpoint intact, and --resume on another number of ranks finishes it as an
# uninterrupted run would; a run of two jobs on 2 ranks gives the local run's rewards and
# per-job speedups.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/tiny_program.sh"
build_tiny_program || { echo "FAILED: program, corpus, trace and subset"; exit 1; }
# CI runs as root, which OpenMPI refuses unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# In the sanitized build: OpenMPI's components are loaded with dlopen and unloaded before
# LeakSanitizer reports, so their leaks name no library a suppression could match.
[ "${SANITIZED:-0}" = 1 ] && export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"

# What every run shares. One CPU's model, not the host's: that rank shaping and z-scores
# take other steps depends on the rewards, and so on the model.
search=(--perturbations 2 --sigma 0.5 --seed 3 -j 1 --mcpu znver4)
train() { # train DIR ITERATIONS [OPTIONS...]
  local dir=$1 iterations=$2
  shift 2
  "$MLGO_RA" train --corpus "$work/subset" --trace "$work/app.bbtrace" --baseline "$work/app" \
    -o "$dir" --iterations "$iterations" "${search[@]}" "$@"
}
rewards() { # the reward fields of each step of a log, timings left out
  grep -o '"step":[0-9]*,"unperturbed_speedup":[^,]*,"reward_mean":[^,]*,"reward_min":[^,]*,"reward_max":[^,]*' "$1"
}

run train "$work/local" 3
check "a local run of 3 steps succeeds" [ "$code" = 0 ]
for n in 1 2 3; do
  run mpirun --oversubscribe -np "$n" "$MLGO_RA" train --mpi --corpus "$work/subset" \
    --trace "$work/app.bbtrace" --baseline "$work/app" -o "$work/np$n" --iterations 3 \
    "${search[@]}"
  check "$n ranks train" [ "$code" = 0 ]
  check "$n ranks give the local run's rewards" \
    [ "$(rewards "$work/np$n/log.jsonl")" = "$(rewards "$work/local/log.jsonl")" ]
  check "and its policy, bit for bit" cmp -s "$work/np$n/policy.json" "$work/local/policy.json"
done
check "only rank 0 reports" [ "$(grep -c '^train: 3 steps' <<<"$out")" = 1 ]
# Rank shaping: the leader alone shapes the gathered rewards.
run train "$work/local-rank" 3 --fitness rank
check "a local run shaping by ranks succeeds" [ "$code" = 0 ]
run mpirun --oversubscribe -np 2 "$MLGO_RA" train --mpi --corpus "$work/subset" \
  --trace "$work/app.bbtrace" --baseline "$work/app" -o "$work/np2-rank" --iterations 3 \
  "${search[@]}" --fitness rank
check "and on 2 ranks" [ "$code" = 0 ]
check "with the local run's rewards" \
  [ "$(rewards "$work/np2-rank/log.jsonl")" = "$(rewards "$work/local-rank/log.jsonl")" ]
check "and policy, bit for bit" cmp -s "$work/np2-rank/policy.json" "$work/local-rank/policy.json"
check "not the z-scored run's" \
  [ "$(rewards "$work/local-rank/log.jsonl")" != "$(rewards "$work/local/log.jsonl")" ]

# Rank 2 of 3 killed once the first checkpoint exists.
mpirun --oversubscribe -np 3 "$MLGO_RA" train --mpi --corpus "$work/subset" \
  --trace "$work/app.bbtrace" --baseline "$work/app" -o "$work/killed" --iterations 3 \
  "${search[@]}" >"$work/killed.out" 2>&1 &
job=$!
for _ in $(seq 600); do [ -e "$work/killed/checkpoint.json" ] && break; sleep 0.1; done
# rank_of PID: the MPI rank in PID's environment, if any.
rank_of() { tr '\0' '\n' <"/proc/$1/environ" 2>/dev/null | sed -n 's/^OMPI_COMM_WORLD_RANK=//p'; }
# A rank forks to run the compiler, and until the child execs, it has the rank's command
# line and environment: the victim is the process with rank 2 whose parent has no rank.
victim=
for pid in $(pgrep -f "mlgo-ra train --mpi .* -o $work/killed "); do
  parent=$(awk '{print $4}' "/proc/$pid/stat" 2>/dev/null)
  [ "$(rank_of "$pid")" = 2 ] && [ -n "$parent" ] && [ -z "$(rank_of "$parent")" ] && victim=$pid
done
check "rank 2 was found running" [ -n "$victim" ]
kill -9 "$victim" 2>/dev/null
wait "$job"
code=$?
check "the job fails when a rank dies" [ "$code" != 0 ]
check "leaving no rank behind" [ -z "$(pgrep -f "mlgo-ra train --mpi .* -o $work/killed " || true)" ]
run mpirun --oversubscribe -np 2 "$MLGO_RA" train --mpi --corpus "$work/subset" \
  --trace "$work/app.bbtrace" --baseline "$work/app" -o "$work/killed" --iterations 3 \
  "${search[@]}" --resume
check "its checkpoint resumes on 2 ranks" [ "$code" = 0 ]
check "to the uninterrupted run's rewards" \
  [ "$(rewards "$work/killed/log.jsonl")" = "$(rewards "$work/local/log.jsonl")" ]
check "and policy" cmp -s "$work/killed/policy.json" "$work/local/policy.json"

# Several programs (jobs): each rank evaluates its share on every job; the per-job
# speedups travel with the evaluations. Two inputs of the tiny program as two jobs.
"$MLGO_RA" trace record --binary "$work/app" -o "$work/small.bbtrace" -- "$work/app" 100 \
  >/dev/null 2>&1 || { echo "FAILED: the second trace"; exit 1; }
jobs=(--job "big=$work/subset,$work/app.bbtrace,$work/app"
      --job "small=$work/subset,$work/small.bbtrace,$work/app")
job_speedups() { grep -o '"jobs":\[[^]]*\]' "$1"; }
run "$MLGO_RA" train "${jobs[@]}" -o "$work/jobs-local" --iterations 2 "${search[@]}"
check "a local run of two jobs succeeds" [ "$code" = 0 ]
run mpirun --oversubscribe -np 2 "$MLGO_RA" train --mpi "${jobs[@]}" -o "$work/jobs-np2" \
  --iterations 2 "${search[@]}"
check "2 ranks train on two jobs" [ "$code" = 0 ]
check "giving the local run's rewards" \
  [ "$(rewards "$work/jobs-np2/log.jsonl")" = "$(rewards "$work/jobs-local/log.jsonl")" ]
check "and per-job speedups" \
  [ -n "$(job_speedups "$work/jobs-local/log.jsonl")" -a \
    "$(job_speedups "$work/jobs-np2/log.jsonl")" = "$(job_speedups "$work/jobs-local/log.jsonl")" ]
finish
