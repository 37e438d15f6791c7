# The arena's held-out run of CPython: other work than the training run's: vector math
# with small objects (a ray tracer), a tokenizer and recursive-descent evaluator, pickle
# and struct round trips, decimal arithmetic, collections and heapq. Deterministic (run
# with PYTHONHASHSEED=0); prints one checksum per part.
import collections
import decimal
import heapq
import pickle
import struct


class Vec:
    __slots__ = ("x", "y", "z")

    def __init__(self, x, y, z):
        self.x, self.y, self.z = x, y, z

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y, self.z + o.z)

    def __sub__(self, o):
        return Vec(self.x - o.x, self.y - o.y, self.z - o.z)

    def scale(self, k):
        return Vec(self.x * k, self.y * k, self.z * k)

    def dot(self, o):
        return self.x * o.x + self.y * o.y + self.z * o.z


def ray_trace(size):
    spheres = [(Vec(0, 0, 5), 1.0), (Vec(1.5, 0.5, 6), 0.7), (Vec(-1.2, -0.4, 4.5), 0.5)]
    light = Vec(-0.5, 1, -0.5).scale(1 / 1.2247)
    total = 0.0
    for py in range(size):
        for px in range(size):
            direction = Vec((px - size / 2) / size, (py - size / 2) / size, 1)
            direction = direction.scale(1 / direction.dot(direction) ** 0.5)
            nearest, hit = 1e9, None
            for center, radius in spheres:
                oc = Vec(0, 0, 0) - center
                b = oc.dot(direction)
                disc = b * b - oc.dot(oc) + radius * radius
                if disc > 0:
                    t = -b - disc ** 0.5
                    if 0 < t < nearest:
                        nearest, hit = t, center
            if hit is not None:
                point = direction.scale(nearest)
                normal = point - hit
                normal = normal.scale(1 / normal.dot(normal) ** 0.5)
                total += max(0.0, normal.dot(light))
    return "%.4f" % total


def tokens(source):
    i = 0
    while i < len(source):
        c = source[i]
        if c.isdigit():
            j = i
            while j < len(source) and source[j].isdigit():
                j += 1
            yield ("num", int(source[i:j]))
            i = j
        elif c in "+-*/()":
            yield ("op", c)
            i += 1
        else:
            i += 1


def evaluate(source):
    stream = list(tokens(source)) + [("end", None)]
    pos = 0

    def peek():
        return stream[pos][1]

    def atom():
        nonlocal pos
        kind, value = stream[pos]
        pos += 1
        if value == "(":
            result = expr()
            pos += 1
            return result
        return value

    def term():
        nonlocal pos
        value = atom()
        while peek() in ("*", "/"):
            op = peek()
            pos += 1
            rhs = atom()
            value = value * rhs if op == "*" else value // (rhs or 1)
        return value

    def expr():
        nonlocal pos
        value = term()
        while peek() in ("+", "-"):
            op = peek()
            pos += 1
            value = value + term() if op == "+" else value - term()
        return value

    return expr()


def expressions(count):
    seed = 17
    total = 0
    for _ in range(count):
        parts = []
        for _ in range(12):
            seed = (seed * 1103515245 + 12345) % 2147483648
            parts.append(str(seed % 97))
            parts.append("+-*/"[seed >> 10 & 3])
        source = "(" + "".join(parts[:11]) + ")*" + "".join(parts[12:23])
        total = (total + evaluate(source)) % 1000000007
    return total


def serialization(count):
    records = [{"id": i, "values": list(range(i % 17)), "label": "r%d" % i, "ok": i % 3 == 0}
               for i in range(count)]
    blob = pickle.dumps(records, protocol=4)
    back = pickle.loads(blob)
    packed = b"".join(struct.pack("<iQd", r["id"], len(r["values"]), r["id"] / 7) for r in back)
    unpacked = [struct.unpack_from("<iQd", packed, i) for i in range(0, len(packed), 20)]
    return len(blob) + sum(u[1] for u in unpacked)


def decimals(count):
    decimal.getcontext().prec = 30
    total = decimal.Decimal(0)
    for i in range(1, count):
        total += decimal.Decimal(i) / decimal.Decimal(i + 7) * decimal.Decimal("1.0001")
    return str(total.quantize(decimal.Decimal("0.000001")))


def collections_work(count):
    seed = 23
    heap, counter, window = [], collections.Counter(), collections.deque(maxlen=64)
    for _ in range(count):
        seed = (seed * 16807) % 2147483647
        heapq.heappush(heap, seed % 10007)
        counter[seed % 251] += 1
        window.append(seed % 1000)
        if len(heap) > 500:
            heapq.heappop(heap)
    return sum(heap[:10]) + counter.most_common(1)[0][1] + sum(window)


print("ray-trace", ray_trace(55))
print("expressions", expressions(1500))
print("serialization", serialization(7500))
print("decimals", decimals(15000))
print("collections", collections_work(40000))
