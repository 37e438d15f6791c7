#!/usr/bin/env bash
# mlgo-ra's own options: help, version, usage errors.
source "$(dirname "$0")/lib.sh"

run "$MLGO_RA" --help
check "--help exits 0" [ "$code" = 0 ]
check "--help lists extract-corpus" grep -q "extract-corpus" <<<"$out"
check "--help lists trace" grep -q "^  trace " <<<"$out"
check "--help lists export" grep -q "^  export " <<<"$out"

run "$MLGO_RA" --version
check "--version names mlgo-ra and LLVM 22" grep -qE '^mlgo-ra [0-9.]+ \(LLVM 22\.[0-9.]+\)$' <<<"$out"

run "$MLGO_RA"
check "no subcommand is a usage error (2)" [ "$code" = 2 ]
check "usage error on one line with the mlgo-ra prefix" \
  [ "$(wc -l <<<"$err")" = 1 -a "${err#mlgo-ra: error: }" != "$err" ]

run "$MLGO_RA" frobnicate
check "an unknown subcommand exits 2" [ "$code" = 2 ]
check "and is named" [ "$err" = "mlgo-ra: error: unknown subcommand 'frobnicate' (see 'mlgo-ra --help')" ]

run "$MLGO_RA" extract-corpus --help
check "subcommand --help exits 0 and explains the input" \
  grep -q "compile_commands.json" <<<"$out"

run "$MLGO_RA" extract-corpus some/dir
check "a missing required option exits 2" [ "$code" = 2 ]
check "and says which, on one line, with where to read more" \
  [ "$err" = "mlgo-ra: error: --output is required (see 'mlgo-ra extract-corpus --help')" ]

run "$MLGO_RA" extract-corpus some/dir -o x --input-kind bogus
check "a bad option value exits 2" [ "$code" = 2 ]
finish
