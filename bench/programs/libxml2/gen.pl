#!/usr/bin/perl
# gen.pl KIND COUNT: a document of the xmllint runs on stdout; the same bytes every time
# (a fixed Lehmer generator, MINSTD, not Perl's rand).
#   catalog  COUNT books in sections, with an internal DTD subset (IDs and IDREFs,
#            enumerated and defaulted attributes, entities), mixed content, comments,
#            CDATA, character references and UTF-8 text; its people are XIncludes of
#            authors.xml through XPointer expressions;
#   authors  COUNT authors (a DTD of their own), what catalog's XIncludes select from;
#   orders   COUNT orders and their customers in two namespaces, for orders.xsd.
use strict;
use warnings;
use integer;

my ($kind, $count) = @ARGV;
die "usage: gen.pl catalog|authors|orders COUNT\n" unless defined $count && $kind =~ /^(catalog|authors|orders)$/;
binmode STDOUT;
my %seeds = (catalog => 11, authors => 12, orders => 13);
my $seed = $seeds{$kind} * 104729;
sub rnd { # 0 .. $_[0]-1
  $seed = $seed * 48271 % 2147483647; # exact: the product stays below 2**47
  return $seed % $_[0];
}
sub pick { return $_[rnd(scalar @_)]; }
my @syl = qw(ka to ri men sa lo ver den il ar pho nu qui sta bel gor ith ex un tra);
my @words = map { my $w = ''; $w .= pick(@syl) for 0 .. rnd(3); $w } 1 .. 1500;
sub word { return $words[rnd(1 + rnd(1500))]; }
sub name { return ucfirst(word()) . ' ' . ucfirst(word()); }
sub words { return join(' ', map { word() } 1 .. $_[0]); }
my @countries = qw(de fr gb us jp gr es it);

