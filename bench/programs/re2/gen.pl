#!/usr/bin/perl
# gen.pl KIND BYTES: the input of an RE2 run, about BYTES long, on stdout; the same bytes
# every time (a fixed Lehmer generator, MINSTD, not Perl's rand).
#   logs     a server's logs: sshd lines, application lines with key=value pairs, web
#            access lines and kernel lines, mixed;
#   records  orders, one a line (number, date, name, e-mail, phone, URL, amount, status),
#            between notes and replies in several scripts (UTF-8).
use strict;
use warnings;
use integer;

my ($kind, $size) = @ARGV;
die "usage: gen.pl logs|records BYTES\n" unless defined $size && $kind =~ /^(logs|records)$/;
binmode STDOUT;
my $seed = $kind eq 'logs' ? 4242 : 777;
sub rnd { # 0 .. $_[0]-1
  $seed = $seed * 48271 % 2147483647; # exact: the product stays below 2**47
  return $seed % $_[0];
}
sub pick { return $_[rnd(scalar @_)]; }
sub ip { return join('.', pick(10, 10, 192, 172), rnd(256), rnd(256), 1 + rnd(254)); }

my $out = 0;
sub put { print $_[0]; $out += length $_[0]; }
my @mon = qw(Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec);
my @syl = qw(ka to ri men sa lo ver den il ar pho nu qui sta bel gor ith ex un tra);
my @words = map { my $w = ''; $w .= pick(@syl) for 0 .. rnd(3); $w } 1 .. 400;
my $t = 1678000000;

