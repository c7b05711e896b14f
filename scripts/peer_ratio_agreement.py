#!/usr/bin/env python3
"""Do two runs of one scenario agree on every `vs peer` ratio? (issue 11's test of the measurement)

    scripts/peer_ratio_agreement.py RUN1/results.jsonl RUN2/results.jsonl [-v]

For every verified cell of ours that has a verified peer in its experiment and problem, the ratio is the
fastest peer's time over ours (a speedup: above 1, ours is faster), taken as the report takes it
(crates/report/src/speedup.rs, docs/results.md 6 and 10): the median over the rounds both sampled of the
round-by-round ratio, with the wider of the pooled order-statistic 95% interval and a Student-t interval
over the pass medians in log space. Two runs agree on a ratio when their intervals overlap. Prints the
ratios that do not (all with -v), then the count and the median relative half-width of the intervals.

`dspbench compare RUN1 RUN2` is the suite's own check (every pair of contenders, peers apart); this script is a
second implementation, in Python and independent of crates/stats, of the reports' `vs peer` figures alone,
kept to cross-check it.
"""
import collections
import json
import math
import sys

T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def ci_ranks(n):
    """0-based ranks bounding the median with at least 95% (crates/stats/src/median.rs)."""
    log_pmf, cdf, j = -n * math.log(2), 0.0, 0
    for k in range(n // 2):
        cdf += math.exp(log_pmf)
        if cdf > 0.025:
            break
        j = k + 1
        log_pmf += math.log(n - k) - math.log(k + 1)
    return (j - 1, n - j) if j > 0 else None


def estimate(samples):
    """(median, low, high) of (pass, value) samples; None under 6 samples."""
    values = sorted(v for _, v in samples)
    ranks = ci_ranks(len(values))
    if not ranks:
        return None
    point, low, high = median(values), values[ranks[0]], values[ranks[1]]
    passes = sorted({p for p, _ in samples})
    pass_medians = [median([v for p, v in samples if p == q]) for q in passes]
    k = len(pass_medians)
    if k >= 2:
        logs = [math.log(m) for m in pass_medians]
        mean = sum(logs) / k
        sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / (k - 1))
        t = T975[k - 2] if k - 1 <= len(T975) else 1.96
        half = t * sd / math.sqrt(k)
        low, high = min(low, math.exp(mean - half)), max(high, math.exp(mean + half))
    return point, low, high


def peer_ratios(path):
    records = [json.loads(line) for line in open(path) if line.strip()]
    good = [r for r in records if r.get("status") == "ok" and r.get("verified")]
    problems = collections.defaultdict(list)
    for r in good:
        problems[(r["scenario"], r["experiment"], json.dumps(r["params"], sort_keys=True))].append(r)
    out = {}
    for key, cells in problems.items():
        peers = [r for r in cells if r["backend"] == "peers"]
        if not peers:
            continue
        best = min(peers, key=lambda r: r["kernel_ms"]["median"])
        by_round = dict(zip(best["rounds"], best["times_ms"]))
        for r in cells:
            if r["backend"] == "peers":
                continue
            samples = [(p, by_round[k] / t) for k, p, t in zip(r["rounds"], r["passes"], r["times_ms"])
                       if k in by_round and t > 0]
            e = estimate(samples)
            if e:
                out[key + (r["backend"], r["variant"])] = (e, best["variant"])
    return out


def main():
    args = [a for a in sys.argv[1:] if a != "-v"]
    if len(args) != 2:
        sys.exit(__doc__)
    first, second = peer_ratios(args[0]), peer_ratios(args[1])
    shared = sorted(set(first) & set(second))
    agree, half_widths = 0, []
    for key in shared:
        (p1, l1, h1), peer1 = first[key]
        (p2, l2, h2), peer2 = second[key]
        overlap = l1 <= h2 and l2 <= h1
        agree += overlap
        half_widths += [(h1 - l1) / 2 / p1, (h2 - l2) / 2 / p2]
        if not overlap or "-v" in sys.argv:
            mark = "   " if overlap else "NO "
            print(f"{mark}#{key[1]} {key[2]} {key[3]} {key[4]}: {p1:.3g}x [{l1:.3g}-{h1:.3g}] vs {peer1} | "
                  f"{p2:.3g}x [{l2:.3g}-{h2:.3g}] vs {peer2}")
    print(f"{agree} of {len(shared)} ratios overlap; median half-width {100 * median(half_widths):.1f}%")


if __name__ == "__main__":
    main()
