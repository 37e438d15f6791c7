#!/usr/bin/env bash
# Builds the bundled workload with clang-22 into BUILD_DIR (default: examples/workload/build).
# Produces the objects (BUILD_DIR/CMakeFiles/workload.dir/*.o), compile_commands.json and
# the binary BUILD_DIR/workload. Extra arguments are passed to cmake.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/workload/build}
shift || true
llvm_bin=$(llvm-config-22 --bindir 2>/dev/null || echo /usr/lib/llvm-22/bin)
cmake -S "$here/workload" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE= \
  -DCMAKE_C_COMPILER="$llvm_bin/clang" -DCMAKE_CXX_COMPILER="$llvm_bin/clang++" "$@" >/dev/null
cmake --build "$build" >/dev/null
echo "$build/workload"
