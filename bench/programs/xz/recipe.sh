# XZ Utils: the xz compressor (LZMA2), built with its configure script and Makefiles,
# liblzma static (--disable-shared) and without threads (--disable-threads: single-
# threaded compression and decompression only). Inputs: mixed text, logs, CSV, C-like code
# and binary records of tools/textgen.pl. Runs: training, compressing 500 KB at -6 (normal
# mode, binary-tree match finder); held out, compressing 1.5 MB of another mix at -2 (fast
# mode, hash-chain match finder).
package=xz-utils
language=C
domain=compression
binary=src/xz/xz
build() {
  ./configure --disable-shared --disable-threads --disable-nls --disable-xzdec \
    --disable-lzmadec --disable-lzmainfo --disable-scripts --disable-doc
  make -C src/liblzma
  make -C src/xz
}
inputs() {
  perl "$recipe"/../tools/textgen.pl 3 500000 text,log,csv,code,binary >train.dat
  perl "$recipe"/../tools/textgen.pl 4 1500000 text,csv,binary >heldout.dat
}
run=(-6 -c train.dat)
heldout=(-2 -c heldout.dat)
