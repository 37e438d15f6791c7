# The flags mlgo-ra needs on a traced program and its corpus (DESIGN.md): embedded
# bitcode and command, BB address map, and the CFG-stabilizing flags. SHELL: keeps
# CMake from merging the repeated -mllvm/-Xclang words.
set(MLGO_TRACE_FLAGS
  -O2 "SHELL:-Xclang -fembed-bitcode=all" -fbasic-block-address-map
  "SHELL:-mllvm -disable-branch-fold" "SHELL:-mllvm -enable-tail-merge=false"
  "SHELL:-mllvm -branch-fold-placement=false" "SHELL:-mllvm -disable-tail-duplicate"
  "SHELL:-mllvm -tail-dup-placement=false" "SHELL:-mllvm -enable-shrink-wrap=false")
