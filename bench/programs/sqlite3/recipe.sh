# SQLite 3: speedtest1, SQLite's own benchmark (test/speedtest1.c with the amalgamation),
# built with its configure script and Makefile (make speedtest1; tclsh makes the
# amalgamation). speedtest1 prints each test's time: its clock is made to read 0 so that
# the output is the same every run. Runs: in-memory databases, --verify printing a hash of
# every result; training, the main test set (inserts, selects, updates, deletes, indexes,
# joins, text and integer keys); held out, the orm (wide tables, joins) and cte (recursive
# queries: sudoku, Mandelbrot set, EXCEPT) test sets.
package=sqlite3
language=C
domain=database
needs=(tcl)
binary=speedtest1
build() {
  # speedtest1_timestamp() returns 0 (its branch for SQLite < 3.5 is taken).
  local clock='/^sqlite3_int64 speedtest1_timestamp(void){$/,/^}/'
  sed -i "$clock"' s/^#if SQLITE_VERSION_NUMBER<3005000$/#if 1/' test/speedtest1.c
  grep -q '^#if 1$' test/speedtest1.c
  ./configure --disable-shared --disable-tcl --disable-readline --disable-editline
  make speedtest1
}
run=(--memdb --verify --size 5 --testset main)
# shellcheck disable=SC2054 # orm,cte: one argument, a list of test sets
heldout=(--memdb --verify --size 5 --testset orm,cte)
