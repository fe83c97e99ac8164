#!/usr/bin/env python3
"""nestor next to BetaTetris on BetaTetris's grid: the table and the chart of benches/README.md.

    scripts/grid_report.py [--runs DIR] [--grid benches/grid] [--beta FILE] [--base DIR]

With --runs (the folder scripts/grid.sh wrote), collects every finished chunk into
GRID/nestor-games.csv (one row per game: hz, reaction, seed, lines); without it, reads that
file. A grid folder holds only the cells it played: when GRID/base names another grid folder
(one line, relative to GRID; --base writes it), every cell GRID lacks is read from there, and so
on down that folder's own base. Writes GRID/table.md (nestor's cells beside BetaTetris's normal-low column from
GRID/betatetris.csv, or --beta) and GRID/grid.svg (reach 230 and 330 lines by tap rate). Intervals are
95 %: Wilson for the shares, t for the mean, the order-statistic (binomial) interval for the
median. Standard library only.
"""
import argparse
import csv
import glob
import math
import os
import statistics

HZ = ["10hz", "12hz", "15hz", "20hz", "24hz", "30hz"]
REACTIONS = [0, 18, 21, 24, 30]
Z = 1.959964


def wilson(k, n):
    if n == 0:
        return (0.0, 0.0, 1.0)
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return (p, max(0.0, c - h), min(1.0, c + h))


def binom_cdf(k, n):
    """P(X <= k), X ~ Binomial(n, 1/2)."""
    return sum(math.comb(n, i) for i in range(0, k + 1)) / 2**n


def median_ci(xs):
    """Order-statistic 95 % interval of the median: x(j)..x(k), j, k from Binomial(n, 1/2)."""
    s = sorted(xs)
    n = len(s)
    med = statistics.median(s)
    if n < 6:
        return (med, s[0], s[-1])
    j = 0
    while binom_cdf(j, n) < 0.025:
        j += 1
    # x(j) (1-based) is the lower bound with P(X < j) <= 0.025; symmetric upper bound.
    lo = s[max(j - 1, 0)]
    hi = s[min(n - j, n - 1)]
    return (med, lo, hi)


def mean_ci(xs):
    n = len(xs)
    m = statistics.fmean(xs)
    if n < 2:
        return (m, m, m)
    h = Z * statistics.stdev(xs) / math.sqrt(n)
    return (m, m - h, m + h)


def collect(runs, out):
    rows = []
    for cell in sorted(glob.glob(os.path.join(runs, "*-r*"))):
        hz, r = os.path.basename(cell).rsplit("-r", 1)
        for f in sorted(glob.glob(os.path.join(cell, "seeds-*.csv"))):
            with open(f, newline="") as fh:
                for g in csv.DictReader(fh):
                    rows.append((hz, int(r), int(g["seed"]), int(g["lines"])))
    rows.sort(key=lambda t: (HZ.index(t[0]) if t[0] in HZ else 99, t[1], t[2]))
    with open(out, "w", newline="") as fh:
        fh.write("# nestor on BetaTetris's grid: one game a row, from level 18 to 430 lines\n")
        fh.write("# (scripts/grid.sh, collected by scripts/grid_report.py --runs).\n")
        w = csv.writer(fh)
        w.writerow(["hz", "reaction", "seed", "lines"])
        w.writerows(rows)


def read_games(path):
    cells = {}
    with open(path, newline="") as fh:
        lines = [l for l in fh if not l.startswith("#")]
    for g in csv.DictReader(lines):
        cells.setdefault((g["hz"], int(g["reaction"])), []).append(int(g["lines"]))
    return cells


def read_grid(grid):
    """Every cell of GRID and of its bases: {cell: lines}, {cell: the folder it was read from}."""
    cells, source, seen, named_by = {}, {}, [], None
    while grid:
        real = os.path.realpath(grid)
        if real in seen:
            raise SystemExit(f"grid_report.py: {named_by} leads back to {grid}: a loop of bases")
        seen.append(real)
        games = os.path.join(grid, "nestor-games.csv")
        if not os.path.isfile(games):
            raise SystemExit(f"grid_report.py: {games} is missing (play it with scripts/grid.sh, then --runs)")
        for cell, xs in read_games(games).items():
            if cell not in cells:
                cells[cell], source[cell] = xs, grid
        base = os.path.join(grid, "base")
        grid = None
        if os.path.isfile(base):
            with open(base) as fh:
                name = fh.read().strip()
            if not name:
                raise SystemExit(f"grid_report.py: {base} is empty (it names the folder the missing cells come from)")
            grid, named_by = os.path.normpath(os.path.join(os.path.dirname(base), name)), base
    return cells, source


