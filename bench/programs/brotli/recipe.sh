# Brotli: the brotli compressor (LZ77, context modeling, Huffman), built with its CMake
# project (build type None: the exported flags only), the command-line tool linked with
# the static libraries brotlienc, brotlidec and brotlicommon. Inputs: mixed text, logs,
# CSV, C-like code and binary records of tools/textgen.pl. Runs: training, compressing
# 1.4 MB at quality 9 (hash chains, context modeling); held out, compressing 50 KB of
# another mix at quality 11 (binary-tree matches, Zopfli-like optimal parsing).
package=brotli
language=C
domain=compression
binary=out/brotli
build() {
  cmake -S . -B out -DCMAKE_BUILD_TYPE=None -DCMAKE_AR="$AR" -DCMAKE_RANLIB="$RANLIB"
  cmake --build out --target brotli
}
inputs() {
  perl "$recipe"/../tools/textgen.pl 5 1400000 text,log,csv,code,binary >train.dat
  perl "$recipe"/../tools/textgen.pl 6 50000 text,log,binary >heldout.dat
}
run=(-c -q 9 train.dat)
heldout=(-c -q 11 heldout.dat)
