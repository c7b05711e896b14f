#!/usr/bin/env python3
"""Round-by-round ratios of each contender (params other than the size) against the first of its problem:
median and 95% interval, with each contender's median kernel time."""
import json, sys, collections
from math import comb
SIZE = ("width", "height", "window", "dtype")
def ci(xs):
    xs = sorted(xs); n = len(xs)
    if n < 6: return (float('nan'),) * 2
    best = 0
    for j in range(n // 2, -1, -1):
        if sum(comb(n, i) for i in range(j, n - j + 1)) / 2 ** n >= 0.95: best = j
        else: break
    return xs[best], xs[n - 1 - best]
def med(xs):
    xs = sorted(xs); n = len(xs); return (xs[(n - 1) // 2] + xs[n // 2]) / 2
groups = collections.OrderedDict()
for line in open(sys.argv[1]):
    r = json.loads(line); p = r['params']
    if not r.get('rounds') or not r.get('times_ms'): continue
    prob = (r.get('experiment'),) + tuple(p.get(k) for k in SIZE)
    who = r['backend'] + ':' + ','.join(f"{k}={v}" for k, v in sorted(p.items()) if k not in SIZE)
    groups.setdefault(prob, collections.OrderedDict())[who] = dict(zip(r['rounds'], r['times_ms']))
for prob, c in groups.items():
    ks = list(c); a = ks[0]
    print(f"{prob}: {a} {1000 * med(list(c[a].values())):.2f} us")
    for b in ks[1:]:
        common = sorted(set(c[a]) & set(c[b]))
        rs = [c[b][k] / c[a][k] for k in common]
        if not rs: continue
        lo, hi = ci(rs)
        print(f"    {b} {1000 * med(list(c[b].values())):.2f} us  {med(rs):.3f} [{lo:.3f}-{hi:.3f}] ({len(rs)})")