def borrowed(source, grid):
    """The table's footnote: which cells came from which base folder."""
    by = {}
    for (hz, r), g in source.items():
        if g != grid:
            by.setdefault(os.path.relpath(g), []).append((HZ.index(hz) if hz in HZ else 99, hz, r))
    notes = []
    for g, cs in sorted(by.items()):
        names = ", ".join(f"{hz[:-2]} Hz {r}" for _, hz, r in sorted(cs))
        notes.append(f"- from {g}: {names}.")
    return "\nCells not played in this folder (its base):\n" + "\n".join(notes) + "\n" if notes else ""


def read_beta(path, model="normal-low"):
    beta = {}
    with open(path, newline="") as fh:
        lines = [l for l in fh if not l.startswith("#")]
    for b in csv.DictReader(lines):
        if b["model"] == model:
            beta[(b["hz"], int(b["reaction"]))] = {k: float(v) for k, v in b.items() if k not in ("hz", "model")}
    return beta


def pct(p):
    return f"{100 * p:.1f}"


def cell_stats(xs):
    n = len(xs)
    return {
        "n": n,
        "reach": [wilson(sum(1 for x in xs if x >= t), n) for t in (130, 230, 330)],
        "mean": mean_ci(xs),
        "median": median_ci(xs),
    }


