// re2-bench: the arena's driver of RE2 (bench/programs/re2/recipe.sh), since the library
// has no program of its own. Usage: re2-bench MODE FILE [ROUNDS].
// MODE is a set of regular expressions of ours for one kind of text, so that the held-out
// run compiles and matches other patterns, on another input, than the training run:
//   logs     server logs: an RE2::Set classifying each line, the lines of each format
//            parsed into typed captures, key=value pairs walked with FindAndConsume,
//            addresses and ids masked with GlobalReplace, whole-text multi-line scans;
//   records  orders and notes (UTF-8): records parsed with FullMatch, e-mail addresses,
//            URLs and query strings extracted, Unicode classes and case folding, dates
//            rewritten, an anchored Set, a large case-insensitive alternation, and
//            patterns compiled from the data (QuoteMeta).
// The whole is done ROUNDS times (default 1); prints counts and checksums, the same on
// every run and for every policy.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "re2/re2.h"
#include "re2/set.h"

namespace {

using re2::RE2;
using re2::StringPiece;

uint64_t fnv1a(uint64_t h, StringPiece s) {
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

// The lines of text, without their newlines.
std::vector<StringPiece> lines_of(const std::string& text) {
  std::vector<StringPiece> lines;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    lines.emplace_back(text.data() + at, end - at);
    at = end + 1;
  }
  return lines;
}

void check(const RE2& re) {
  if (!re.ok()) {
    std::fprintf(stderr, "re2-bench: bad pattern %s: %s\n", re.pattern().c_str(), re.error().c_str());
    std::exit(2);
  }
}

// Counts by name, printed in order.
std::map<std::string, long long> counts;
uint64_t checksum = 0xcbf29ce484222325ULL;

void logs(const std::string& text) {
  static const char* const kinds[] = {
      R"(sshd\[\d+\]: Failed)", R"(sshd\[\d+\]: Accepted)", R"(\bERROR\b)", R"(\bWARN\b)",
      R"(" 5\d\d )", R"(" 40[34] )", R"(link (up|down))", R"((?i)time-?out)",
      R"(usb \d+-\d+)", R"(latency_ms=\d{4,})", R"(\.php\b)", R"(Out of memory)"};
  RE2::Set set(RE2::DefaultOptions, RE2::UNANCHORED);
  for (const char* k : kinds)
    if (set.Add(k, nullptr) < 0) std::exit(2);
  if (!set.Compile()) std::exit(2);
  RE2 access(R"(^(\d+\.\d+\.\d+\.\d+) \S+ (\S+) \[(\d+)/(\w+)/(\d+):(\d+):(\d+):(\d+) [^\]]*\] "(\w+) ([^ "?]+)(\?\S*)? HTTP/[\d.]+" (\d+) (\d+|-))");
  RE2 app(R"((\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d+)Z (\w+) +(\w+) ([^=]*) (\w+=.*))");
  RE2 pair(R"((\w+)=(\S+))");
  RE2 number(R"((\d+))");
  RE2 sshd(R"((Accepted|Failed) (\w+) for (invalid user )?(\w+) from ([\d.]+) port (\d+))");
  RE2 session(R"(session opened for user (\w+)\(uid=(\d+)\))");
  RE2 address(R"(\b(\d+)\.(\d+)\.\d+\.\d+\b)");
  RE2 id(R"(\b[0-9a-f]{8}\b)");
  RE2 kernel(R"((?m)^\[\s*(\d+)\.(\d+)\] ([\w-]+(?: \d+-\d+)?(?: \(\w+\))?):)");
  RE2 error_line(R"((?m)^.*\b(?:ERROR|Failed|Out of memory)\b.*$)");
  for (const RE2* re : {&access, &app, &pair, &number, &sshd, &session, &address, &id, &kernel, &error_line})
    check(*re);

  std::vector<int> hits;
  std::map<std::string, long long> methods, levels, keys;
  for (StringPiece line : lines_of(text)) {
    hits.clear();
    if (set.Match(line, &hits))
      for (int h : hits) counts[std::string("set ") + kinds[h]]++;
    std::string ip, user, month, method, path, query, bytes, year, level, service, message;
    int day, hour, minute, second, status, port, ms, mon, yr;
    StringPiece rest;
    if (RE2::PartialMatch(line, access, &ip, &user, &day, &month, &yr, &hour, &minute, &second,
                          &method, &path, &query, &status, &bytes)) {
      methods[method]++;
      counts["access status sum"] += status;
      counts["access bytes"] += bytes == "-" ? 0 : std::atoll(bytes.c_str());
      counts["access query"] += !query.empty();
      checksum = fnv1a(checksum, path);
    } else if (RE2::FullMatch(line, app, &year, &mon, &day, &hour, &minute, &second, &ms, &level,
                              &service, &message, &rest)) {
      levels[level]++;
      StringPiece key, value;
      while (RE2::FindAndConsume(&rest, pair, &key, &value)) {
        keys[std::string(key)]++;
        long long n;
        if (RE2::FullMatch(value, number, &n)) counts["app numbers"] += n % 1000;
      }
    } else if (RE2::PartialMatch(line, sshd, &method, &user, &query, &service, &ip, &port)) {
      counts["sshd " + method]++;
      counts["sshd invalid"] += !query.empty();
      counts["sshd port sum"] += port;
    } else if (RE2::PartialMatch(line, session, &user, &port)) {
      counts["sshd sessions"]++;
    }
    std::string masked(line);
    counts["masked addresses"] += RE2::GlobalReplace(&masked, address, R"(\1.\2.x.x)");
    counts["masked ids"] += RE2::GlobalReplace(&masked, id, "<id>");
    checksum = fnv1a(checksum, masked);
  }
  // Whole-text scans, line anchors in multi-line mode.
  StringPiece all(text), device, seconds, micros;
  while (RE2::FindAndConsume(&all, kernel, &seconds, &micros, &device)) {
    counts["kernel lines"]++;
    checksum = fnv1a(checksum, device);
  }
  all = text;
  while (RE2::FindAndConsume(&all, error_line)) counts["error lines"]++;
  for (auto& m : methods) counts["method " + m.first] = m.second;
  for (auto& l : levels) counts["level " + l.first] = l.second;
  for (auto& k : keys) counts["key " + k.first] = k.second;
}

void records(const std::string& text) {
  RE2 record(R"(#(\d+) \| (\d{4})-(\d\d)-(\d\d) \| ([^<|]+?) <([^>]+)> \| (\+[\d ]+?) \| (\S+) \| ([A-Z]{3}) (\d+)\.(\d\d) \| status: (\w+))");
  RE2 email(R"(([a-z0-9._%+-]+)@([a-z0-9-]+(?:\.[a-z0-9-]+)+))");
  RE2 url(R"((https?)://([^/\s?|]+)(/[^\s?|,]*)?(?:\?([^\s|]*))?)");
  RE2 param(R"(([a-z]+)=([^&]*))");
  RE2 capitalized(R"((\p{Lu}\p{Ll}+))");
  RE2 greek(R"(\p{Greek}+)");
  RE2 cyrillic(R"(\p{Cyrillic}+)");
  RE2 folded(R"((?i)(straße|müller|ØKLAND|ürün|größe))");
  RE2 date(R"((\d{4})-(\d\d)-(\d\d))");
  RE2 phone(R"(\+(\d+) (\d+) (\d+))");
  for (const RE2* re : {&record, &email, &url, &param, &capitalized, &greek, &cyrillic, &folded, &date, &phone})
    check(*re);
  RE2::Set kinds(RE2::DefaultOptions, RE2::ANCHOR_START);
  for (const char* k : {R"(#\d+ \|)", R"(Note: )", R"(Re: order #\d+)", R"(Re: )", R"(\p{L}+: )"})
    if (kinds.Add(k, nullptr) < 0) std::exit(2);
  if (!kinds.Compile()) std::exit(2);
  // A large case-insensitive alternation, where the DFA has many states.
  std::string words = "(?i)\\b(?:";
  static const char* const syllables[] = {"ka", "to", "ri", "men", "sa", "lo", "ver", "den", "il", "ar"};
  for (int i = 0; i < 100; i++)
    words += std::string(i ? "|" : "") + syllables[i % 10] + syllables[(i / 10) % 10] + syllables[(i * 7) % 10];
  words += ")\\b";
  RE2 vocabulary(words);
  check(vocabulary);

  std::vector<int> hits;
  std::map<std::string, long long> statuses, currencies, schemes, params;
  std::vector<std::string> names;
  for (StringPiece line : lines_of(text)) {
    hits.clear();
    if (kinds.Match(line, &hits))
      for (int h : hits) counts["kind " + std::to_string(h)]++;
    long long order;
    int y, m, d, units, cents;
    std::string name, mail, phone_number, link, currency, status;
    if (RE2::FullMatch(line, record, &order, &y, &m, &d, &name, &mail, &phone_number, &link,
                       &currency, &units, &cents, &status)) {
      statuses[status]++;
      currencies[currency] += units * 100 + cents;
      counts["order numbers"] += order % 997;
      if (names.size() < 150 && order % 7 == 0) names.push_back(name);
    }
    StringPiece rest(line), user, domain, scheme, host, path, query, key, value;
    while (RE2::FindAndConsume(&rest, email, &user, &domain)) {
      counts["emails"]++;
      counts["email domain bytes"] += domain.size();
    }
    rest = line;
    while (RE2::FindAndConsume(&rest, url, &scheme, &host, &path, &query)) {
      schemes[std::string(scheme)]++;
      while (RE2::FindAndConsume(&query, param, &key, &value)) params[std::string(key)] += value.size();
    }
    rest = line;
    StringPiece word;
    while (RE2::FindAndConsume(&rest, capitalized, &word)) checksum = fnv1a(checksum, word);
    rest = line;
    while (RE2::FindAndConsume(&rest, greek)) counts["greek words"]++;
    rest = line;
    while (RE2::FindAndConsume(&rest, cyrillic)) counts["cyrillic words"]++;
    rest = line;
    while (RE2::FindAndConsume(&rest, folded, &word)) counts["folded " + std::string(word)]++;
    rest = line;
    while (RE2::FindAndConsume(&rest, vocabulary)) counts["vocabulary"]++;
    std::string rewritten(line);
    counts["dates"] += RE2::GlobalReplace(&rewritten, date, R"(\3.\2.\1)");
    counts["phones"] += RE2::Replace(&rewritten, phone, R"(+\1 \2 xxx)");
    counts["first email"] += RE2::Replace(&rewritten, email, "<\\2>");
    checksum = fnv1a(checksum, rewritten);
  }
  // Patterns made from the data: the names quoted, each compiled alone and tried on every
  // name, then all in one alternation searched for in the whole text.
  std::string alternation = "(?m)^Note: (?:";
  for (const std::string& n : names) {
    RE2 re(RE2::QuoteMeta(n));
    check(re);
    for (const std::string& other : names) counts["same names"] += RE2::PartialMatch(other, re);
    alternation += (&n == &names[0] ? "" : "|") + RE2::QuoteMeta(n);
  }
  RE2 notes(alternation + ") wrote");
  check(notes);
  StringPiece all(text);
  while (RE2::FindAndConsume(&all, notes)) counts["notes by customers"]++;
  for (auto& s : statuses) counts["status " + s.first] = s.second;
  for (auto& c : currencies) counts["amount " + c.first] = c.second;
  for (auto& s : schemes) counts["scheme " + s.first] = s.second;
  for (auto& p : params) counts["param " + p.first] = p.second;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: re2-bench logs|records FILE [ROUNDS]\n");
    return 2;
  }
  std::string mode = argv[1];
  std::ifstream file(argv[2], std::ios::binary | std::ios::ate);
  if (!file) {
    std::fprintf(stderr, "re2-bench: cannot open %s\n", argv[2]);
    return 1;
  }
  std::string text(static_cast<size_t>(file.tellg()), '\0');
  file.seekg(0);
  file.read(&text[0], text.size());
  int rounds = argc > 3 ? std::atoi(argv[3]) : 1;
  for (int round = 0; round < rounds; round++) {
    if (mode == "logs")
      logs(text);
    else if (mode == "records")
      records(text);
    else {
      std::fprintf(stderr, "re2-bench: no mode %s\n", mode.c_str());
      return 2;
    }
  }
  for (auto& c : counts) std::printf("%s: %lld\n", c.first.c_str(), c.second);
  std::printf("checksum: %016llx\n", static_cast<unsigned long long>(checksum));
  return 0;
}
