"""One rule for bad arguments: a wrong type is a TypeError, a value out of range a ValueError
that names the argument and what it accepts; every case the package has, in one place."""

import gymnasium as gym
import numpy as np
import pytest

import nestor
from nestor.envs import FrameEnv, PlacementEnv
from nestor.vector import FrameVectorEnv, PlacementVectorEnv

ENV_IDS = ["nestor/Frame-v0", "nestor/Placement-v0"]


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: nestor.Game(level=300), r"level must be in 0\.\.=255, got 300"),
        (lambda: nestor.Game(level=-1), r"level must be in 0\.\.=255, got -1"),
        (lambda: nestor.Game(level=2**70), r"level must be in 0\.\.=255, got 1180591620717411303424"),
        (lambda: nestor.Game(level=2**200), r"level is out of range, got 1606938"),
        (lambda: nestor.Game(seed=-5), r"seed must be in 0\.\.=2\*\*64-1"),
        (lambda: nestor.Game(seed=2**64), r"seed must be in 0\.\.=2\*\*64-1"),
        (lambda: nestor.Game().step(256), r"buttons must be in 0\.\.=255, got 256"),
        (lambda: nestor.Game().step("jump"), r'unknown button "jump"'),
        (lambda: nestor.Game().render(cell=2), r"cell must be in 4\.\.=64, got 2"),
        (lambda: nestor.Game.from_bytes(b"junk"), r"not a nestor game state"),
        (lambda: nestor.Game.from_trace_line({"t": 0}), r"trace line"),
        (lambda: nestor.locks(nestor.Game(), profile="60hz"), r'unknown profile "60hz".*30hz'),
        (lambda: nestor.Planner(profile="nope"), r'unknown profile "nope"'),
        (lambda: nestor.Planner(weights="/nonexistent/weights.toml"), r"/nonexistent/weights\.toml"),
        (lambda: nestor.Planner().explain(nestor.Game(), n=0), r"n must be at least 1, got 0"),
        (lambda: nestor.placement_action(-1, 0, 0), r"x must be in 0\.\.=9, got -1"),
        (lambda: nestor.placement_action(99, 0, 0), r"x must be in 0\.\.=9, got 99"),
        (lambda: nestor.placement_action(0, 99, 0), r"y must be in -2\.\.=19, got 99"),
        (lambda: nestor.placement_action(0, 0, 99), r"orientation must be in 0\.\.=18, got 99"),
        (lambda: nestor.placement_action(99, 99, 99), r"x must be in 0\.\.=9, got 99"),
        (lambda: nestor.placement_of(880, "T"), r"action must be in 0\.\.=879, got 880"),
        (lambda: nestor.placement_of(0, "X"), r"piece must be one of TJZOSLI"),
        (lambda: nestor.placement_of(0, 7), r"piece must be in 0\.\.=6, got 7"),
        (lambda: nestor.placement_of(nestor.placement_action(0, 0, 0) + 220, "O"), r"fewer rotations"),
        (lambda: nestor.piece_cells(0, 0, 19), r"orientation must be in 0\.\.=18, got 19"),
        (lambda: FrameEnv(level=300), r"level must be in 0\.\.=255, got 300"),
        (lambda: PlacementEnv(profile="warp"), r'unknown profile "warp"'),
        (lambda: FrameEnv(reward="fun"), r"reward is 'lines' or 'score'"),
        (lambda: FrameEnv(render_mode="window"), r"render_mode must be one of"),
        (lambda: FrameEnv(render_cell=100), r"render_cell must be in 4\.\.=64, got 100"),
        (lambda: FrameVectorEnv(num_envs=0), r"num_envs must be at least 1, got 0"),
        (lambda: FrameVectorEnv(threads=0), r"threads must be at least 1, got 0"),
        (lambda: FrameVectorEnv(max_episode_steps=0), r"max_episode_steps must be at least 1"),
        (lambda: gym.make("nestor/Frame-v0", level=256), r"level must be in 0\.\.=255, got 256"),
        (lambda: nestor.read_trace("/nonexistent/trace.jsonl"), r"cannot read trace file /nonexistent/trace\.jsonl"),
    ],
)
def test_bad_values_are_value_errors_naming_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: nestor.Game(level="19"), r"level must be an integer, got str"),
        (lambda: nestor.Game(level=True), r"level must be an integer, got a bool"),
        (lambda: nestor.Game(seed=1.5), r"seed must be an integer, got float"),
        (lambda: nestor.Game().step([1, 2]), r"buttons must be an integer, got list"),
        (lambda: nestor.Game().step(1.0), r"buttons must be an integer, got float"),
        (lambda: nestor.locks("not a game"), r"locks\(\) takes a nestor\.Game, got str"),
        (lambda: nestor.Planner().plan(None), r"plan\(\) takes a nestor\.Game, got NoneType"),
        (lambda: nestor.Planner(profile=3), r"profile must be a preset name"),
        (lambda: nestor.Planner(weights=3), r"weights must be None or a \.toml file path"),
        (lambda: nestor.placement_action(0.5, 0, 0), r"x must be an integer, got float"),
        (lambda: nestor.placement_action("1", 0, 0), r"x must be an integer, got str"),
        (lambda: FrameEnv(profile=3), r"profile must be a preset name"),
        (lambda: FrameEnv(level=19.0), r"level must be an integer, got float"),
        (lambda: FrameEnv(reward=None), r"reward must be 'lines' or 'score'"),
        (lambda: FrameEnv(soft_drop="yes"), r"soft_drop must be a bool"),
        (lambda: FrameVectorEnv(num_envs="8"), r"num_envs must be an integer, got str"),
        (lambda: nestor.read_trace(3), r"path must be a file path, got int"),
    ],
)
def test_wrong_types_are_type_errors(call, match):
    with pytest.raises(TypeError, match=match):
        call()


