"""bench/lib/ranking.py: Spearman's rho in Python, for the bench scripts that rank two
lists of speedups (bench/replay-engines, bench/train-repredict); bench/tools/
Statistics.cpp is the C++ one of accuracy-stats."""


def ranks(values):
    """Each value's rank from 0, ties given the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def spearman(a, b):
    """Spearman's rho of two lists of the same length; nan when either is constant."""
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va and vb else float("nan")
