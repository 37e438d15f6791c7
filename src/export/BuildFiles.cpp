/// \file
/// The TENSORFLOW_AOT_PATH stand-in and the README of a cpp export. LLVM's CMake
/// (llvm/CMakeLists.txt) does, when TENSORFLOW_AOT_PATH is set:
///   include_directories(${TENSORFLOW_AOT_PATH}/include)
///   add_subdirectory(${TENSORFLOW_AOT_PATH}/xla_aot_runtime_src ...)
///   install(TARGETS tf_xla_runtime ... ARCHIVE ...)
/// and TensorFlowCompile.cmake links every model with tf_xla_runtime. Our model needs no
/// runtime, so the stand-in is an empty static library.
#include "BuildFiles.h"

#include "Export.h"
#include "support/Json.h"
#include "support/ShellWords.h"

#include <fmt/format.h>

namespace mlgo {
namespace {

constexpr const char *RuntimeCMake =
    R"(# Stands in for TensorFlow's xla_aot_runtime_src (written by mlgo-ra export). LLVM's
# CMake adds this directory when TENSORFLOW_AOT_PATH is set and links the
# RegAllocEvictModel object with tf_xla_runtime; that model needs no runtime, so the
# library is empty.
add_library(tf_xla_runtime STATIC tf_xla_runtime.cpp)
set_target_properties(tf_xla_runtime PROPERTIES POSITION_INDEPENDENT_CODE ON)
)";

constexpr const char *RuntimeSource =
    "// Empty: mlgo-ra's RegAllocEvictModel needs no XLA runtime (see CMakeLists.txt).\n";

constexpr const char *ReadmeTemplate = R"(# The mlgo-ra policy {name} for an LLVM 22 release build

Written by `mlgo-ra export --format cpp`. Built into clang and llc, it is LLVM's
release-mode register-allocation eviction model: no mlgo-ra, Python or TensorFlow is
needed to compile with it.

| file | what it is |
|---|---|
| `RegAllocEvictModel.h`, `RegAllocEvictModel.cpp` | the class `llvm::RegAllocEvictModel` with the policy's {parameters} weights; standard library only |
| `tensorflow/xla_aot_runtime_src/` | stands in for the TensorFlow package: with `TENSORFLOW_AOT_PATH` set, LLVM's CMake adds this directory and links the model with its `tf_xla_runtime` target, an empty library here |

## Build LLVM with the policy

1. Compile the model with the C++ compiler and standard library that build LLVM,
   position-independent (LLVM links it into its CodeGen library):
   ```sh
   EXPORT={dir}
   c++ -std=c++17 -O2 -fPIC -c "$EXPORT/RegAllocEvictModel.cpp" -o "$EXPORT/RegAllocEvictModel.o"
   ```
2. Configure llvm-project 22 with these flags added to your own, then build:
   ```sh
   cmake -G Ninja -S llvm-project/llvm -B build -DCMAKE_BUILD_TYPE=Release \
     -DLLVM_ENABLE_PROJECTS=clang \
     -DTENSORFLOW_AOT_PATH="$EXPORT/tensorflow" \
     -DLLVM_OVERRIDE_MODEL_HEADER_REGALLOCEVICTMODEL="$EXPORT/RegAllocEvictModel.h" \
     -DLLVM_OVERRIDE_MODEL_OBJECT_REGALLOCEVICTMODEL="$EXPORT/RegAllocEvictModel.o" \
     -DLLVM_INLINER_MODEL_PATH=none
   cmake --build build --target clang
   ```
   - `TENSORFLOW_AOT_PATH` turns on LLVM's support for embedded models; the two
     override flags make it copy this header and object instead of compiling a
     TensorFlow model. Both files must exist when cmake runs, which then prints
     `Using provided header ... files for model RegAllocEvictModel`.
   - `LLVM_INLINER_MODEL_PATH=none`: otherwise LLVM generates its test inliner model,
     which needs Python and TensorFlow.
3. Compile with the policy: `clang -O2 -mllvm -regalloc-enable-advisor=release ...`.
   Without that flag the greedy allocator keeps its own heuristic.

## Exactness

`Run()` is mlgo-ra's own decision kernel, the text that mlgo-ra's `Policy::decide`
compiles, so it makes the same decisions, bit for bit, as mlgo-ra did in training. Keep
it that way: do not compile the model with `-ffast-math` (refused with `#error`) or with
clang's `-ffp-contract=fast`, which ignores the pragma that keeps multiply-adds unfused.
)";

} // namespace

std::vector<GeneratedFile> renderBuildFiles(const Policy &P, llvm::StringRef ExportDir) {
  std::string Readme = fmt::format(
      ReadmeTemplate, fmt::arg("name", dumpJson(P.name(), -1)),
      fmt::arg("parameters", P.network().parameters().size()),
      fmt::arg("dir", quoteShellWord(ExportDir)));
  std::string Runtime = std::string(TensorFlowStubDir) + "/xla_aot_runtime_src/";
  return {{"README.md", Readme},
          {Runtime + "CMakeLists.txt", RuntimeCMake},
          {Runtime + "tf_xla_runtime.cpp", RuntimeSource}};
}

} // namespace mlgo