@pytest.mark.parametrize("make", [FrameEnv, PlacementEnv])
def test_single_env_seeds_and_actions(make):
    env = make()
    for seed in (-1, 2**64):
        with pytest.raises(ValueError, match=r"seed must be in 0\.\.=2\*\*64-1, got"):
            env.reset(seed=seed)
    with pytest.raises(TypeError, match=r"seed must be an integer or None, got float"):
        env.reset(seed=1.5)
    with pytest.raises(ValueError, match=r"unknown reset options \['speed'\]"):
        env.reset(options={"speed": 2})
    with pytest.raises(ValueError, match=r"level must be in 0\.\.=255, got 999"):
        env.reset(options={"level": 999})
    env.reset(seed=2**64 - 1)  # the top of the range is a seed
    n = env.action_space.n
    for bad in (-1, n, 10**6):
        with pytest.raises(ValueError, match=rf"action must be in 0\.\.={n - 1}, got {bad}"):
            env.step(bad)
    with pytest.raises(ValueError, match=r"one integer .* array of shape \(2,\)"):
        env.step(np.array([1, 2]))
    for bad in (1.5, True, "3"):
        with pytest.raises(TypeError, match=r"action must be an integer"):
            env.step(bad)


@pytest.mark.parametrize("make", [FrameVectorEnv, PlacementVectorEnv])
def test_vector_env_seeds_and_actions(make):
    venv = make(num_envs=2)
    for seed in (-1, 2**64):
        with pytest.raises(ValueError, match=r"seed must be in 0\.\.=2\*\*64-1, got"):
            venv.reset(seed=seed)
    with pytest.raises(ValueError, match=r"seed must be one integer or 2 integers, got 3"):
        venv.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match=r"seed must be in 0\.\.=2\*\*64-1, got -4"):
        venv.reset(seed=[1, -4])
    with pytest.raises(TypeError, match=r"seed must be an integer or None, got str"):
        venv.reset(seed="7")
    # The last seed wraps: game 1 of seed 2**64-1 plays seed 0.
    obs, _ = venv.reset(seed=2**64 - 1)
    one = make(num_envs=1)
    obs0, _ = one.reset(seed=0)
    assert (obs["next"][1] == obs0["next"][0]) and (obs["piece"][1] == obs0["piece"][0])
    n = venv.single_action_space.n
    with pytest.raises(ValueError, match=rf"action {n} of game 1 is out of range: actions must be in 0\.\.={n - 1}"):
        venv.step(np.array([0, n]))
    with pytest.raises(ValueError, match=r"expected 2 actions"):
        venv.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(TypeError, match=r"actions must be integers, got float64"):
        venv.step(np.zeros(2))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_envs_accept_what_the_planner_accepts(env_id, tmp_path):
    # None is the default profile for both; so is a path object.
    nestor.Planner(profile=None)
    env = gym.make(env_id, profile=None)
    assert env.unwrapped.profile == "30hz"
    repo_profile = nestor.Planner(profile="human").profile
    env = gym.make(env_id, profile=repo_profile)
    assert env.unwrapped.profile == "human"


def test_bad_trace_files_name_the_file_and_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"header": {}}\nnot json\n')
    with pytest.raises(ValueError, match=r"bad\.jsonl, line 2: not JSON"):
        nestor.read_trace(bad)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(ValueError, match=r"empty\.jsonl: no frame lines"):
        nestor.read_trace(empty)
    gz = tmp_path / "broken.jsonl.gz"
    gz.write_bytes(b"\x1f\x8b" + b"garbage")
    with pytest.raises(ValueError, match=r"broken\.jsonl\.gz: not a readable gzip file"):
        nestor.read_trace(gz)
