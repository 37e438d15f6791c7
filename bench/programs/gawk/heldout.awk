# The arena's held-out run of gawk: access.log (from gen.pl), a web server's log, read with
# another program than the training run's: each line taken apart by fields, split and
# match's captures, times turned into seconds by mktime and back by strftime (in UTC),
# visits grouped into sessions, arrays of arrays (visitors by day), gensub rewrites, a
# recursive function, percentiles by asort. Prints a report: deterministic.

function thousands(n) { # 1234567 -> 1,234,567, recursively
  return n < 1000 ? n "" : thousands(int(n / 1000)) sprintf(",%03d", n % 1000)
}

function agent_kind(a) {
  a = tolower(a)
  if (a ~ /bot|crawler|spider/) return "bot"
  if (a ~ /^(curl|wget)\//) return "tool"
  if (a ~ /iphone|android|mobile/) return "mobile"
  return "desktop"
}

BEGIN {
  split("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec", names, " ")
  for (i = 1; i <= 12; i++)
    month[names[i]] = i
}

{
  # Fields at blanks, the request, referrer and agent between quotes, the time by match.
  if (split($0, quoted, "\"") != 7 || !match($4, /^\[([0-9]+)\/([A-Za-z]+)\/([0-9]+):([0-9]+):([0-9]+):([0-9]+)$/, f)) {
    bad++
    next
  }
  ip = $1; user = $3; status = $9
  split(quoted[2], request, " ")
  method = request[1]; path = request[2]
  bytes = $10 == "-" ? 0 : $10
  t = mktime(sprintf("%d %d %d %d %d %d", f[3], month[f[2]], f[1], f[4], f[5], f[6]), 1)
  day = strftime("%Y-%m-%d", t, 1)
  requests++
  total_bytes += bytes
  by_status[int(status / 100) "xx"]++
  by_method[method]++
  hits[ip]++
  visitors[day][ip]++
  hour[strftime("%H", t, 1)]++
  if (user != "-")
    users[user]++
  # Sessions: a visitor's requests less than 30 minutes apart.
  if (!(ip in last) || t - last[ip] > 1800)
    sessions++
  last[ip] = t
  # The path without its query and numbers: /api/v2/items/123 -> /api/v2/items/N.
  base = path
  sub(/\?.*/, "", base)
  base = gensub(/\/[0-9]+(\/|$)/, "/N\\1", "g", base)
  pages[base]++
  page_bytes[base] += bytes
  if (path ~ /\?/) {
    query = substr(path, index(path, "?") + 1)
    n = split(query, params, "&")
    for (i = 1; i <= n; i++) {
      eq = index(params[i], "=")
      param_count[substr(params[i], 1, eq - 1)]++
      if (substr(params[i], 1, 2) == "q=")
        terms[substr(params[i], eq + 1)]++
    }
  }
  if (path ~ /\.(php|env)$|wp-admin/)
    probes[ip]++
  kind[agent_kind(quoted[6])]++
  if (quoted[4] != "-")
    referrers[gensub(/^https?:\/\/([^\/]+).*/, "\\1", 1, quoted[4])]++
  sizes[requests] = bytes
}

END {
  printf "%s requests, %d unreadable, %s bytes, %d sessions, %d visitors\n",
    thousands(requests), bad, thousands(total_bytes), sessions, length(hits)
  PROCINFO["sorted_in"] = "@ind_str_asc"
  for (s in by_status)
    printf "status %s: %d\n", s, by_status[s]
  for (m in by_method)
    printf "method %s: %d\n", m, by_method[m]
  for (k in kind)
    printf "agents %s: %d\n", k, kind[k]
  for (d in visitors) {
    n = 0
    for (ip in visitors[d])
      n++
    printf "day %s: %d visitors\n", d, n
  }
  for (h in hour)
    printf "hour %s: %d\n", h, hour[h]
  for (r in referrers)
    printf "referrer %s: %d\n", r, referrers[r]
  for (p in param_count)
    printf "parameter %s: %d\n", p, param_count[p]
  PROCINFO["sorted_in"] = "@val_num_desc"
  shown = 0
  for (p in pages)
    if (++shown <= 12)
      printf "page %s: %d hits, %s bytes\n", p, pages[p], thousands(page_bytes[p])
  shown = 0
  for (ip in hits)
    if (++shown <= 10)
      printf "visitor %s: %d\n", ip, hits[ip]
  shown = 0
  for (w in terms)
    if (++shown <= 10)
      printf "search %s: %d\n", w, terms[w]
  printf "probing visitors %d, users %d\n", length(probes), length(users)
  n = asort(sizes)
  printf "bytes: median %d, 90th %d, 99th %d, largest %d\n", sizes[int(n / 2)],
    sizes[int(n * 0.9)], sizes[int(n * 0.99)], sizes[n]
}
