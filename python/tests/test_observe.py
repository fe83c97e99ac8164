"""What the package shows: the falling piece, pixels, placement inverses, trace files, the
registered ids' limits, vector info, versions, types and docstrings."""

import inspect
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.wrappers import AddRenderObservation

import nestor
import nestor.human
from nestor.envs import MAX_EPISODE_STEPS, FrameEnv, PlacementEnv
from nestor.vector import FrameVectorEnv, PlacementVectorEnv

ENV_IDS = ["nestor/Frame-v0", "nestor/Placement-v0"]


def _game_mid_piece(frames=40):
    g = nestor.Game(level=19, seed=7)
    for _ in range(frames):
        g.step("left")
    return g


class _NoWindow(nestor.human.Viewer):
    def show(self, frame):
        assert frame.dtype == np.uint8 and frame.ndim == 3

    def close(self):
        pass


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("render_mode", [None, "ansi", "rgb_array", "human"])
def test_check_env_on_every_id_and_render_mode(env_id, render_mode, monkeypatch):
    # check_env makes every declared mode; "human" gets a window that shows nothing, as CI
    # has no display (the window itself is tested in test_render.py).
    monkeypatch.setattr(nestor.human, "open_viewer", lambda fps, title: _NoWindow())
    env = gym.make(env_id, render_mode=render_mode)
    check_env(env.unwrapped, skip_render_check=render_mode is None)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_registered_ids_truncate_at_their_documented_limit(env_id):
    assert gym.spec(env_id).max_episode_steps == MAX_EPISODE_STEPS[env_id]
    env = gym.make(env_id, max_episode_steps=3)
    env.reset(seed=0)
    action = 0 if env_id.endswith("Frame-v0") else None
    for k in range(3):
        a = action if action is not None else int(np.flatnonzero(env.unwrapped.action_masks())[0])
        _, _, term, trunc, _ = env.step(a)
        assert not term
        assert trunc == (k == 2)
    venv = gym.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point", max_episode_steps=2)
    obs, _ = venv.reset(seed=0)
    for k in range(2):
        if env_id.endswith("Frame-v0"):
            a = np.zeros(2, dtype=np.int64)
        else:
            a = np.array([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
        obs, _, term, trunc, info = venv.step(a)
    assert trunc.all() and not term.any() and info["_final_obs"].all()
    assert venv.unwrapped.max_episode_steps == 2


def test_board_with_piece_shows_the_falling_piece():
    g = _game_mid_piece()
    cells = g.cells
    assert len(cells) == 4
    assert sorted(cells) == sorted(nestor.piece_cells(g.x, g.y, g.orientation))
    with_piece = g.board_with_piece
    for x, y in cells:
        if y >= 0:
            assert with_piece[y, x] == 2
    assert ((with_piece == 1) == (g.board == 1)).all()
    env = FrameEnv(with_piece=True)
    obs, _ = env.reset(seed=7)
    for _ in range(40):
        obs, *_ = env.step(nestor.BUTTONS["LEFT"])
    assert (obs["board"] == with_piece).all()
    assert env.observation_space.contains(obs)
    # `active` holds y as a byte: piece_cells reads it back the same.
    assert sorted(nestor.piece_cells(*obs["active"][:3])) == sorted(cells)


def test_placement_of_inverts_placement_action():
    g = nestor.Game(level=19, seed=3)
    seen = pieces = 0
    for _ in range(5000):
        if pieces == 8:
            break
        locks = nestor.locks(g)
        if not locks:
            g.step(0)
            continue
        for lock in locks:
            assert nestor.placement_action(lock.x, lock.y, lock.orientation) == lock.action
            assert nestor.placement_of(lock.action, lock.piece) == (lock.x, lock.y, lock.orientation)
            assert nestor.placement_of(lock.action, nestor.PIECES.index(lock.piece)) == (
                lock.x, lock.y, lock.orientation)
            seen += 1
        g.run(locks[0].inputs)
        pieces += 1
    assert pieces == 8 and seen > 100


def test_rgb_array_is_the_game_drawn_without_a_rom():
    env = PlacementEnv(render_mode="rgb_array")
    env.reset(seed=1)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert (frame == env.game.render(8)).all()
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 3  # the board, a piece, text
    big = nestor.Game().render(cell=16)
    assert big.shape[0] > frame.shape[0]
    pixels = AddRenderObservation(env, render_only=True)
    obs, _ = pixels.reset(seed=1)
    assert obs.shape == frame.shape
    text = FrameEnv(render_mode="ansi")
    text.reset(seed=7)
    for _ in range(40):
        text.step(0)
    assert "@" in text.render()


def test_trace_round_trip_is_exact():
    g = nestor.Game(level=18, seed=5)
    rng = np.random.default_rng(5)
    for k in range(4000):
        g.step(int(rng.choice([0, 1, 2, 4, 0x80, 0x40])))
        if k % 7 == 0:
            back = nestor.Game.from_trace_line(g.trace_record())
            assert back == g and back.to_bytes() == g.to_bytes()
        if g.game_over:
            break


def test_read_trace_loads_fixture_traces(traces_dir):
    path = sorted(traces_dir.glob("*.jsonl.gz"))[0]
    trace = nestor.read_trace(path)
    assert trace.header and len(trace.frames) > 10
    game = nestor.Game.from_trace_line(trace.frames[0])
    assert game.level == trace.frames[0]["level"]
    assert nestor.read_trace(str(path)).frames == trace.frames


@pytest.mark.parametrize("single, vector", [(FrameEnv, FrameVectorEnv), (PlacementEnv, PlacementVectorEnv)])
def test_vector_info_has_the_single_envs_keys(single, vector):
    env = single()
    venv = vector(num_envs=2)
    _, info = env.reset(seed=4)
    _, vinfo = venv.reset(seed=4)
    assert set(info) <= set(vinfo)
    for k in info:
        assert "_" + k in vinfo and vinfo["_" + k].all()
        assert np.array_equal(np.asarray(vinfo[k][0]), np.asarray(info[k]))
    a = 0 if single is FrameEnv else int(np.flatnonzero(info["action_mask"])[0])
    _, _, _, _, info = env.step(a)
    _, _, _, _, vinfo = venv.step(np.array([a, a]))
    assert set(info) <= set(vinfo)
    for k in info:
        assert np.array_equal(np.asarray(vinfo[k][0]), np.asarray(info[k]))


def test_version_and_envs_after_import():
    assert nestor.__version__ == "0.1.0"
    out = subprocess.run(
        [sys.executable, "-c", "import nestor; print(nestor.envs.FrameEnv.__name__, nestor.vector.__name__)"],
        capture_output=True, text=True, check=True,
    )
    assert out.stdout.split() == ["FrameEnv", "nestor.vector"]


def test_every_public_name_has_a_docstring():
    missing = []
    for mod in (nestor, nestor.envs, nestor.vector):
        for name in mod.__all__:
            value = getattr(mod, name)
            if not (inspect.isclass(value) or callable(value)) or getattr(value, "__module__", "") not in (
                "nestor", mod.__name__, "nestor._nestor"
            ):
                continue
            if not (value.__doc__ or "").strip():
                missing.append(f"{mod.__name__}.{name}")
            if inspect.isclass(value):
                for attr in dir(value):
                    owner = next((c for c in value.__mro__ if attr in vars(c)), None)
                    if attr.startswith("_") or attr in getattr(value, "_fields", ()) or owner is None:
                        continue
                    if not owner.__module__.startswith("nestor"):
                        continue
                    member = vars(owner)[attr]
                    if not inspect.isroutine(member) and not isinstance(member, property) and not callable(
                        getattr(member, "__get__", None)
                    ):
                        continue
                    if not (getattr(member, "__doc__", None) or "").strip():
                        missing.append(f"{mod.__name__}.{name}.{attr}")
    assert not missing, missing
    assert "level" in nestor.Game.__doc__ and "seed" in nestor.Game.__doc__
