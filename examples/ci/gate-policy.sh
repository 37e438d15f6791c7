#!/usr/bin/env bash
# Gates a change of a register-allocation eviction policy in CI: builds the program,
# records its trace once (kept in the cache directory under the hash of the binary and
# its run, for the CI cache to carry from job to job), compiles baseline and candidate
# policies from the program's corpus and replays the trace with both, and writes the
# verdict as Markdown: OUT/summary.md, appended to $GITHUB_STEP_SUMMARY when set (GitHub
# Actions). The GitHub and GitLab jobs beside this script run it; so does
# test/cli/ci_gate.sh, on the bundled workload.
#
# Usage: examples/ci/gate-policy.sh CANDIDATE [options]
#   CANDIDATE              the policy under review: a policy file or a built-in name
#   --baseline POLICY      what it must not be slower than (default: default, LLVM's own)
#   --baseline-ref REF     if CANDIDATE is a file that git has at REF (e.g. the target
#                          branch), that version is the baseline: the gate then checks
#                          the change itself
#   --fail-if-slower PCT   the predicted slowdown allowed, in percent (default: 0.5)
#   --explain N            functions the summary explains block by block (default: 3)
#   --mcpu CPU             the CPU replay models (default: skylake, the same on every
#                          runner; 'native' models the runner's own, which may change
#                          from job to job)
#   --out DIR              summary.md, replay.json, the build (default: ci-out)
#   --cache DIR            traces and compiled middle ends (default: .mlgo-cache)
# Environment: MLGO_RA, the mlgo-ra binary (default: build/mlgo-ra of this checkout).
# Exit code: replay's: 0 pass, 1 predicted slower than allowed, 2 bad input; or that of
# the step that failed before it (the summary names it).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
mlgo=${MLGO_RA:-$top/build/mlgo-ra}

# The program under the policy, and the run that stands for its use. Replace these with
# your project's: a build with the flags of the README's "Building a program for
# mlgo-ra" that writes compile_commands.json, and a representative run.
build_program() { # build_program DIR: builds into DIR, prints the binary's path
  "$top/examples/build-workload.sh" "$1"
}
run_arguments=(0.02) # the bundled workload at a fiftieth of its default run

candidate=${1:?usage: gate-policy.sh CANDIDATE [--baseline POLICY] [--baseline-ref REF] [--fail-if-slower PCT] [--explain N] [--mcpu CPU] [--out DIR] [--cache DIR]}
shift
baseline=default baseline_ref="" threshold=0.5 explain=3 mcpu=skylake out=ci-out cache=.mlgo-cache
while (($#)); do
  case $1 in
  --baseline) baseline=$2 ;;
  --baseline-ref) baseline_ref=$2 ;;
  --fail-if-slower) threshold=$2 ;;
  --explain) explain=$2 ;;
  --mcpu) mcpu=$2 ;;
  --out) out=$2 ;;
  --cache) cache=$2 ;;
  *) echo "gate-policy.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
mkdir -p "$out" "$cache/traces"
out=$(cd "$out" && pwd) cache=$(cd "$cache" && pwd)
summary=$out/summary.md

publish() { # the summary where CI shows it
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$summary" >>"$GITHUB_STEP_SUMMARY"; fi
}

step() { # step NAME COMMAND...: runs it; if it fails, the summary says which step
  local name=$1 status=0
  shift
  "$@" || status=$?
  if ((status)); then
    printf '## mlgo-ra policy gate: error\n\nThe step "%s" failed (exit code %s); the job log says why.\n' \
      "$name" "$status" >"$summary"
    publish
    exit "$status"
  fi
}

echo "== build the program"
binary=$(step build build_program "$out/program")

echo "== trace one run (once per binary and run)"
key=$( (sha256sum <"$binary" && printf '%s\n' "${run_arguments[@]}") | sha256sum | cut -c1-32)
trace=$cache/traces/$key.bbtrace
if [ -f "$trace" ]; then
  echo "trace: cached $trace"
else
  step trace "$mlgo" trace record --binary "$binary" -o "$trace" -- "$binary" "${run_arguments[@]}" >/dev/null
  echo "trace: recorded $trace"
fi

echo "== the corpus, and the modules that define the traced functions"
rm -rf "$out/corpus" "$out/subset"
step extract-corpus "$mlgo" extract-corpus "$(dirname "$binary")/compile_commands.json" -o "$out/corpus" >/dev/null
step subset "$mlgo" subset --corpus "$out/corpus" --trace "$trace" -o "$out/subset" >/dev/null

if [ -n "$baseline_ref" ] && [ -f "$candidate" ]; then
  path=$(cd "$(dirname "$candidate")" && git ls-files --full-name -- "$(basename "$candidate")" 2>/dev/null) || true
  if [ -n "$path" ] && git -C "$(dirname "$candidate")" show "$baseline_ref:$path" >"$out/baseline-policy.json" 2>/dev/null; then
    baseline=$out/baseline-policy.json
    echo "baseline: $path as of $baseline_ref"
  else
    echo "baseline: $candidate is new at $baseline_ref; checking it against $baseline"
  fi
fi

echo "== replay: $candidate against $baseline"
status=0
"$mlgo" replay --trace "$trace" --corpus "$out/subset" --baseline "$baseline" \
  --candidate "$candidate" --fail-if-slower "$threshold" --explain "$explain" --mcpu "$mcpu" \
  --cache-dir "$cache/mlgo-ra" --markdown "$summary" --json >"$out/replay.json" \
  2>"$out/replay.err" || status=$?
cat "$out/replay.err" >&2
if ((status > 1)); then
  # No verdict: the summary gives replay's one-line error.
  printf '## mlgo-ra policy gate: error\n\nreplay failed (exit code %s):\n\n~~~text\n%s\n~~~\n' \
    "$status" "$(tail -5 "$out/replay.err")" >"$summary"
fi
publish
grep -m1 '^\*\*Verdict' "$summary" || true
exit "$status"
