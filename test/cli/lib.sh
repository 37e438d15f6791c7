# Helpers for the CLI tests. Each test script sources this, then runs mlgo-ra ($MLGO_RA)
# and checks what a user would see. Set by CTest: MLGO_RA, CLANG, SRC, SCRATCH.
set -uo pipefail
failures=0
mkdir -p "${SCRATCH:-/tmp}"
work=$(mktemp -d "${SCRATCH:-/tmp}/cli.XXXXXX")
# Scratch files of what a test runs, inside its own directory: a process the test kills
# with SIGKILL cannot remove its scratch directories (a compile's FIFOs), and finish does.
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"

# run CMD...: runs it, keeping its exit code in $code, stdout in $out, stderr in $err,
# but for the warning of a host whose features contradict the CPU its cpuid names (under
# a hypervisor), which every command that models "native" gives there: that line goes to
# $host_warning, so that what a test expects on stderr does not depend on the host.
host_warning_pattern='mlgo-ra: warning: [a-z-]*: the host CPU reports itself as .*'
run() {
  "$@" >"$work/stdout" 2>"$work/stderr"
  code=$?
  out=$(cat "$work/stdout")
  err=$(grep -vx "$host_warning_pattern" "$work/stderr")
  host_warning=$(grep -x "$host_warning_pattern" "$work/stderr")
}

check() { # check DESCRIPTION TEST...
  local what=$1
  shift
  if "$@"; then
    echo "ok: $what"
  else
    echo "FAILED: $what"
    echo "  exit code: $code"
    echo "  stdout: ${out:0:2000}"
    echo "  stderr: ${err:0:2000}"
    failures=$((failures + 1))
  fi
}

finish() {
  echo "$failures failed"
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
  [ "$failures" = 0 ]
}

# workload_pair SCALE: the bundled workload built as is ($base) and with more spill code
# in its hash kernel (-stress-regalloc=4 on hash.c, $stress), and $base traced at SCALE
# ($trace); exits the test if any of it fails.
workload_pair() {
  "$SRC/examples/build-workload.sh" "$work/base" >/dev/null &&
    "$SRC/examples/build-workload.sh" "$work/stress" -DWORKLOAD_VARIANT_SOURCE=hash.c \
      "-DWORKLOAD_VARIANT_FLAGS=-mllvm;-stress-regalloc=4" >/dev/null ||
    { echo "FAILED: build"; exit 1; }
  base=$work/base/workload
  stress=$work/stress/workload
  trace=$work/w.bbtrace
  "$MLGO_RA" trace record --binary "$base" -o "$trace" -- "$base" "$1" >/dev/null 2>&1 ||
    { echo "FAILED: trace record"; exit 1; }
}

# workload_subset SCALE: the bundled workload built ($base), its corpus ($work/corpus), a
# trace of it at SCALE ($trace) and their subset ($work/subset); exits the test if any of
# it fails.
workload_subset() {
  "$SRC/examples/build-workload.sh" "$work/base" >/dev/null || { echo "FAILED: build"; exit 1; }
  base=$work/base/workload
  trace=$work/w.bbtrace
  "$MLGO_RA" extract-corpus "$work/base/compile_commands.json" -o "$work/corpus" >/dev/null &&
    "$MLGO_RA" trace record --binary "$base" -o "$trace" -- "$base" "$1" >/dev/null 2>&1 &&
    "$MLGO_RA" subset --corpus "$work/corpus" --trace "$trace" -o "$work/subset" >/dev/null ||
    { echo "FAILED: corpus, trace and subset"; exit 1; }
}
