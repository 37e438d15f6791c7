-- The arena's training run of Lua: object allocation and garbage collection (binary
-- trees), permutations (fannkuch), string building and pattern matching, table sorting
-- with a comparison closure. Deterministic; prints one checksum per part.

local function bottom_up(depth)
  if depth == 0 then return {} end
  depth = depth - 1
  return { bottom_up(depth), bottom_up(depth) }
end

local function check(tree)
  if tree[1] then return 1 + check(tree[1]) + check(tree[2]) end
  return 1
end

local function binary_trees(max_depth)
  local sum = check(bottom_up(max_depth + 1))
  local long_lived = bottom_up(max_depth)
  for depth = 4, max_depth, 2 do
    local iterations = 1 << (max_depth - depth + 4)
    for _ = 1, iterations do sum = sum + check(bottom_up(depth)) end
  end
  return sum + check(long_lived)
end

local function fannkuch(n)
  local perm, perm1, count = {}, {}, {}
  local max_flips, checksum, r, sign = 0, 0, n, 1
  for i = 0, n - 1 do perm1[i] = i end
  while true do
    while r ~= 1 do count[r - 1] = r; r = r - 1 end
    for i = 0, n - 1 do perm[i] = perm1[i] end
    local flips = 0
    local k = perm[0]
    while k ~= 0 do
      local i, j = 0, k
      while i < j do perm[i], perm[j] = perm[j], perm[i]; i = i + 1; j = j - 1 end
      flips = flips + 1
      k = perm[0]
    end
    if flips > max_flips then max_flips = flips end
    checksum = checksum + sign * flips
    sign = -sign
    while true do
      if r == n then return checksum * 100 + max_flips end
      local first = perm1[0]
      for i = 0, r - 1 do perm1[i] = perm1[i + 1] end
      perm1[r] = first
      count[r] = count[r] - 1
      if count[r] > 0 then break end
      r = r + 1
    end
  end
end

local function words(n)
  local seed, parts = 42, {}
  local syllables = { "ka", "lo", "mi", "ren", "do", "sta", "qu", "ix", "ber", "nol" }
  for i = 1, n do
    local w = {}
    for _ = 1, 1 + seed % 4 do
      seed = (seed * 1103515245 + 12345) % 2147483648
      w[#w + 1] = syllables[1 + (seed >> 8) % #syllables]
    end
    parts[i] = table.concat(w)
  end
  return parts
end

local function text_work(n)
  local list = words(n)
  local text = table.concat(list, " ")
  local counts, total = {}, 0
  for w in text:gmatch("%a+") do counts[w] = (counts[w] or 0) + 1 end
  for w, c in pairs(counts) do total = total + #w * c end
  local replaced = text:gsub("(%a)(%a*)", function(a, b) return a:upper() .. b end)
  local vowels = select(2, replaced:gsub("[aeiouAEIOU]", ""))
  return total + vowels + #string.format("%q", text:sub(1, 1000))
end

local function sorting(n)
  local seed, items = 7, {}
  for i = 1, n do
    seed = (seed * 16807) % 2147483647
    items[i] = { key = seed % 1000, name = tostring(seed) }
  end
  table.sort(items, function(a, b)
    if a.key ~= b.key then return a.key < b.key end
    return a.name < b.name
  end)
  local sum = 0
  for i = 1, n, 97 do sum = sum + items[i].key * i end
  return sum
end

print("binary-trees", binary_trees(9))
print("fannkuch", fannkuch(8))
print("text", text_work(5000))
print("sorting", sorting(5000))
