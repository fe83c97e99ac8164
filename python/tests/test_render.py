"""The pictures: rgb_array blocks in the level's colours, and render_mode="human" (its
refusals without a display or a window library, and the frames it shows)."""

import sys

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import DependencyNotInstalled

import nestor
import nestor.human
from nestor.envs import FrameEnv

# NES master-palette RGB of the cartridge's colorTable entries for levels 0 and 1.
LEVEL_0 = {(0x4C, 0x9A, 0xEC), (0x30, 0x32, 0xEC)}  # $21, $12
LEVEL_1 = {(0x74, 0xC4, 0x00), (0x08, 0x7C, 0x00)}  # $29, $1A


def _colours(frame):
    return {tuple(int(c) for c in p) for p in np.unique(frame.reshape(-1, 3), axis=0)}


def test_rgb_array_blocks_take_the_levels_colours():
    frames = {}
    for level in (0, 1, 10):
        env = FrameEnv(level=level, render_mode="rgb_array")
        env.reset(seed=7)
        frames[level] = env.render()
    assert frames[0].shape == frames[1].shape
    assert (frames[0] != frames[1]).any()
    zero, one = _colours(frames[0]), _colours(frames[1])
    assert zero & LEVEL_0 and not zero & LEVEL_1
    assert one & LEVEL_1 and not one & LEVEL_0
    # Level 10 takes level 0's palette (level mod 10), though its number differs.
    assert _colours(frames[10]) & LEVEL_0 and not _colours(frames[10]) & LEVEL_1


def test_game_render_uses_the_games_level():
    assert _colours(nestor.Game(level=1, seed=7).render(8)) & LEVEL_1


def test_human_without_a_display_is_refused(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with pytest.raises(RuntimeError, match="needs a display.*DISPLAY.*WAYLAND_DISPLAY"):
        gym.make("nestor/Frame-v0", render_mode="human")


def test_human_without_pygame_or_matplotlib_is_refused(monkeypatch):
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setitem(sys.modules, "pygame", None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(DependencyNotInstalled, match=r"needs pygame or matplotlib.*nestor\[human\]"):
        gym.make("nestor/Placement-v0", render_mode="human")


class _Recorder(nestor.human.Viewer):
    def __init__(self):
        self.frames = []
        self.closed = False

    def show(self, frame):
        self.frames.append(frame.copy())

    def close(self):
        self.closed = True


def test_human_shows_every_reset_and_step(monkeypatch):
    viewer = _Recorder()
    monkeypatch.setattr(nestor.human, "open_viewer", lambda fps, title: viewer)
    env = FrameEnv(level=3, render_mode="human")
    env.reset(seed=2)
    for _ in range(3):
        env.step(0)
    assert env.render() is None
    assert len(viewer.frames) == 5
    assert (viewer.frames[-1] == env.game.render(8)).all()
    env.close()
    assert viewer.closed


def test_human_draws_with_pygame_when_installed(monkeypatch):
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    env = FrameEnv(render_mode="human")
    env.reset(seed=1)
    env.step(0)
    shown = pygame.surfarray.array3d(pygame.display.get_surface()).swapaxes(0, 1)
    assert (shown == env.game.render(8)).all()
    env.close()
