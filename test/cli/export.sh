#!/usr/bin/env bash
# export: policy files and C++ models from built-in and saved policies; bad inputs and
# outputs are one-line errors with exit code 2 and leave nothing behind.
source "$(dirname "$0")/lib.sh"

run "$MLGO_RA" export --help
check "--help exits 0" [ "$code" = 0 ]
check "--help names both formats" grep -q "json (default): a policy file; cpp: a directory" <<<"$out"
check "and the class it writes" grep -q "llvm::RegAllocEvictModel" <<<"$out"

run "$MLGO_RA" export initial -o "$work/initial.json"
check "json export succeeds" [ "$code" = 0 ]
check "and says where" grep -q "^export: policy 'initial' written to $work/initial.json$" <<<"$out"
check "a policy file" grep -q '"format": "mlgo-ra-policy"' "$work/initial.json"

run "$MLGO_RA" export "$work/initial.json" --format cpp -o "$work/model" --json
check "cpp export of a policy file succeeds" [ "$code" = 0 ]
check "--json summarizes it" grep -q '"format": "mlgo-ra.export.summary"' <<<"$out"
check "with the parameter count" grep -q '"parameters": 2081' <<<"$out"
check "the class is written" grep -q "class RegAllocEvictModel" "$work/model/RegAllocEvictModel.h"
check "with the TensorFlow stand-in" [ -f "$work/model/tensorflow/xla_aot_runtime_src/CMakeLists.txt" ]
check "and the cmake flags" grep -q "LLVM_OVERRIDE_MODEL_OBJECT_REGALLOCEVICTMODEL" "$work/model/README.md"

run "$MLGO_RA" export poor --format cpp -o "$work/model"
check "an earlier export is replaced" [ "$code" = 0 ]
check "by the new policy" grep -q 'policy "poor"' "$work/model/RegAllocEvictModel.h"
check "the text names the README" grep -q "$work/model/README.md has the cmake flags" <<<"$out"

run "$MLGO_RA" export default --format cpp -o "$work/default"
check "default as C++ is bad input (2)" [ "$code" = 2 ]
check "with a one-line reason" grep -q "^mlgo-ra: error: default: the default policy is LLVM's own heuristic" <<<"$err"
check "and nothing written" [ ! -e "$work/default" ]

run "$MLGO_RA" export nosuch --format cpp -o "$work/x"
check "an unknown policy exits 2" [ "$code" = 2 ]
check "naming it" grep -q "^mlgo-ra: error: nosuch: neither a built-in policy" <<<"$err"

printf '{"format": "mlgo-ra-policy", "version": 1, "name": "x", "kind": "network"' >"$work/corrupt.json"
run "$MLGO_RA" export "$work/corrupt.json" --format cpp -o "$work/x"
check "a corrupt policy file exits 2" [ "$code" = 2 ]
check "naming the file" grep -q "^mlgo-ra: error: $work/corrupt.json: invalid JSON" <<<"$err"

sed 's/"hidden": \[/"hidden": [0, /' "$work/initial.json" >"$work/wrong.json"
run "$MLGO_RA" export "$work/wrong.json" --format cpp -o "$work/x"
check "a policy file that does not fit exits 2" [ "$code" = 2 ]
check "naming the file" grep -q "^mlgo-ra: error: $work/wrong.json: " <<<"$err"
check "nothing is written for bad inputs" [ ! -e "$work/x" ]

: >"$work/file"
run "$MLGO_RA" export initial --format cpp -o "$work/file/model"
check "an unwritable output directory exits 2" [ "$code" = 2 ]
check "naming it" grep -q "^mlgo-ra: error: $work/file/model: cannot create" <<<"$err"
run "$MLGO_RA" export initial -o "$work/file/p.json"
check "an unwritable policy file exits 2" [ "$code" = 2 ]
check "naming it" grep -q "^mlgo-ra: error: $work/file/p.json: cannot write" <<<"$err"

mkdir -p "$work/mine" && echo notes >"$work/mine/notes.txt"
run "$MLGO_RA" export initial --format cpp -o "$work/mine"
check "a directory export did not write is not replaced (2)" [ "$code" = 2 ]
check "and kept" grep -q notes "$work/mine/notes.txt"
check "no temporaries are left" [ -z "$(ls "$work" | grep -E '\.(tmp|old)-')" ]

run "$MLGO_RA" export initial --format xml -o "$work/x"
check "an unknown format is a usage error (2)" [ "$code" = 2 ]
run "$MLGO_RA" export initial
check "a missing --output is a usage error (2)" [ "$code" = 2 ]
finish