def table(cells, beta):
    out = [
        "| tap rate | reaction | games | reach 130 (19) | reach 230 (29) | reach 330 (39) | mean lines | median lines | BetaTetris reach 130 / 230 / 330 | BetaTetris mean / median |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for hz in HZ:
        for r in REACTIONS:
            b = beta.get((hz, r))
            bt = (
                f"{pct(b['reach130'])} / {pct(b['reach230'])} / {pct(b['reach330'])} %"
                if b
                else "-"
            )
            bm = f"{b['mean_lines']:.0f} / {b['median_lines']:.0f}" if b else "-"
            xs = cells.get((hz, r))
            if not xs:
                out.append(f"| {hz[:-2]} Hz | {r} | 0 | not run | | | | | {bt} | {bm} |")
                continue
            s = cell_stats(xs)
            reach = []
            for i, (p, lo, hi) in enumerate(s["reach"]):
                mark = ""
                if b:
                    bp = b[["reach130", "reach230", "reach330"][i]]
                    # Bold: BetaTetris's figure lies above nestor's interval (behind for sure).
                    # (1e-9: Wilson's upper end of k = n is 1 less a rounding error.)
                    mark = "**" if bp > hi + 1e-9 else ""
                reach.append(f"{mark}{pct(p)}{mark} [{pct(lo)}, {pct(hi)}]")
            m, mlo, mhi = s["mean"]
            med, dlo, dhi = s["median"]
            out.append(
                f"| {hz[:-2]} Hz | {r} | {s['n']} | {reach[0]} | {reach[1]} | {reach[2]} | "
                f"{m:.0f} [{mlo:.0f}, {mhi:.0f}] | {med:.0f} [{dlo}, {dhi}] | {bt} | {bm} |"
            )
    return "\n".join(out) + "\n"


COLORS = {0: "#1f77b4", 18: "#d62728", 21: "#2ca02c", 24: "#9467bd", 30: "#ff7f0e"}


def svg(cells, beta):
    W, H = 980, 440
    panels = [(1, "reach 230 lines (level 29)"), (2, "reach 330 lines (level 39)")]
    pw, ph, top, left = 400, 300, 50, 60
    xs_hz = [10, 12, 15, 20, 24, 30]
    def px(i, hz):
        return left + i * (pw + 90) + (hz - 10) / 20 * pw
    def py(p):
        return top + ph - p * ph
    e = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>']
    for i, (k, title) in enumerate(panels):
        x0 = left + i * (pw + 90)
        e.append(f'<text x="{x0 + pw / 2}" y="{top - 20}" text-anchor="middle" font-size="14">{title}, from level 18</text>')
        e.append(f'<rect x="{x0}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#888"/>')
        for p in (0, 0.25, 0.5, 0.75, 1):
            e.append(f'<line x1="{x0}" x2="{x0 + pw}" y1="{py(p)}" y2="{py(p)}" stroke="#eee"/>')
            e.append(f'<text x="{x0 - 6}" y="{py(p) + 4}" text-anchor="end">{int(p * 100)} %</text>')
        for hz in xs_hz:
            e.append(f'<text x="{px(i, hz)}" y="{top + ph + 16}" text-anchor="middle">{hz} Hz</text>')
        for r in REACTIONS:
            c = COLORS[r]
            bpts = [(px(i, hz), py(beta[(f"{hz}hz", r)][f"reach{[130, 230, 330][k]}"]))
                    for hz in xs_hz if (f"{hz}hz", r) in beta]
            if bpts:
                e.append('<polyline fill="none" stroke-dasharray="5,4" stroke="%s" points="%s"/>'
                         % (c, " ".join(f"{x:.1f},{y:.1f}" for x, y in bpts)))
            npts = []
            for hz in xs_hz:
                xs = cells.get((f"{hz}hz", r))
                if not xs:
                    # A cell not played breaks the line rather than bridging it.
                    if len(npts) > 1:
                        e.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                                 % (c, " ".join(f"{x:.1f},{y:.1f}" for x, y in npts)))
                    npts = []
                    continue
                p, lo, hi = cell_stats(xs)["reach"][k]
                x = px(i, hz) + (REACTIONS.index(r) - 2) * 3
                npts.append((x, py(p)))
                e.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{py(lo):.1f}" y2="{py(hi):.1f}" stroke="{c}"/>')
                e.append(f'<circle cx="{x:.1f}" cy="{py(p):.1f}" r="3" fill="{c}"/>')
            if len(npts) > 1:
                e.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                         % (c, " ".join(f"{x:.1f},{y:.1f}" for x, y in npts)))
    ly = top + ph + 40
    e.append(f'<text x="{left}" y="{ly}">solid, dots with 95 % Wilson intervals: nestor; dashed: BetaTetris (normal agent, low aggression, 5001 games a cell).</text>')
    for j, r in enumerate(REACTIONS):
        x = left + 70 + j * 62
        e.append(f'<line x1="{x}" x2="{x + 18}" y1="{ly + 16}" y2="{ly + 16}" stroke="{COLORS[r]}" stroke-width="3"/>')
        e.append(f'<text x="{x + 22}" y="{ly + 20}">{r} f</text>')
    e.append(f'<text x="{left}" y="{ly + 20}">reaction:</text>')
    e.append("</svg>")
    return "\n".join(e) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", help="the folder scripts/grid.sh wrote (collect it first)")
    ap.add_argument("--grid", default="benches/grid", help="the data folder")
    ap.add_argument("--beta", help="BetaTetris's figures [default: GRID/betatetris.csv]")
    ap.add_argument("--base", help="the grid folder this one's missing cells come from (written to GRID/base)")
    a = ap.parse_args()
    games = os.path.join(a.grid, "nestor-games.csv")
    if a.runs and not os.path.isdir(a.runs):
        raise SystemExit(f"grid_report.py: --runs {a.runs} is not a folder (scripts/grid.sh --dir writes it)")
    if a.runs or a.base:
        os.makedirs(a.grid, exist_ok=True)
    if a.base:
        if not os.path.isfile(os.path.join(a.base, "nestor-games.csv")):
            raise SystemExit(f"grid_report.py: --base {a.base} is not a grid folder (no nestor-games.csv)")
        with open(os.path.join(a.grid, "base"), "w") as fh:
            fh.write(os.path.relpath(a.base, a.grid) + "\n")
    if a.runs:
        collect(a.runs, games)
    cells, source = read_grid(a.grid)
    beta = read_beta(a.beta or os.path.join(a.grid, "betatetris.csv"))
    text = table(cells, beta) + borrowed(source, a.grid)
    with open(os.path.join(a.grid, "table.md"), "w") as fh:
        fh.write(text)
    with open(os.path.join(a.grid, "grid.svg"), "w") as fh:
        fh.write(svg(cells, beta))
    print(text, end="")


if __name__ == "__main__":
    main()
