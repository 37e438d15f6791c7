# The arena's training run of gawk: prose.txt, then sales.csv (both from gen.pl).
# Prose: word frequencies (lower-cased, punctuation blanked with gsub, split), word
# lengths, word pairs, sentences, capitals and numbers; the commonest words and pairs,
# sorted (by a function of ours and by gawk's own order).
# Sales: CSV split at commas, its quoted fields by patsplit; amounts aggregated by region,
# category, month and store; e-mail addresses taken apart, comments by
# split, labels formatted with sprintf. Prints totals and the top entries: deterministic.

BEGINFILE {
  csv = FILENAME ~ /\.csv$/
  FS = csv ? "," : " "
}

!csv {
  lines++
  chars += length($0)
  for (i = 1; i <= NF; i++)
    if ($i ~ /^[[:upper:]]/)
      capitals++
  line = tolower($0)
  sentences += gsub(/[.!?]/, " ", line)
  gsub(/[,;-]/, " ", line)
  n = split(line, words, " ")
  for (i = 1; i <= n; i++) {
    w = words[i]
    if (w ~ /^[0-9]+$/) {
      numbers += w
      continue
    }
    freq[w]++
    len[length(w)]++
    if (prev != "")
      pair[prev " " w]++
    prev = w
    if (w ~ /^(ka|to|ri)+$/)
      simple++
  }
  if (NF == 0)
    paragraphs++
}

csv && FNR > 1 {
  region = $2
  category = $5
  quantity = $6 + 0
  price = $7 + 0
  discount = $8 + 0
  month = substr($1, 6, 2)
  amount = quantity * price * (1 - discount)
  revenue[region] += amount
  units[category] += quantity
  by_month[month] += amount
  count[region, category]++
  store[$3] += amount
  if (discount > 0)
    discounted++
  if (split($9, address, "@") == 2) {
    customers[address[1]]++
    domains[substr(address[2], 1, index(address[2], ".") - 1)]++
  }
  comment = $10
  if (index($0, "\"")) { # a quoted field, commas inside
    patsplit($0, fields, /[^,]*|"[^"]*"/)
    comment = substr(fields[10], 2, length(fields[10]) - 2)
  }
  comment_words += split(comment, cw, /[ ,]+/)
  if (index(comment, "ka") > 0)
    with_ka++
  label = sprintf("%-8s|%-10s|%8.2f|%s", toupper(region), category, amount, substr($1, 9))
  checksum = (checksum * 31 + length(label) + index(label, "|")) % 1000003
  sales++
}

# Descending by value, then ascending by index: a total order, so ties print the same way.
function by_count(i1, v1, i2, v2) {
  if (v1 != v2)
    return v2 - v1
  return i1 < i2 ? -1 : i1 > i2
}

function top(title, arr, n,    k, shown) {
  printf "%s:", title
  PROCINFO["sorted_in"] = "by_count"
  for (k in arr) {
    if (++shown > n)
      break
    printf " %s=%s", k, arr[k]
  }
  print ""
  delete PROCINFO["sorted_in"]
}

END {
  printf "prose: %d lines, %d paragraphs, %d chars, %d sentences, %d capitals, %d simple words, numbers sum %d\n",
    lines, paragraphs, chars, sentences, capitals, simple, numbers
  distinct = length(freq)
  printf "distinct words %d, distinct pairs %d\n", distinct, length(pair)
  top("words", freq, 25)
  # The frequent pairs only (a quarter of the largest count or more): sorting all of them
  # would be most of the run.
  for (k in pair)
    if (pair[k] > most)
      most = pair[k]
  for (k in pair)
    if (pair[k] * 4 >= most)
      frequent[k] = pair[k]
  printf "pairs:"
  PROCINFO["sorted_in"] = "@val_num_desc"
  for (k in frequent)
    if (++shown <= 15)
      printf " %s=%d", k, frequent[k]
  print ""
  PROCINFO["sorted_in"] = "@ind_num_asc"
  for (l in len)
    printf "length %d: %d\n", l, len[l]
  n = asorti(freq, sorted)
  printf "first %s, middle %s, last %s\n", sorted[1], sorted[int(n / 2)], sorted[n]
  printf "sales: %d rows, %d discounted, %d comment words, %d with ka, checksum %d\n",
    sales, discounted, comment_words, with_ka, checksum
  PROCINFO["sorted_in"] = "@ind_str_asc"
  for (r in revenue)
    printf "region %s: %.2f\n", r, revenue[r]
  for (c in units)
    printf "category %s: %d units\n", c, units[c]
  for (mo in by_month)
    printf "month %s: %.2f\n", mo, by_month[mo]
  for (k in count) {
    split(k, parts, SUBSEP)
    printf "%s/%s: %d\n", parts[1], parts[2], count[k]
  }
  for (d in domains)
    printf "domain %s: %d\n", d, domains[d]
  delete PROCINFO["sorted_in"]
  top("customers", customers, 10)
  n = asort(store, amounts)
  printf "stores %d, smallest %.2f, median %.2f, largest %.2f\n", n, amounts[1], amounts[int((n + 1) / 2)], amounts[n]
}
