"""nestor's planner playing through the placement environment.

    python python/examples/planner_env.py [--level 18] [--profile 30hz] [--seed 1] [--pieces 500]
"""

import argparse

import gymnasium as gym

import nestor

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--level", type=int, default=18)
ap.add_argument("--profile", default="30hz")
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--pieces", type=int, default=500)
args = ap.parse_args()

env = gym.make("nestor/Placement-v0", level=args.level, profile=args.profile).unwrapped
planner = nestor.Planner(profile=args.profile)
obs, info = env.reset(seed=args.seed)
for piece in range(args.pieces):
    plan = planner.plan(env.game)
    action = nestor.placement_action(*plan.lock)
    assert obs["action_mask"][action], "the planner's lock is one the environment offers"
    obs, reward, terminated, truncated, info = env.step(action)
    if piece % 50 == 0 or terminated:
        print(f"piece {piece:4d}  level {info['level']:3d}  lines {info['lines']:4d}  score {info['score']:7d}")
    if terminated:
        break
print(f"done: {info['lines']} lines, score {info['score']}, level {info['level']}")