if ($kind eq 'logs') {
  my @users = map { "user$_" } 1 .. 40;
  my @levels = qw(INFO INFO INFO DEBUG WARN ERROR);
  my @services = qw(gateway auth cache indexer mailer scheduler);
  my @agents = ('Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/110.0',
    'curl/7.88.1', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36',
    'Googlebot/2.1 (+http://www.google.com/bot.html)');
  while ($out < $size) {
    $t += rnd(3);
    my ($d, $h, $m, $s) = (1 + ($t / 86400) % 28, ($t / 3600) % 24, ($t / 60) % 60, $t % 60);
    my $mo = $mon[($t / 2419200) % 12];
    my $kind = rnd(10);
    if ($kind < 2) {
      my $host = 'node' . rnd(8);
      my $msg = pick(
        sprintf('Accepted publickey for %s from %s port %d ssh2', pick(@users), ip(), 1024 + rnd(60000)),
        sprintf('Failed password for %s%s from %s port %d ssh2', rnd(3) ? '' : 'invalid user ',
          pick(@users, qw(admin root oracle test)), ip(), 1024 + rnd(60000)),
        sprintf('Connection closed by %s port %d [preauth]', ip(), 1024 + rnd(60000)),
        sprintf('pam_unix(sshd:session): session opened for user %s(uid=%d)', pick(@users), 1000 + rnd(40)));
      put(sprintf("%s %2d %02d:%02d:%02d %s sshd[%d]: %s\n", $mo, $d, $h, $m, $s, $host, 300 + rnd(9000), $msg));
    } elsif ($kind < 6) {
      my $level = pick(@levels);
      my $msg = pick('request done', 'request done', 'cache miss', 'upstream timeout',
        'retrying connection', 'slow query', 'Timeout waiting for lock');
      my $kv = sprintf('id=%08x status=%d bytes=%d latency_ms=%d', rnd(1 << 30),
        pick(200, 200, 200, 201, 304, 404, 500, 503), rnd(200000), rnd(rnd(5000) + 1));
      $kv .= sprintf(' user=%s', pick(@users)) if rnd(2);
      $kv .= sprintf(' path=/api/v%d/%s/%d', 1 + rnd(2), pick(@words), rnd(10000)) if rnd(3);
      put(sprintf("2023-%02d-%02dT%02d:%02d:%02d.%03dZ %-5s %s %s %s\n", 1 + ($t / 2419200) % 12, $d,
        $h, $m, $s, rnd(1000), $level, pick(@services), $msg, $kv));
    } elsif ($kind < 9) {
      my $path = pick('/index.html', '/static/css/site.css', '/static/img/' . pick(@words) . '.png',
        '/wp-login.php', '/api/v1/items?page=' . rnd(50) . '&sort=' . pick(@words),
        '/blog/' . pick(@words) . '-' . pick(@words) . '.html', '/robots.txt');
      put(sprintf("%s - %s [%02d/%s/2023:%02d:%02d:%02d +0000] \"%s %s HTTP/1.1\" %d %s \"-\" \"%s\"\n",
        ip(), rnd(4) ? '-' : pick(@users), $d, $mo, $h, $m, $s, pick(qw(GET GET GET POST HEAD)),
        $path, pick(200, 200, 200, 304, 404, 403, 500), rnd(5) ? rnd(100000) : '-', pick(@agents)));
    } else {
      my $msg = pick(sprintf('eth%d: link %s, %d Mbps, full duplex', rnd(3), pick('up', 'down'),
          pick(100, 1000, 10000)),
        sprintf('usb %d-%d: new high-speed USB device number %d using xhci_hcd', 1 + rnd(4), 1 + rnd(8), rnd(128)),
        sprintf('EXT4-fs (sda%d): mounted filesystem with ordered data mode', 1 + rnd(4)),
        sprintf('Out of memory: Killed process %d (%s)', 1000 + rnd(30000), pick(@words)));
      put(sprintf("[%6d.%06d] %s\n", $t - 1678000000, rnd(1000000), $msg));
    }
  }
} else {
  my @first = ('Ana', 'Björn', 'Chloé', 'Dmitri', 'Eleni', 'François', 'Günther', 'Hana',
    'Ingrid', 'José', 'Katarzyna', 'Lars', 'María', 'Nikos', 'Olga', 'Pierre', 'Zoë');
  my @last = ('Müller', 'Andersson', 'Dubois', 'Ivanov', 'Papadopoulou', 'García', 'Nowak',
    'Rossi', 'Schröder', 'Straße', 'Kowalski', 'Økland', 'Jensen', 'Smith', 'Ōta');
  my @domains = qw(example.org mail.example.net shop.example.com post.example.de example.co.uk);
  my @foreign = ('πελάτης', 'παραγγελία', 'Αθήνα', 'заказ', 'доставка', 'Москва', 'Lieferung',
    'größe', 'commande', 'reçu', 'ürün', 'İstanbul', 'zamówienie', 'Kraków');
  my @status = qw(new paid shipped delivered returned cancelled);
  my $order = 10000;
  while ($out < $size) {
    $t += rnd(5000);
    my ($y, $mo, $d) = (2020 + ($t / 31536000) % 4, 1 + ($t / 2592000) % 12, 1 + ($t / 86400) % 28);
    my ($f, $l) = (pick(@first), pick(@last));
    my $mail = lc(substr($f, 0, 1)) . rnd(100) . '.' . pick(@words) . '@' . pick(@domains);
    $mail =~ s/[^\x00-\x7f]/x/g;
    my $kind = rnd(10);
    if ($kind < 6) {
      $order += 1 + rnd(3);
      put(sprintf("#%d | %04d-%02d-%02d | %s %s <%s> | +%d %d %d | %s://%s/item/%d?ref=%s&qty=%d | %s %d.%02d | status: %s\n",
        $order, $y, $mo, $d, $f, $l, $mail, pick(30, 33, 44, 49, 48, 7, 1), 10 + rnd(90),
        100000 + rnd(9000000), pick('https', 'https', 'http'), pick(@domains), rnd(10000),
        pick(qw(mail ad search direct)), 1 + rnd(5), pick(qw(EUR EUR USD GBP)), rnd(1000), rnd(100),
        pick(@status)));
    } elsif ($kind < 9) {
      my @note = map { rnd(4) ? pick(@words) : pick(@foreign) } 0 .. 5 + rnd(20);
      $note[0] = ucfirst $note[0];
      put(sprintf("Note: %s %s wrote on %04d-%02d-%02d: %s.\n", $f, $l, $y, $mo, $d, join(' ', @note)));
    } else {
      put(sprintf("Re: order #%d - please contact %s or see https://%s/help/%s, tel. +%d %d %d\n",
        $order - rnd(100), $mail, pick(@domains), pick(@words), pick(30, 49, 44), 10 + rnd(90), 100000 + rnd(900000)));
    }
  }
}
