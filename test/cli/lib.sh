# Helpers for the CLI tests. Each test script sources this, then runs mlgo-ra ($MLGO_RA)
# and checks what a user would see. Set by CTest: MLGO_RA, CLANG, SRC, SCRATCH.
set -uo pipefail
failures=0
mkdir -p "${SCRATCH:-/tmp}"
work=$(mktemp -d "${SCRATCH:-/tmp}/cli.XXXXXX")

# run CMD...: runs it, keeping its exit code in $code, stdout in $out, stderr in $err.
run() {
  "$@" >"$work/stdout" 2>"$work/stderr"
  code=$?
  out=$(cat "$work/stdout")
  err=$(cat "$work/stderr")
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
