"""The Gymnasium environments: the checker, masks, determinism, the vector forms."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import nestor  # noqa: F401  (registers the ids)
from nestor.envs import FrameEnv, PlacementEnv
from nestor.vector import FrameVectorEnv, PlacementVectorEnv


@pytest.mark.parametrize("env_id", ["nestor/Frame-v0", "nestor/Placement-v0"])
@pytest.mark.parametrize("profile", ["30hz", "human"])
def test_checker_passes(env_id, profile):
    env = gym.make(env_id, level=19, profile=profile)
    check_env(env.unwrapped, skip_render_check=True)


def test_frame_env_is_a_seeded_game():
    env = FrameEnv(level=18)
    obs, info = env.reset(seed=3)
    game = nestor.Game(level=18, seed=3)
    rng = np.random.default_rng(0)
    for _ in range(3000):
        a = int(rng.choice([0, 1, 2, 4, 0x80, 0x40]))
        obs, r, term, trunc, info = env.step(a)
        game.step(a)
        assert (obs["board"] == game.board).all()
        assert obs["level"][0] == game.level and obs["lines"][0] == game.lines
        if term:
            break
    assert env.game == game


def test_placement_env_plays_masked_locks():
    env = PlacementEnv(level=19, profile="30hz")
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    total = 0.0
    for _ in range(300):
        mask = obs["action_mask"]
        assert (mask == info["action_mask"]).all() and mask.sum() > 0
        locks = env.locks()
        assert {l.action for l in locks} == set(np.flatnonzero(mask))
        assert obs["piece"] == "TJZOSLI".index(locks[0].piece)
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += r
        if term:
            break
    assert term  # random play tops out
    # An action outside the mask drops the piece with nothing pressed.
    obs, _ = env.reset(seed=1)
    game = env.game
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, _, _, _, info = env.step(bad)
    assert info.get("invalid_action") is True
    while not game.step(0).locked:
        pass
    while not game.step(0).spawned:
        pass
    assert env.game == game


def test_placement_env_with_the_planner_clears_lines():
    env = PlacementEnv(level=19, profile="30hz")
    planner = nestor.Planner(profile="30hz")
    env.reset(seed=5)
    lines = 0
    for _ in range(60):
        plan = planner.plan(env.game)
        _, r, term, _, _ = env.step(nestor.placement_action(*plan.lock))
        lines += r
        if term:
            break
    assert lines >= 10


def test_vector_frame_env_matches_single_games():
    n = 4
    venv = FrameVectorEnv(num_envs=n, level=19)
    obs, _ = venv.reset(seed=10)
    games = [nestor.Game(level=19, seed=10 + i) for i in range(n)]
    rng = np.random.default_rng(2)
    for _ in range(500):
        a = rng.choice([0, 1, 2, 0x80], size=n)
        obs, r, term, trunc, _ = venv.step(a)
        for i, g in enumerate(games):
            g.step(int(a[i]))
            assert (obs["board"][i] == g.board).all()
    assert venv.observation_space.contains(obs)
    with pytest.raises(ValueError):
        venv.step(np.zeros(n + 1, dtype=np.int64))


def test_vector_placement_env_autoresets():
    n = 3
    venv = PlacementVectorEnv(num_envs=n, level=29, profile="30hz")
    obs, info = venv.reset(seed=0)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(200):
        mask = obs["action_mask"]
        a = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, r, term, trunc, info = venv.step(a)
        ended += int(term.sum())
        assert (obs["action_mask"].sum(axis=1) > 0).all()
        if term.any():
            assert (info["_final_obs"] == term).all()
            for i in np.flatnonzero(term):
                # The ended game's last board is full at the top; the new one is empty.
                assert venv.single_observation_space.contains(info["final_obs"][i])
                assert info["final_obs"][i]["board"][:2].any()
                assert obs["board"][i].sum() == 0 and obs["lines"][i][0] == 0
                assert info["final_info"]["lines"][i] == info["final_obs"][i]["lines"][0]
    assert ended >= n  # level 29 random play ends games; they start again
    assert venv.observation_space.contains(obs)


def test_make_vec_uses_the_rust_vector_env():
    venv = gym.make_vec("nestor/Placement-v0", num_envs=2, vectorization_mode="vector_entry_point")
    assert isinstance(venv, PlacementVectorEnv)


@pytest.mark.parametrize("cls", [FrameVectorEnv, PlacementVectorEnv])
def test_threads_do_not_change_the_games(cls):
    runs = []
    for threads in (1, 3):
        venv = cls(num_envs=7, level=29, threads=threads)
        obs, _ = venv.reset(seed=4)
        rng = np.random.default_rng(5)
        trail = []
        for _ in range(60):
            if "action_mask" in obs:
                a = (obs["action_mask"] * rng.random(obs["action_mask"].shape)).argmax(axis=1)
            else:
                a = rng.integers(0, 256, size=7)
            obs, r, term, _, _ = venv.step(a)
            trail.append((obs["board"].copy(), r.copy(), term.copy()))
        runs.append(trail)
    for (b1, r1, t1), (b2, r2, t2) in zip(*runs):
        assert (b1 == b2).all() and (r1 == r2).all() and (t1 == t2).all()
