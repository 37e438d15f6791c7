# GNU Binutils' objdump, with the BFD and opcodes libraries of every target
# (--enable-targets=all): a large program, 541 objects of its own (BFD's object formats,
# opcodes' disassemblers, libctf, libsframe, libiberty, zlib). Upstream's release tarball
# (tree=orig): it ships its generated files (configure scripts, Makefile.in, parsers, info
# manuals), while Debian's patches touch Makefile.am and configure.ac, which would ask for
# the exact autoconf and automake to run again. Built with its configure script, static,
# without NLS, plugins, zstd, debuginfod or msgpack (only libc linked dynamically; zlib is
# the tarball's), then only what objdump needs: the libraries' make targets and the
# objdump target of binutils/ (MAKEINFO=true: no makeinfo, no manuals).
# Inputs: C files of cgen.pl (generated functions of varied kinds), compiled by clang-22
# -O2 -g for several targets. Runs: training, disassembling with line numbers and
# relocations, without the raw bytes (-d -l -r --no-show-raw-insn), objects for x86-64,
# AArch64, ARM, MIPS64 (little endian), PowerPC64 (little endian) and s390x; held out,
# disassembling with line numbers and symbolic addresses on each line (-d -l
# --prefix-addresses) objects of other functions for x86-64, i386, Thumb-2, MIPS (big
# endian), PowerPC, SPARC V9, LoongArch64 and m68k. objdump formats its text with libc's
# printf family: libc runs 58% of the training run's instructions (71% of the x86-64
# object's part, 40% of the ARM object's) and 68% of the held-out run's.
package=binutils
tree=orig
language=C
domain="disassembler (large)"
binary=binutils/objdump
build() {
  ./configure --enable-targets=all --disable-shared --disable-nls --disable-werror \
    --disable-plugins --disable-gas --disable-ld --disable-gold --disable-gprof \
    --disable-gprofng --without-zstd --without-debuginfod --without-msgpack
  make MAKEINFO=true all-libiberty all-zlib all-libsframe all-bfd all-opcodes all-libctf \
    configure-binutils
  make -C binutils MAKEINFO=true objdump
}
inputs() {
  # object NAME SEED FUNCTIONS TARGET [FLAGS...]: NAME.o, FUNCTIONS functions of cgen.pl's
  # SEED compiled for TARGET, its debug information naming the source ./NAME.c.
  object() {
    local name=$1 seed=$2 functions=$3 target=$4 arch=other
    shift 4
    case $target in x86_64-* | i686-*) arch=x86 ;; esac
    perl "$recipe"/cgen.pl "$seed" "$functions" "$arch" >"$name.c"
    "$arena_llvm_bin/clang" --target="$target" "$@" -O2 -g -fdebug-compilation-dir=. -w -c \
      "$name.c" -o "$name.o"
  }
  object train-x86_64 11 400 x86_64-linux-gnu
  object train-aarch64 12 120 aarch64-linux-gnu
  object train-arm 13 120 armv7a-linux-gnueabihf
  object train-mips64el 14 100 mips64el-linux-gnuabi64
  object train-ppc64le 15 60 powerpc64le-linux-gnu
  object train-s390x 16 60 s390x-linux-gnu
  object heldout-x86_64 21 200 x86_64-linux-gnu
  object heldout-i386 22 80 i686-linux-gnu
  object heldout-thumb 23 80 armv7a-linux-gnueabihf -mthumb
  object heldout-mips 24 60 mips-linux-gnu
  object heldout-ppc 25 60 powerpc-linux-gnu
  object heldout-sparcv9 26 60 sparcv9-linux-gnu
  # -mno-relax: BFD 2.40 reads no line numbers through the relocations of linker
  # relaxation (R_LARCH_ADD/SUB) that clang writes in .debug_line otherwise.
  object heldout-loongarch64 27 40 loongarch64-linux-gnu -mno-relax
  object heldout-m68k 28 60 m68k-linux-gnu
}
run=(-d -l -r --no-show-raw-insn train-x86_64.o train-aarch64.o train-arm.o
  train-mips64el.o train-ppc64le.o train-s390x.o)
heldout=(-d -l --prefix-addresses heldout-x86_64.o heldout-i386.o heldout-thumb.o
  heldout-mips.o heldout-ppc.o heldout-sparcv9.o heldout-loongarch64.o heldout-m68k.o)
