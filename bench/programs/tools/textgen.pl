#!/usr/bin/perl
# textgen.pl SEED BYTES KINDS: BYTES bytes of data that compress like real files, to
# stdout, the same for the same arguments on every machine (a fixed-seed LCG of our own,
# no rand). KINDS is a comma list of text (English-like prose over a Zipf-distributed
# vocabulary of made-up words), log (syslog-like lines), csv (records of names, prices,
# dates), code (C-like functions) and binary (little-endian packed records); the output is
# chunks of 2 to 64 KB (at most BYTES / 8), each of a kind drawn from KINDS. The arena's
# compression recipes make their inputs with it.
use strict;
use warnings;

my ($seed, $bytes, $kinds) = @ARGV;
die "usage: textgen.pl SEED BYTES KINDS\n" unless defined $kinds && $bytes =~ /^\d+$/;
my @kinds = split /,/, $kinds;
my $s = $seed & 0x7fffffff;
sub rnd { # uniform integer in [0, $_[0])
  $s = ($s * 1103515245 + 12345) & 0x7fffffff;
  return (($s >> 8) % $_[0]);
}
sub zipf { # rank in [0, $_[0]), small ranks far more often
  my $u = (rnd(1 << 20) + 0.5) / (1 << 20);
  return int($_[0] * $u ** 4);
}

# The vocabulary: made-up words from syllables (fixed by the generator, not the seed).
my @syl = qw(an ar be ca de di el en er es fo ga in is ka la le li lo ma me mi mo na
  ne no or pa pe po ra re ri ro sa se si so ta te ti to un ur va ve vi wa ze);
my $t = 12345;
my %seen;
my @words = qw(the of and to a in is that for it as was with be by on not he this are or
  his from at which but have an they you were their one all we can her has there been if
  more when will would who so no);
while (@words < 6000) {
  my $w = '';
  my $n = 1 + ($t % 3) + (($t >> 5) % 2);
  for (1 .. $n) {
    $t = ($t * 1103515245 + 12345) & 0x7fffffff;
    $w .= $syl[($t >> 8) % @syl];
  }
  push @words, $w unless $seen{$w}++;
}
sub word { $words[zipf(scalar @words)] }

my @hosts = map { "node" . $_ } 1 .. 23;
my @services = qw(sshd cron kernel systemd nginx postfix dhclient dockerd);
my @cats = qw(books garden tools toys music food health sport office auto);
my ($time, $id) = (1_600_000_000, 1000);

sub text {
  my $p = '';
  for (1 .. 3 + rnd(6)) {
    my @w = map { word() } 1 .. 4 + rnd(18);
    $w[0] = ucfirst $w[0];
    $w[rnd(scalar @w)] .= ',' if @w > 8 && rnd(2);
    $p .= join(' ', @w) . (rnd(10) ? '. ' : '? ');
  }
  $p =~ s/ $/\n\n/;
  return $p;
}
sub datetime {
  my @t = gmtime($_[0]);
  return sprintf '%04d-%02d-%02d %02d:%02d:%02d', $t[5] + 1900, $t[4] + 1, @t[3, 2, 1, 0];
}
sub ip { join '.', 10, rnd(4), rnd(256), 1 + rnd(254) }
sub log_line {
  $time += rnd(30);
  my $svc = $services[zipf(scalar @services)];
  my $msg = rnd(3) == 0 ? "connection from " . ip() . " port " . (1024 + rnd(64000))
    : rnd(2) ? "session opened for user " . word() . " by (uid=" . rnd(1000) . ")"
    : join(' ', map { word() } 1 .. 3 + rnd(8));
  my $host = $hosts[zipf(scalar @hosts)];
  return datetime($time) . " $host $svc\[" . (100 + rnd(30000)) . "]: $msg\n";
}
sub csv_line {
  $id += 1 + rnd(3);
  my $date = substr(datetime($time + rnd(9_000_000)), 0, 10);
  return join(',', $id, word() . ' ' . word(), sprintf('%d.%02d', rnd(500), rnd(100)),
    rnd(50), $date, $cats[zipf(scalar @cats)]) . "\n";
}
sub code {
  my ($f, $a, $b) = (word() . '_' . word(), word(), word());
  my $c = "static int $f(struct $a *p, int n)\n{\n  int i, total = 0;\n\n";
  for (1 .. 1 + rnd(4)) {
    my $x = word();
    $c .= "  for (i = 0; i < n; i++) {\n    if (p->$x\[i] > " . rnd(100) . ")\n"
      . "      total += $b(p, i);\n    else\n      p->$x\[i] = " . rnd(16) . ";\n  }\n";
  }
  return $c . "  return total;\n}\n\n";
}
sub binary {
  $id += 1 + rnd(3);
  return pack('VvCCVa12', $id, rnd(2000), rnd(4), zipf(256), $time + rnd(100000),
    substr(word() . "\0" x 12, 0, 12));
}
my %make = (text => \&text, log => \&log_line, csv => \&csv_line, code => \&code,
  binary => \&binary);
for (@kinds) { die "textgen.pl: no kind $_\n" unless $make{$_} }

binmode STDOUT;
my ($out, $max) = (0, int($bytes / 8));
$max = $max < 4096 ? 4096 : $max > 65536 ? 65536 : $max; # a few chunks in a small file
while ($out < $bytes) {
  my $make = $make{$kinds[rnd(scalar @kinds)]};
  my $chunk = '';
  my $want = 2048 + rnd($max - 2048);
  $chunk .= $make->() while length($chunk) < $want;
  $chunk = substr($chunk, 0, $bytes - $out) if $out + length($chunk) > $bytes;
  print $chunk;
  $out += length $chunk;
}
