# libxml2: the XML toolkit's library built static with its own configure and Makefile
# (no Python, zlib, lzma, ICU or readline), and its command-line tool xmllint. Runs: a
# generated catalogue parsed with its DTD (entities substituted, validated), XIncludes
# resolved through XPointer (XPath) into a second document, and the result reformatted;
# held out, generated orders in two namespaces validated against an XML Schema and
# queried with XPath.
package=libxml2
language=C
domain="text processing (XML)"
binary=xmllint
build() {
  # Not maintainer mode: Debian's patches touch Makefile.am (a test), which would make
  # the Makefile rerun automake, of another version than the one the tarball had.
  # No srand: libxml2 seeds the hashes of its dictionaries and hash tables from the
  # clock when it has srand, rand and time, so each run would take other instructions.
  ./configure --disable-maintainer-mode --disable-shared --without-python --without-zlib \
    --without-lzma --without-icu --without-readline --without-history \
    CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" AR="$AR" RANLIB="$RANLIB" ac_cv_func_srand=no
  make xmllint
}
inputs() {
  cp "$recipe"/orders.xsd "$recipe"/address.xsd .
  perl "$recipe"/gen.pl catalog 4000 >catalog.xml
  perl "$recipe"/gen.pl authors 1500 >authors.xml
  perl "$recipe"/gen.pl orders 2500 >orders.xml
}
run=(--valid --noent --nonet --xinclude --format catalog.xml)
heldout=(--nonet --schema orders.xsd
  --xpath "//*[local-name()='order'][@status='returned'][count(*[local-name()='line']) >= 4]/@number | //*[local-name()='customer'][starts-with(*[local-name()='name'], 'Ka')]/@id"
  orders.xml)
