"""Speed from Python, side by side: nestor's environments and model against nes-py stepping
the user's ROM. Prints a Markdown table (benches/README.md holds the figures).

    python python/benches/speed.py [--seconds 3] [--envs 8 64]

nes-py (pip install nes-py) runs the ROM named by NESTOR_ROM; without it, nes-py runs nestor's
synthetic NROM test cartridge instead (the emulator's cost per frame, CPU and PPU, does not
depend on the program much; the row says which). Without nes-py its rows are skipped.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import numpy as np

import nestor
from nestor.envs import FrameEnv, PlacementEnv
from nestor.vector import FrameVectorEnv, PlacementVectorEnv


def rate(fn, seconds: float) -> float:
    """Calls fn() (which returns how many units it did) until `seconds` pass; units per second."""
    fn()  # warm up
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += fn()
    return done / (time.perf_counter() - start)


def bench_frame_env(seconds):
    env = FrameEnv(level=18)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = [int(a) for a in rng.choice([0, 1, 2, 4, 0x80, 0x40], size=1000)]

    def run():
        for a in actions:
            _, _, term, _, _ = env.step(a)
            if term:
                env.reset()
        return len(actions)

    return rate(run, seconds)


def bench_frame_vector(seconds, n):
    venv = FrameVectorEnv(num_envs=n, level=18, copy=False)
    venv.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = rng.choice([0, 1, 2, 4, 0x80, 0x40], size=(100, n)).astype(np.int64)

    def run():
        for a in actions:
            venv.step(a)
        return actions.size

    return rate(run, seconds)


def bench_game_step(seconds):
    game = nestor.Game(level=18, seed=0)

    def run():
        g = game
        for _ in range(1000):
            g.step(0)
            if g.game_over:
                g = nestor.Game(level=18, seed=1)
        return 1000

    return rate(run, seconds)


def bench_game_run(seconds):
    inputs = bytes(np.random.default_rng(0).choice([0, 1, 2, 0x80], size=100_000).astype(np.uint8))

    def run():
        nestor.Game(level=18, seed=0).run(inputs)
        return len(inputs)

    return rate(run, seconds)


def bench_placement_env(seconds, profile):
    env = PlacementEnv(level=18, profile=profile)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)

    def run():
        nonlocal obs
        for _ in range(50):
            obs, _, term, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if term:
                obs, _ = env.reset()
        return 50

    return rate(run, seconds)


def bench_placement_vector(seconds, profile, n, threads=1):
    venv = PlacementVectorEnv(num_envs=n, level=18, profile=profile, copy=False, threads=threads)
    obs, _ = venv.reset(seed=0)
    rng = np.random.default_rng(0)

    def run():
        nonlocal obs
        for _ in range(10):
            # A random reachable lock per game, drawn in one numpy call.
            a = (obs["action_mask"] * rng.random(obs["action_mask"].shape)).argmax(axis=1)
            obs, _, _, _, _ = venv.step(a)
        return 10 * n

    return rate(run, seconds)


def _numpy2_fix_for_nes_py():
    """nes-py 8.2 reads the iNES sizes as numpy uint8 and overflows under numpy 2 (16 KiB ×
    1024); read them as Python ints."""
    from nes_py import _rom

    _rom.ROM.prg_rom_size = property(lambda self: 16 * int(self.header[4]))
    _rom.ROM.chr_rom_size = property(lambda self: 8 * int(self.header[5]))


def bench_nes_py(seconds):
    try:
        from nes_py import NESEnv
    except ImportError:
        return None, "nes-py not installed (pip install nes-py)"
    rom = os.environ.get("NESTOR_ROM")
    what = "user's ROM (NESTOR_ROM)"
    if not rom:
        import tempfile

        from nestor._nestor import _test_cartridge

        f = tempfile.NamedTemporaryFile(suffix=".nes", delete=False)
        f.write(_test_cartridge())
        f.close()
        rom = f.name
        what = "no NESTOR_ROM: nestor's synthetic NROM test cartridge"
    _numpy2_fix_for_nes_py()
    env = NESEnv(rom)
    env.reset()

    def run():
        for i in range(500):
            _, _, done, _ = env.step(i & 3)[:4]
            if done:
                env.reset()
        return 500

    return rate(run, seconds), what


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per row")
    ap.add_argument("--envs", type=int, nargs="+", default=[8, 64], help="games in the vector rows (one row each)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="threads of the threaded rows")
    args = ap.parse_args()
    s = args.seconds
    rows = []
    nes, nes_what = bench_nes_py(s)
    rows.append(("nes-py NESEnv.step, " + nes_what, "frames/s", nes))
    rows.append(("nestor/Frame-v0 env.step (one game)", "frames/s", bench_frame_env(s)))
    for n in args.envs:
        rows.append((f"FrameVectorEnv, {n} games per step", "frames/s", bench_frame_vector(s, n)))
    rows.append(("nestor.Game.step (no env)", "frames/s", bench_game_step(s)))
    rows.append(("nestor.Game.run(bytes) (one call, 100k frames)", "frames/s", bench_game_run(s)))
    for profile in ("30hz", "unlimited"):
        rows.append((f"nestor/Placement-v0 env.step, {profile}", "placements/s", bench_placement_env(s, profile)))
        for n in args.envs:
            rows.append(
                (f"PlacementVectorEnv, {n} games, {profile}", "placements/s", bench_placement_vector(s, profile, n))
            )
        n = max(args.envs)
        if args.threads > 1:
            rows.append(
                (
                    f"PlacementVectorEnv, {n} games, {profile}, {args.threads} threads",
                    "placements/s",
                    bench_placement_vector(s, profile, n, args.threads),
                )
            )
    print(f"Python {platform.python_version()}, {platform.machine()}, {s:g} s per row\n")
    print("| what | unit | per second | × nes-py |")
    print("|---|---|---:|---:|")
    for what, unit, r in rows:
        if r is None:
            print(f"| {what} | {unit} | skipped | |")
            continue
        x = f"{r / nes:,.0f}×" if nes and unit == "frames/s" else ""
        print(f"| {what} | {unit} | {r:,.0f} | {x} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
