-- The arena's held-out run of Lua: other work than the training run's: floating point
-- (n-body, spectral norm), a recursive-descent parser and a serializer of nested
-- tables, coroutines. Deterministic; prints one checksum per part.

local function nbody(steps)
  local pi, days = math.pi, 365.24
  local solar = 4 * pi * pi
  local bodies = {
    { x = 0, y = 0, z = 0, vx = 0, vy = 0, vz = 0, mass = solar },
    { x = 4.84, y = -1.16, z = -0.10, vx = 0.606 * days, vy = 2.81 * days, vz = -0.02 * days, mass = 9.5e-4 * solar },
    { x = 8.34, y = 4.12, z = -0.40, vx = -1.01 * days, vy = 1.82 * days, vz = 0.008 * days, mass = 2.8e-4 * solar },
    { x = 12.89, y = -15.11, z = -0.22, vx = 1.08 * days, vy = 0.868 * days, vz = -0.01 * days, mass = 4.3e-5 * solar },
    { x = 15.37, y = -25.91, z = 0.17, vx = 0.979 * days, vy = 0.594 * days, vz = -0.034 * days, mass = 5.1e-5 * solar },
  }
  local n = #bodies
  for _ = 1, steps do
    for i = 1, n do
      local bi = bodies[i]
      for j = i + 1, n do
        local bj = bodies[j]
        local dx, dy, dz = bi.x - bj.x, bi.y - bj.y, bi.z - bj.z
        local d2 = dx * dx + dy * dy + dz * dz
        local mag = 0.01 / (d2 * math.sqrt(d2))
        bi.vx = bi.vx - dx * bj.mass * mag; bj.vx = bj.vx + dx * bi.mass * mag
        bi.vy = bi.vy - dy * bj.mass * mag; bj.vy = bj.vy + dy * bi.mass * mag
        bi.vz = bi.vz - dz * bj.mass * mag; bj.vz = bj.vz + dz * bi.mass * mag
      end
    end
    for i = 1, n do
      local b = bodies[i]
      b.x = b.x + 0.01 * b.vx; b.y = b.y + 0.01 * b.vy; b.z = b.z + 0.01 * b.vz
    end
  end
  return string.format("%.6f", bodies[1].x + bodies[2].y)
end

local function spectral_norm(n)
  local function a(i, j) local ij = i + j - 1; return 1.0 / (ij * (ij - 1) * 0.5 + i) end
  local function av(x, y) for i = 1, n do local s = 0; for j = 1, n do s = s + a(i, j) * x[j] end; y[i] = s end end
  local function atv(x, y) for i = 1, n do local s = 0; for j = 1, n do s = s + a(j, i) * x[j] end; y[i] = s end end
  local u, v, t = {}, {}, {}
  for i = 1, n do u[i] = 1 end
  for _ = 1, 10 do av(u, t); atv(t, v); av(v, t); atv(t, u) end
  local vbv, vv = 0, 0
  for i = 1, n do vbv = vbv + u[i] * v[i]; vv = vv + v[i] * v[i] end
  return string.format("%.9f", math.sqrt(vbv / vv))
end

-- Expressions such as "(3+x*(2-y))/4" over random variables, parsed and evaluated.
local function expressions(count)
  local seed = 99
  local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648; return (seed >> 8) % n end
  local function gen(depth)
    if depth == 0 or rand(3) == 0 then
      if rand(2) == 0 then return tostring(1 + rand(9)) end
      return ({ "x", "y", "z" })[1 + rand(3)]
    end
    return "(" .. gen(depth - 1) .. ({ "+", "-", "*" })[1 + rand(3)] .. gen(depth - 1) .. ")"
  end
  local total = 0
  for _ = 1, count do
    local src, pos = gen(6), 1
    local env = { x = rand(5), y = rand(5), z = rand(5) }
    local expr
    local function atom()
      local c = src:sub(pos, pos)
      if c == "(" then pos = pos + 1; local v = expr(); pos = pos + 1; return v end
      pos = pos + 1
      return tonumber(c) or env[c]
    end
    function expr()
      local v = atom()
      while true do
        local op = src:sub(pos, pos)
        if op == "+" then pos = pos + 1; v = v + atom()
        elseif op == "-" then pos = pos + 1; v = v - atom()
        elseif op == "*" then pos = pos + 1; v = v * atom()
        else return v end
      end
    end
    total = (total + expr()) % 1000000007
  end
  return total
end

local function serialize(value, out)
  local t = type(value)
  if t == "table" then
    out[#out + 1] = "{"
    local keys = {}
    for k in pairs(value) do keys[#keys + 1] = tostring(k) end
    table.sort(keys)
    for _, k in ipairs(keys) do
      out[#out + 1] = k .. "="
      serialize(value[k] ~= nil and value[k] or value[tonumber(k)], out)
      out[#out + 1] = ","
    end
    out[#out + 1] = "}"
  else
    out[#out + 1] = tostring(value)
  end
end

local function documents(count)
  local size = 0
  for i = 1, count do
    local doc = { id = i, name = "item" .. i, tags = { "a" .. i % 7, "b" .. i % 11 },
                  price = i * 1.25, stock = { north = i % 13, south = i % 17 } }
    local out = {}
    serialize(doc, out)
    size = size + #table.concat(out)
  end
  return size
end

local function generators(n)
  local function range(limit)
    return coroutine.wrap(function() for i = 1, limit do coroutine.yield(i) end end)
  end
  local sum = 0
  for i in range(n) do if i % 3 == 0 or i % 5 == 0 then sum = sum + i end end
  return sum
end

print("nbody", nbody(4000))
print("spectral-norm", spectral_norm(40))
print("expressions", expressions(2000))
print("documents", documents(1500))
print("generators", generators(20000))
