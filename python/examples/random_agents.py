"""A random and a greedy agent on the placement environment, with their lines per game
(plotted to lines.png when matplotlib is installed).

    python python/examples/random_agents.py [--games 20] [--level 18] [--out lines.png]
"""

import argparse

import numpy as np

import nestor
from nestor.envs import PlacementEnv

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--games", type=int, default=20)
ap.add_argument("--level", type=int, default=18)
ap.add_argument("--profile", default="30hz")
ap.add_argument("--out", default="lines.png")
args = ap.parse_args()


def random_agent(env, obs, rng):
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def greedy_agent(env, obs, rng):
    """The lock that leaves the fewest holes, then the lowest stack (one piece, no lookahead)."""

    def cost(lock):
        g = env.game
        for b in lock.inputs:
            g.step(b)
        board = g.board
        filled = board.any(axis=0)
        tops = np.where(filled, board.argmax(axis=0), 20)
        holes = sum(int((board[t:, c] == 0).sum()) for c, t in enumerate(tops))
        return (holes, -int(tops.min()), -lock.y)

    return min(env.locks(), key=cost).action


rng = np.random.default_rng(0)
results = {}
for name, agent in (("random", random_agent), ("greedy", greedy_agent)):
    env = PlacementEnv(level=args.level, profile=args.profile)
    lines = []
    for game in range(args.games):
        obs, info = env.reset(seed=game)
        terminated = False
        while not terminated:
            obs, _, terminated, _, info = env.step(agent(env, obs, rng))
        lines.append(info["lines"])
    results[name] = lines
    print(f"{name:7s} lines per game: mean {np.mean(lines):6.1f}  max {max(lines):4d}  {lines}")

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib not installed: no plot (pip install matplotlib)")
else:
    fig, ax = plt.subplots(figsize=(7, 4))
    for name, lines in results.items():
        ax.plot(range(len(lines)), lines, marker="o", label=name)
    ax.set_xlabel("game (seed)")
    ax.set_ylabel("lines")
    ax.set_title(f"nestor/Placement-v0, level {args.level}, profile {args.profile}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"wrote {args.out}")
