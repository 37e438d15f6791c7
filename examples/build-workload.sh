#!/usr/bin/env bash
# Builds the bundled workload with clang-22 into BUILD_DIR (default: examples/workload/build).
# Produces the objects (BUILD_DIR/CMakeFiles/workload.dir/*.o), compile_commands.json and
# the binary BUILD_DIR/workload, whose path it prints. Extra arguments go to cmake.
# With EXAMPLE=NAME it builds examples/NAME instead (binary BUILD_DIR/NAME-workload): json,
# or the accuracy examples interp, crypto, parse and dsp (bench/accuracy).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
example=${EXAMPLE:-workload}
build=${1:-$here/$example/build}
shift || true
llvm_bin=$(llvm-config-22 --bindir 2>/dev/null || echo /usr/lib/llvm-22/bin)
cmake -S "$here/$example" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE= --no-warn-unused-cli \
  -DCMAKE_C_COMPILER="$llvm_bin/clang" -DCMAKE_CXX_COMPILER="$llvm_bin/clang++" "$@" >/dev/null
cmake --build "$build" >/dev/null
[ "$example" = workload ] && echo "$build/workload" || echo "$build/$example-workload"
