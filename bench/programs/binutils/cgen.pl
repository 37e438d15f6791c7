#!/usr/bin/perl
# cgen.pl SEED FUNCTIONS ARCH: a C file of FUNCTIONS generated functions, to stdout, the
# same for the same arguments on every machine (a fixed-seed LCG of our own, no rand), for
# objdump to disassemble once clang has compiled it. Self-contained (no #include: it
# compiles for any target without its C library). The functions are of varied kinds:
# integer loops over random expressions, switches (jump tables and compare trees),
# floating-point recurrences, vectorizable loops, bit tricks, linked structures, string
# scanning with printf calls, table lookups, calls through function-pointer tables and
# calls to earlier functions; each of a random size. ARCH (x86 or other) picks the target
# attributes of some loops (x86: AVX2/FMA, AVX-512, AVX and SSE4.2 code).
use strict;
use warnings;

my ($seed, $count, $arch) = @ARGV;
die "usage: cgen.pl SEED FUNCTIONS ARCH\n"
  unless defined $arch && $count =~ /^\d+$/ && $arch =~ /^(x86|other)$/;
my $s = $seed & 0x7fffffff;
sub rnd { # uniform integer in [0, $_[0])
  $s = ($s * 1103515245 + 12345) & 0x7fffffff;
  return (($s >> 8) % $_[0]);
}
sub pick { $_[rnd(scalar @_)] }
sub const { pick(1, 3, 7, 13, 0x55, 255, 1000, 0x7fff) + rnd(100000) }
sub shift_amount { 1 + rnd(30) }

# An integer expression over VARS, DEPTH levels deep.
sub iexpr {
  my ($depth, @vars) = @_;
  return rnd(5) ? pick(@vars) : const() if $depth == 0 || rnd(5) == 0;
  my $op = pick('+', '-', '*', '^', '&', '|', '<<', '>>', '+', '^', '/', '%');
  my $l = iexpr($depth - 1, @vars);
  if ($op eq '<<' || $op eq '>>') { return "($l $op " . shift_amount() . ")" }
  if ($op eq '/' || $op eq '%') { return "($l $op " . (2 + rnd(997)) . ")" }
  return "($l $op " . iexpr($depth - 1, @vars) . ")";
}
# A floating-point expression over VARS.
sub fexpr {
  my ($depth, @vars) = @_;
  return rnd(3) ? pick(@vars) : sprintf('%d.%03d', rnd(100), rnd(1000))
    if $depth == 0 || rnd(5) == 0;
  my $k = rnd(9);
  return "sqrt(fabs(" . fexpr($depth - 1, @vars) . "))" if $k == 0;
  return "floor(" . fexpr($depth - 1, @vars) . ")" if $k == 1;
  my $op = pick('+', '-', '*', '/', '+', '*');
  return "(" . fexpr($depth - 1, @vars) . " $op " . fexpr($depth - 1, @vars) . ")";
}

my @words = qw(alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega
  record buffer value count total error warning index offset length header block
  entry symbol section segment table string number vector matrix stream);
my @x86 = ('avx2,fma', 'avx512f,avx512bw,avx512vl', 'sse4.2', 'avx');

print <<'EOF';
typedef unsigned long size_t;
extern void *memcpy(void *, const void *, size_t);
extern void *memset(void *, int, size_t);
extern int printf(const char *, ...);
extern int puts(const char *);
extern double sqrt(double);
extern double fabs(double);
extern double floor(double);
struct rec { int id; short kind; char name[24]; double val; struct rec *next; };
long g_l[256];
double g_d[256];
float g_f[256];
char g_buf[4096];
struct rec g_recs[64];
EOF

