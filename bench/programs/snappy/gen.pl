#!/usr/bin/perl
# gen.pl KIND BYTES: the input of a Snappy run, about BYTES long, on stdout; the same bytes
# every time (a fixed Lehmer generator, MINSTD, not Perl's rand).
#   text     prose of made-up words, their frequencies skewed as a language's are,
#            between server log lines: the kind of data Snappy is mostly given;
#   records  binary: fixed-size records of slowly changing counters and floats, runs of
#            zeros, and stretches of noise that does not compress.
use strict;
use warnings;
use integer;

my ($kind, $size) = @ARGV;
die "usage: gen.pl text|records BYTES\n" unless defined $size && $kind =~ /^(text|records)$/;
binmode STDOUT;
my $seed = $kind eq 'text' ? 12345 : 67890;
sub rnd { # 0 .. $_[0]-1
  $seed = $seed * 48271 % 2147483647; # exact: the product stays below 2**47
  return $seed % $_[0];
}

my $out = 0;
sub put { print $_[0]; $out += length $_[0]; }

if ($kind eq 'text') {
  my @syl = qw(ka to ri men sa lo ver den il ar pho nu qui sta bel gor ith ex un tra fe mo);
  my @words;
  for (1 .. 3000) {
    my $w = '';
    $w .= $syl[rnd(scalar @syl)] for 0 .. rnd(3);
    push @words, $w;
  }
  my @hosts = map { "node$_" } 1 .. 12;
  my @services = qw(auth cache gateway indexer mailer scheduler);
  my ($t, $line) = (1700000000, 0);
  while ($out < $size) {
    if (rnd(4) == 0) { # a log line
      $t += rnd(5);
      my ($h, $m, $s) = (($t / 3600) % 24, ($t / 60) % 60, $t % 60);
      put(sprintf("%02d:%02d:%02d %s %s[%d]: request id=%08x status=%d bytes=%d path=/%s/%s\n",
        $h, $m, $s, $hosts[rnd(12)], $services[rnd(6)], 1000 + rnd(50), rnd(1 << 24),
        (200, 200, 200, 304, 404, 500)[rnd(6)], rnd(100000), $words[rnd(200)], $words[rnd(3000)]));
    } else { # a paragraph
      my $p = '';
      for my $sentence (0 .. 2 + rnd(5)) {
        my @s;
        for (0 .. 4 + rnd(12)) {
          # Skewed: small indices (common words) far more often.
          push @s, $words[rnd(1 + rnd(1 + rnd(3000)))];
        }
        $s[0] = ucfirst $s[0];
        $p .= join(' ', @s) . (rnd(5) ? '. ' : ', ' . $words[rnd(50)] . '? ');
      }
      put("$p\n\n");
    }
  }
} else {
  my @counter = (0) x 8;
  while ($out < $size) {
    my $what = rnd(10);
    if ($what < 6) { # a run of records
      for (0 .. 20 + rnd(200)) {
        $counter[$_] += rnd(1 << ($_ * 2)) for 0 .. 7;
        put(pack('V8 v2 d', @counter, rnd(4), rnd(65536), $counter[3] / 7));
      }
    } elsif ($what < 8) { # noise
      put(pack('V*', map { rnd(1 << 24) * 256 + rnd(256) } 0 .. 64 + rnd(512)));
    } elsif ($what < 9) { # zeros
      put("\0" x (16 + rnd(4096)));
    } else { # a short table of names and numbers
      put(join('', map { sprintf("%-12s%10d%8.3f\n", "item" . rnd(500), rnd(1000000), rnd(100000) / 1000) } 0 .. rnd(40)));
    }
  }
}
