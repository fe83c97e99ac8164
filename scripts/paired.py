#!/usr/bin/env python3
"""Compares two `nestor sim --out` CSVs game by game: the games of the seeds both played,
paired by seed (two builds, or two settings, on the same seeds).

    scripts/paired.py A.csv B.csv [--column lines] [--json]

Prints each side's mean, the mean difference A - B with its 95 % interval (normal
approximation, fine from a few dozen games), the games A did better and worse in, and the
two-sided sign test's p. `sim compare` does the same for two weight sets in one run; this is for
what a weight file cannot say (a change to the search itself: play both builds with `--out`).
"""

import argparse
import csv
import json
import math
import sys


def load(path, column):
    """Seed -> value of `column`, from one sim CSV; exits naming the file on bad input."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"paired.py: cannot read {path}: {e.strerror}")
    if not rows:
        sys.exit(f"paired.py: {path} holds no games")
    if "seed" not in rows[0] or column not in rows[0]:
        sys.exit(f"paired.py: {path} has no `seed` or no `{column}` column (a `sim --out` CSV?)")
    values = {}
    for n, row in enumerate(rows, start=2):
        try:
            values[row["seed"]] = float(row[column])
        except (TypeError, ValueError):
            sys.exit(f"paired.py: {path} line {n}: `{column}` is not a number: {row[column]!r}")
    return values


def sign_test(better, worse):
    """Two-sided exact sign test p over the games that differ."""
    n = better + worse
    if n == 0:
        return 1.0
    k = min(better, worse)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def compare(a, b):
    seeds = sorted(set(a) & set(b), key=lambda s: (len(s), s))
    if not seeds:
        return None
    d = [a[s] - b[s] for s in seeds]
    n = len(d)
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    better = sum(x > 0 for x in d)
    worse = sum(x < 0 for x in d)
    return {
        "games": n,
        "mean_a": sum(a[s] for s in seeds) / n,
        "mean_b": sum(b[s] for s in seeds) / n,
        "difference": mean,
        "interval": [mean - half, mean + half],
        "better": better,
        "worse": worse,
        "p_sign": sign_test(better, worse),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", help="the first sim CSV (A)")
    ap.add_argument("b", help="the second sim CSV (B); the difference is A - B")
    ap.add_argument("--column", default="lines", help="the figure compared (default: lines)")
    ap.add_argument("--json", action="store_true", help="print the comparison as JSON")
    args = ap.parse_args()
    r = compare(load(args.a, args.column), load(args.b, args.column))
    if r is None:
        sys.exit(f"paired.py: {args.a} and {args.b} share no seed")
    if args.json:
        print(json.dumps(r))
        return
    lo, hi = r["interval"]
    print(
        f"{r['games']} games paired by seed, {args.column}: A {r['mean_a']:.2f}, B {r['mean_b']:.2f}; "
        f"A - B {r['difference']:+.2f} [{lo:+.2f}, {hi:+.2f}]; A better in {r['better']}, "
        f"worse in {r['worse']}; p (sign) {r['p_sign']:.2g}"
    )


if __name__ == "__main__":
    main()