my %by_kind; # the functions made so far, by kind, for calls to call
for my $n (0 .. $count - 1) {
  my $f = sprintf 'f%05d', $n;
  my $kind = pick(qw(iloop iloop switch switch fp vec bits rec str table calls calls));
  my $size = 1 + rnd(6);
  if ($kind eq 'iloop') {
    print "long $f(long *a, int n, long k) {\n  long s = " . const() . ";\n";
    print "  for (int i = 0; i < n; i++) {\n";
    print "    long x = " . iexpr(3, 'a[i]', 'k', 'i', 's') . ";\n";
    for (1 .. $size) {
      my $cmp = pick('<', '>', '==', '!=');
      print "    if (x $cmp " . const() . ") s += " . iexpr(2, 'x', 's', 'k', 'i') . ";\n";
      print "    else s ^= " . iexpr(2, 'x', 's', 'a[i]') . ";\n";
      print "    x = " . iexpr(2, 'x', 's', 'k') . ";\n";
    }
    print "    a[i] = x;\n  }\n  return s;\n}\n";
  } elsif ($kind eq 'switch') {
    my $cases = 4 + rnd(8 * $size);
    my $sparse = rnd(3) == 0;
    my $v = 0;
    print "int $f(int x, int y) {\n  switch (x) {\n";
    for my $c (0 .. $cases - 1) {
      $v = $sparse ? $v + 2 + rnd(90) : $c;
      print "  case $v: ";
      if (rnd(3)) { print "return " . iexpr(2, 'y', 'x') . ";\n" }
      else { print "y = " . iexpr(2, 'y', 'x') . "; break;\n" }
    }
    print "  default: return " . iexpr(1, 'y') . ";\n  }\n";
    print "  return y + " . rnd(100) . ";\n}\n";
  } elsif ($kind eq 'fp') {
    print "double $f(const double *v, int n, double k) {\n";
    print "  double acc = " . fexpr(1, 'k') . ";\n";
    print "  for (int i = 0; i < n; i++) {\n";
    for (1 .. $size) {
      print "    acc = " . fexpr(3, 'acc', 'v[i]', 'k', '(double)i') . ";\n";
      print "    if (acc > " . rnd(100000) . ".5) acc = " . fexpr(2, 'acc', 'k') . ";\n";
    }
    print "  }\n  return acc;\n}\n";
  } elsif ($kind eq 'vec') {
    my $attr = '';
    $attr = "__attribute__((target(\"" . pick(@x86) . "\"))) " if $arch eq 'x86' && rnd(2);
    my $t = pick('float', 'double', 'int', 'short');
    my @terms = ('a[i] * c', 'b[i]', 'b[i] * b[i]', 'c', 'a[i] - b[i]');
    my $ops = join ' + ', map { pick(@terms) } 1 .. $size;
    print "${attr}void $f($t *restrict a, const $t *restrict b, int n, $t c) {\n";
    print "  for (int i = 0; i < n; i++) a[i] = $ops;\n}\n";
  } elsif ($kind eq 'bits') {
    print "unsigned $f(unsigned x, unsigned y) {\n";
    for (1 .. $size) {
      my $rot = "(x << " . shift_amount() . ") | (x >> 3)";
      my $mask = sprintf '(x & 0x%x) | (y >> %d)', const(), shift_amount();
      print "  x = " . pick("__builtin_popcount(x) + y", $rot, "__builtin_bswap32(x) ^ y",
        "x ? __builtin_ctz(x) * y : y", $mask, "x * 0x9e3779b9u + y") . ";\n";
      print "  y = " . iexpr(2, 'x', 'y') . ";\n";
    }
    print "  return x ^ y;\n}\n";
  } elsif ($kind eq 'rec') {
    print "long $f(struct rec *r, int n) {\n  long t = 0;\n";
    print "  for (; r && n > 0; r = r->next, n--) {\n";
    for (1 .. $size) {
      print "    if (r->kind == " . rnd(8) . ") {\n";
      print "      r->val += " . fexpr(1, 'r->val') . ";\n      t += r->id;\n    }\n";
      print "    else if (r->name[" . rnd(24) . "] == '" . chr(97 + rnd(26)) . "')\n";
      print "      memcpy(r->name, \"" . pick(@words) . "\", " . (2 + rnd(5)) . ");\n";
      print "    else t ^= (long)r->val * " . const() . ";\n";
    }
    print "  }\n  return t;\n}\n";
  } elsif ($kind eq 'str') {
    print "int $f(char *buf, int n) {\n  int k = 0;\n  for (int i = 0; i < n; i++) {\n";
    for (1 .. $size) {
      my $c = chr(97 + rnd(26));
      print "    if (buf[i] == '$c') {\n      k += " . rnd(50) . ";\n";
      print "      buf[i] = '" . chr(65 + rnd(26)) . "';\n    }\n";
    }
    print "  }\n  if (k > " . rnd(500) . ")\n";
    my $text = join ' ', map { pick(@words) } 0 .. rnd(4);
    print "    printf(\"$text %d %s\\n\", k, buf);\n";
    print "  else puts(\"" . pick(@words) . ' ' . pick(@words) . "\");\n";
    print "  return k;\n}\n";
  } elsif ($kind eq 'table') {
    my $len = 8 << rnd(4);
    my $t = pick('short', 'int', 'long', 'unsigned char');
    print "static const $t t$f\[$len] = {" . join(', ', map { rnd(120) } 1 .. $len);
    print "};\n";
    print "long $f(int i, long x) {\n  long r = x;\n";
    print "  r += t$f\[(i + $_) & " . ($len - 1) . "] * " . const() . ";\n" for 1 .. $size;
    print "  return r ^ g_l[i & 255];\n}\n";
  } else { # calls: to earlier functions, directly and through a table
    my @callees = grep { $by_kind{$_} } qw(iloop switch fp bits table);
    if (!@callees) { # none yet
      $kind = 'bits';
      print "unsigned $f(unsigned x, unsigned y) { return x + y; }\n";
    } else {
      print "long $f(long x) {\n  long r = x;\n";
      for (1 .. 2 * $size) {
        my $k = pick(@callees);
        my $g = pick(@{$by_kind{$k}});
        print "  r += $g(g_l, (int)(x & 63), r);\n" if $k eq 'iloop';
        print "  r ^= $g((int)(r & 31), (int)x);\n" if $k eq 'switch';
        print "  r += (long)$g(g_d, (int)(x & 31), (double)r);\n" if $k eq 'fp';
        print "  r -= $g((unsigned)r, (unsigned)x);\n" if $k eq 'bits';
        print "  r = $g((int)r, x);\n" if $k eq 'table';
      }
      if ($by_kind{table} && @{$by_kind{table}} >= 4) {
        my @t = map { pick(@{$by_kind{table}}) } 1 .. 4;
        print "  static long (*const p[4])(int, long) = {" . join(', ', @t) . "};\n";
        print "  r = p[r & 3]((int)x, r);\n";
      }
      print "  return r;\n}\n";
    }
  }
  push @{$by_kind{$kind}}, $f;
}
