#!/usr/bin/perl
# gen.pl KIND BYTES: an input of the gawk runs, about BYTES long, on stdout; the same bytes
# every time (a fixed Lehmer generator, MINSTD, not Perl's rand).
#   prose   paragraphs of made-up words, their frequencies skewed as a language's are,
#           with punctuation, capitals, numbers and a few UTF-8 words;
#   sales   CSV with a header: date, region, store, product, category, quantity, unit
#           price, discount, customer e-mail and a quoted free-text comment;
#   access  a web server's access log in the combined format.
use strict;
use warnings;
use integer;

my ($kind, $size) = @ARGV;
die "usage: gen.pl prose|sales|access BYTES\n" unless defined $size && $kind =~ /^(prose|sales|access)$/;
binmode STDOUT;
my %seeds = (prose => 1, sales => 2, access => 3);
my $seed = $seeds{$kind} * 7919;
sub rnd { # 0 .. $_[0]-1
  $seed = $seed * 48271 % 2147483647; # exact: the product stays below 2**47
  return $seed % $_[0];
}
sub pick { return $_[rnd(scalar @_)]; }
my $out = 0;
sub put { print $_[0]; $out += length $_[0]; }
my @syl = qw(ka to ri men sa lo ver den il ar pho nu qui sta bel gor ith ex un tra fe mo);
my @words = map { my $w = ''; $w .= pick(@syl) for 0 .. rnd(4); $w } 1 .. 2500;
my @mon = qw(Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec);

if ($kind eq 'prose') {
  my @foreign = ('größe', 'café', 'naïve', 'élan', 'Straße', 'søster', 'año', 'ὅτι', 'мир');
  while ($out < $size) {
    my $p = '';
    for (0 .. 2 + rnd(6)) {
      my @s;
      for (0 .. 3 + rnd(14)) {
        my $r = rnd(40);
        push @s, $r == 0 ? pick(@foreign) : $r == 1 ? rnd(10000) : $words[rnd(1 + rnd(1 + rnd(2500)))];
      }
      $s[0] = ucfirst $s[0];
      $s[rnd(scalar @s)] .= pick(',', ';', ' -') if @s > 6;
      $p .= join(' ', @s) . pick('.', '.', '.', '!', '?') . ' ';
    }
    $p =~ s/ $//;
    # Lines of at most 72 characters, as a text file has.
    $p =~ s/(.{1,72})( |$)/$1\n/g;
    put("$p\n");
  }
} elsif ($kind eq 'sales') {
  my @regions = qw(north south east west central);
  my %category = (apple => 'fruit', pear => 'fruit', plum => 'fruit', kale => 'vegetable',
    leek => 'vegetable', onion => 'vegetable', bread => 'bakery', bagel => 'bakery',
    milk => 'dairy', cheese => 'dairy', yogurt => 'dairy', coffee => 'drinks', tea => 'drinks');
  my @products = sort keys %category;
  put("date,region,store,product,category,quantity,unit_price,discount,customer,comment\n");
  my $day = 0;
  while ($out < $size) {
    $day++ if rnd(40) == 0;
    my ($m, $d) = (1 + ($day / 28) % 12, 1 + $day % 28);
    my $p = pick(@products);
    my $comment = rnd(3) ? '' : join(' ', map { $words[rnd(300)] } 0 .. rnd(8));
    $comment = qq("$comment, $words[rnd(50)]") if rnd(4) == 0;
    put(sprintf("2023-%02d-%02d,%s,S%03d,%s,%s,%d,%d.%02d,%s,%s@%s.example,%s\n", $m, $d,
      pick(@regions), rnd(60), $p, $category{$p}, 1 + rnd(1 + rnd(40)), 1 + rnd(20), rnd(100),
      pick('0', '0', '0', '0.05', '0.1', '0.25'), pick(@words), pick(qw(mail post web)), $comment));
  }
} else {
  my @agents = ('Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/115.0',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
    'curl/7.88.1', 'Wget/1.21.3', 'Googlebot/2.1 (+http://www.google.com/bot.html)',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/114.0 Safari/537.36');
  my @ips = map { join('.', pick(10, 172, 192, 81, 203), rnd(256), rnd(256), 1 + rnd(254)) } 1 .. 300;
  my $t = 1680000000;
  while ($out < $size) {
    $t += rnd(40);
    my ($d, $h, $mi, $s) = (1 + ($t / 86400) % 28, ($t / 3600) % 24, ($t / 60) % 60, $t % 60);
    my $path = pick('/', '/index.html', '/about.html', '/static/site.css', '/static/app.js',
      '/img/' . $words[rnd(200)] . '.png', '/blog/' . $words[rnd(100)] . '/' . $words[rnd(2500)],
      '/search?q=' . $words[rnd(2500)] . '&page=' . rnd(9), '/api/v2/items/' . rnd(5000),
      '/wp-admin/install.php', '/.env');
    my $status = pick(200, 200, 200, 200, 200, 304, 301, 404, 403, 500);
    put(sprintf("%s - %s [%02d/%s/2023:%02d:%02d:%02d +0000] \"%s %s HTTP/%s\" %d %s \"%s\" \"%s\"\n",
      $ips[rnd(1 + rnd(300))], rnd(5) ? '-' : $words[rnd(20)], $d, $mon[($t / 2419200) % 12], $h, $mi, $s,
      pick('GET', 'GET', 'GET', 'GET', 'POST', 'HEAD'), $path, pick('1.1', '1.1', '2.0'), $status,
      $status == 304 ? '-' : 100 + rnd(50000), rnd(3) ? '-' : 'https://www.example.com/' . $words[rnd(100)],
      pick(@agents)));
  }
}