if ($kind eq 'catalog') {
  print <<'DTD';
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE catalog [
<!ELEMENT catalog (meta, section+, people)>
<!ATTLIST catalog
  xmlns:xi CDATA #FIXED "http://www.w3.org/2001/XInclude"
  version CDATA #REQUIRED
  lang (en|de|fr) "en">
<!ELEMENT meta (title, updated, note*)>
<!ELEMENT title (#PCDATA)>
<!ELEMENT updated (#PCDATA)>
<!ELEMENT note (#PCDATA | em | ref)*>
<!ELEMENT em (#PCDATA)>
<!ELEMENT ref EMPTY>
<!ATTLIST ref to IDREF #REQUIRED>
<!ELEMENT section (heading, book*)>
<!ATTLIST section id ID #REQUIRED topic NMTOKEN #IMPLIED>
<!ELEMENT heading (#PCDATA)>
<!ELEMENT book (title, author+, year, price, isbn?, tags?, summary)>
<!ATTLIST book
  id ID #REQUIRED
  format (hardcover|paperback|ebook) "paperback"
  available (yes|no) "yes"
  series IDREF #IMPLIED>
<!ELEMENT author (#PCDATA)>
<!ELEMENT year (#PCDATA)>
<!ELEMENT price (#PCDATA)>
<!ATTLIST price currency (EUR|USD|GBP) "EUR">
<!ELEMENT isbn (#PCDATA)>
<!ELEMENT tags (tag+)>
<!ELEMENT tag (#PCDATA)>
<!ELEMENT summary (#PCDATA | em | ref)*>
<!ELEMENT people (xi:include+)>
<!ELEMENT xi:include EMPTY>
<!ATTLIST xi:include href CDATA #REQUIRED xpointer CDATA #IMPLIED parse (xml|text) "xml">
<!ENTITY pub "Imaginary Press">
<!ENTITY copy "&#169;">
<!ENTITY checked "checked by the &pub; editors &copy; 2023">
]>
DTD
  print qq(<catalog version="2.1" lang="en">\n);
  print qq(  <meta><title>The &pub; catalogue</title><updated>2023-06-01</updated>\n);
  print qq(    <note>All prices in <em>euros</em> unless stated; entries &checked;.</note></meta>\n);
  my ($book, $section) = (0, 0);
  while ($book < $count) {
    $section++;
    print qq(  <section id="s$section") . (rnd(2) ? ' topic="' . word() . '"' : '') . ">\n";
    print '    <heading>' . ucfirst(words(1 + rnd(3))) . "</heading>\n";
    for (0 .. 5 + rnd(40)) {
      last if $book >= $count;
      $book++;
      my $attrs = qq( id="b$book");
      $attrs .= ' format="' . pick(qw(hardcover paperback ebook)) . '"' if rnd(2);
      $attrs .= ' available="no"' if rnd(8) == 0;
      $attrs .= ' series="b' . (1 + rnd($book - 1)) . '"' if $book > 1 && rnd(6) == 0;
      print "    <book$attrs>\n";
      print '      <title>' . ucfirst(words(1 + rnd(5))) . pick('', '', '', ' &amp; ' . word(), ': caf&#233; ' . word(), ' — ' . word(), ' über ' . word()) . "</title>\n";
      print '      <author>' . name() . "</author>\n" for 0 .. rnd(3) / 2;
      print '      <year>' . (1900 + rnd(124)) . "</year>\n";
      my $cur = pick('', '', '', ' currency="USD"', ' currency="GBP"');
      printf("      <price%s>%d.%02d</price>\n", $cur, 3 + rnd(80), rnd(100));
      printf("      <isbn>978-%d-%05d-%03d-%d</isbn>\n", rnd(10), rnd(100000), rnd(1000), rnd(10)) if rnd(4);
      print '      <tags>' . join('', map { '<tag>' . word() . '</tag>' } 0 .. rnd(4)) . "</tags>\n" if rnd(3);
      my $summary = words(8 + rnd(30));
      $summary =~ s/(\w+)/<em>$1<\/em>/ if rnd(3) == 0;
      $summary .= ' See <ref to="b' . (1 + rnd($book)) . '"/>.' if rnd(4) == 0;
      $summary .= ' <![CDATA[x < y && "quoted"]]>' if rnd(10) == 0;
      $summary .= ' &pub;' if rnd(10) == 0;
      print "      <!-- " . word() . " -->\n" if rnd(20) == 0;
      print "      <summary>$summary</summary>\n    </book>\n";
    }
    print "  </section>\n";
  }
  print "  <people>\n";
  # XPointer expressions, XPath 1.0: predicates, functions, axes.
  my @pointers = (
    "/authors/author[\@country='de'][position() &lt;= 40]",
    "//author[starts-with(name, 'Ka') and \@born &lt; 1960]",
    "//author[count(book) &gt;= 3][last()]",
    "//author[contains(bio, 'menka') or contains(bio, 'stabel')]",
    "//author[\@country='jp']/name",
    "//author[string-length(name) &gt; 14][\@country != 'us'][position() mod 7 = 1]",
    "//author[book/\@year = 1999]",
    "//author[not(\@born)]",
    "(//author[\@country='gr'])[position() &gt; 10 and position() &lt; 30]",
    "//book[\@year &gt; 2015]/ancestor::author[1]/name",
    "//author[translate(substring(name, 1, 1), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') = 'g']",
    "//author[sum(book/\@copies) &gt; 20000]",
    "//author[normalize-space(bio) != bio]",
    "//author[following-sibling::author[1]/\@country = \@country]",
    "id(concat('a', 7 * 11, ' a', 2 * 77, ' a', 1000))/name");
  for my $p (@pointers) {
    print qq(    <xi:include href="authors.xml" xpointer="xpointer($p)"/>\n);
  }
  print "  </people>\n</catalog>\n";
} elsif ($kind eq 'authors') {
  print <<'DTD';
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE authors [
<!ELEMENT authors (author*)>
<!ELEMENT author (name, book+, bio)>
<!ATTLIST author id ID #REQUIRED country (de|fr|gb|us|jp|gr|es|it) #REQUIRED born CDATA #IMPLIED>
<!ELEMENT name (#PCDATA)>
<!ELEMENT book (#PCDATA)>
<!ATTLIST book year CDATA #REQUIRED copies CDATA "0">
<!ELEMENT bio (#PCDATA)>
]>
<authors>
DTD
  for my $i (1 .. $count) {
    my $born = rnd(10) ? ' born="' . (1900 + rnd(100)) . '"' : '';
    print qq(  <author id="a$i" country=") . pick(@countries) . qq("$born>\n);
    print '    <name>' . name() . "</name>\n";
    for (0 .. rnd(5)) {
      printf(qq(    <book year="%d" copies="%d">%s</book>\n), 1950 + rnd(74), rnd(10000), ucfirst(words(1 + rnd(4))));
    }
    print '    <bio>' . words(5 + rnd(20)) . (rnd(5) ? '' : "\n      " . words(3)) . "</bio>\n  </author>\n";
  }
  print "</authors>\n";
} else {
  print qq(<?xml version="1.0" encoding="UTF-8"?>\n);
  print qq(<orders xmlns="urn:example:orders" xmlns:a="urn:example:address" generated="2023-06-01T12:00:00Z">\n);
  my $customers = $count / 4 + 1;
  my @cities = ('Berlin', 'München', 'Lyon', 'Leeds', 'Αθήνα', 'Kyōto', 'Sevilla', 'Torino');
  for my $c (1 .. $customers) {
    my $country = uc pick(@countries);
    print qq(  <customer id="C$c" since="20) . sprintf('%02d-%02d-%02d', 10 + rnd(13), 1 + rnd(12), 1 + rnd(28)) . qq(">\n);
    print '    <name>' . name() . "</name>\n";
    printf("    <a:address><a:street>%s %d</a:street><a:city>%s</a:city><a:zip>%05d</a:zip><a:country>%s</a:country></a:address>\n",
      ucfirst(word()) . pick('straße', ' Road', ' Street', ' Way'), 1 + rnd(200), pick(@cities), rnd(100000), $country);
    print '    <email>' . word() . '.' . word() . '@' . pick(qw(example.org mail.example.net example.co.uk)) . "</email>\n" if rnd(5);
    print "    <phone type=\"" . pick(qw(home mobile work)) . '">+' . (1 + rnd(98)) . ' ' . (100000 + rnd(900000)) . "</phone>\n" for 1 .. rnd(3);
    print "  </customer>\n";
  }
  for my $o (1 .. $count) {
    printf(qq(  <order number="%d" customer="C%d" date="2023-%02d-%02d" status="%s"%s>\n), 100000 + $o,
      1 + rnd($customers), 1 + rnd(12), 1 + rnd(28), pick(qw(new paid shipped delivered returned)),
      rnd(4) ? '' : ' priority="' . pick(qw(low high)) . '"');
    for (0 .. rnd(6)) {
      printf(qq(    <line sku="%s%s-%04d" qty="%d"><price currency="%s">%d.%02d</price><description>%s</description></line>\n),
        pick('A' .. 'Z'), pick('A' .. 'Z'), rnd(10000), 1 + rnd(9), pick(qw(EUR EUR USD GBP)), rnd(500), rnd(100),
        ucfirst(words(1 + rnd(6))));
    }
    if (rnd(3)) {
      printf(qq(    <shipping method="%s" cost="%d.%02d"/>\n), pick(qw(standard express pickup)), rnd(20), rnd(100));
    } else {
      printf(qq(    <download url="https://files.example.com/%s/%d" expires="2024-%02d-%02d"/>\n), word(), rnd(100000), 1 + rnd(12), 1 + rnd(28));
    }
    print '    <note lang="' . pick(qw(en de fr el)) . '">' . words(3 + rnd(12)) . "</note>\n" if rnd(3) == 0;
    print "  </order>\n";
  }
  print "</orders>\n";
}
