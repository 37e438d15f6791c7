# The arena's training run of CPython: object-oriented work (a task scheduler in the
# style of Richards), floating point (n-body), JSON, regular expressions, string
# formatting and dictionaries, sorting with keys, generators. Deterministic (run with
# PYTHONHASHSEED=0); prints one checksum per part.
import json
import re


class Task:
    def __init__(self, name, priority, work):
        self.name, self.priority, self.work, self.done = name, priority, work, 0

    def step(self, scheduler):
        self.done += 1
        if self.done % 7 == 0:
            scheduler.post(self.priority % 5, self.work + self.done)
        return self.done < self.work


class Scheduler:
    def __init__(self):
        self.queues = [[] for _ in range(5)]
        self.messages = 0

    def post(self, queue, value):
        self.queues[queue].append(value)
        self.messages += 1

    def run(self, tasks):
        active = list(tasks)
        while active:
            active = [task for task in active if task.step(self)]
        return self.messages + sum(sum(q) for q in self.queues)


def scheduling(count):
    tasks = [Task("t%d" % i, i * 7 % 11, 50 + i % 40) for i in range(count)]
    return Scheduler().run(tasks)


def nbody(steps):
    bodies = [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 39.47],
              [4.84, -1.16, -0.10, 0.606, 2.81, -0.02, 0.0377],
              [8.34, 4.12, -0.40, -1.01, 1.82, 0.008, 0.0113],
              [12.89, -15.11, -0.22, 1.08, 0.868, -0.01, 0.0017],
              [15.37, -25.91, 0.17, 0.979, 0.594, -0.034, 0.0020]]
    pairs = [(bodies[i], bodies[j]) for i in range(5) for j in range(i + 1, 5)]
    for _ in range(steps):
        for a, b in pairs:
            dx, dy, dz = a[0] - b[0], a[1] - b[1], a[2] - b[2]
            d2 = dx * dx + dy * dy + dz * dz
            mag = 0.01 / (d2 * d2 ** 0.5)
            bm, am = b[6] * mag, a[6] * mag
            a[3] -= dx * bm; a[4] -= dy * bm; a[5] -= dz * bm
            b[3] += dx * am; b[4] += dy * am; b[5] += dz * am
        for body in bodies:
            body[0] += 0.01 * body[3]; body[1] += 0.01 * body[4]; body[2] += 0.01 * body[5]
    return "%.6f" % (bodies[0][0] + bodies[1][1])


def lcg(seed):
    while True:
        seed = (seed * 1103515245 + 12345) % 2147483648
        yield seed >> 8


def json_work(count):
    rand = lcg(5)
    docs = [{"id": i, "name": "user%d" % next(rand), "score": next(rand) % 1000 / 7,
             "tags": ["t%d" % (next(rand) % 50) for _ in range(next(rand) % 6)],
             "address": {"city": "c%d" % (next(rand) % 90), "zip": "%05d" % (next(rand) % 99999)}}
            for i in range(count)]
    text = json.dumps(docs, sort_keys=True)
    back = json.loads(text)
    return len(text) + sum(len(d["tags"]) for d in back)


def text_work(count):
    rand = lcg(11)
    syllables = ["ka", "lo", "mi", "ren", "do", "sta", "qu", "ix", "ber", "nol"]
    words = ["".join(syllables[next(rand) % 10] for _ in range(1 + next(rand) % 4))
             for _ in range(count)]
    lines = [" ".join(words[i:i + 12]) + " %d.%02d" % (i, i % 100) for i in range(0, count, 12)]
    text = "\n".join(lines)
    numbers = re.findall(r"\d+\.\d+", text)
    capitalized = re.sub(r"\b(\w)(\w*)", lambda m: m.group(1).upper() + m.group(2), text)
    counts = {}
    for word in text.split():
        counts[word] = counts.get(word, 0) + 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:20]
    report = "\n".join("{:<12}{:>6}".format(w, c) for w, c in top)
    return len(numbers) + len(capitalized) + len(report)


def sorting(count):
    rand = lcg(3)
    records = [(next(rand) % 1000, "n%d" % next(rand), next(rand) % 77 / 3) for _ in range(count)]
    by_key = sorted(records, key=lambda r: (r[0], r[1]))
    by_value = sorted(records, key=lambda r: r[2], reverse=True)
    return sum(r[0] * i for i, r in enumerate(by_key[::101])) + int(by_value[0][2])


def generators(limit):
    def primes():
        found = []
        candidate = 2
        while True:
            if all(candidate % p for p in found if p * p <= candidate):
                found.append(candidate)
                yield candidate
            candidate += 1
    total = 0
    for p in primes():
        if p > limit:
            return total
        total += p


print("scheduling", scheduling(100))
print("nbody", nbody(4000))
print("json", json_work(1500))
print("text", text_work(12000))
print("sorting", sorting(12000))
print("generators", generators(10000))
