"""Gymnasium environments on nestor's rules model.

`nestor/Frame-v0`: one step is one frame; the action is the controller byte (0-255: A $80,
B $40, Select $20, Start $10, Up $08, Down $04, Left $02, Right $01).

`nestor/Placement-v0`: one step is one piece; the action is a placement index (rotation slot ×
pivot row × column, `nestor.placement_action(x, y, orientation)`), valid when it is one of the
locks the piece can reach under the profile: `observation["action_mask"]` and
`info["action_mask"]` mark them. The environment then plays the lock's frame-by-frame inputs.
An action outside the mask presses nothing (the piece falls where gravity takes it), sets
`info["invalid_action"]` and costs `invalid_penalty` (0 by default).

Both take `level` (start level 0-255), `profile` (preset name or .toml file) and
`reward` ("lines" or "score"); `reset(seed=...)` picks the game's pieces.
"""

from __future__ import annotations

from typing import Any, Optional

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import PLACEMENT_ACTIONS, _Core

MAX_LINES = 65535


def _common_spaces() -> dict:
    return {
        "board": spaces.Box(0, 1, shape=(20, 10), dtype=np.uint8),
        "piece": spaces.Discrete(8),
        "next": spaces.Discrete(8),
        "level": spaces.Box(0, 255, shape=(1,), dtype=np.int32),
        "lines": spaces.Box(0, MAX_LINES, shape=(1,), dtype=np.int32),
    }


def observation_space(mode: str) -> spaces.Dict:
    d = _common_spaces()
    if mode == "frame":
        d["active"] = spaces.Box(0, 255, shape=(4,), dtype=np.uint8)
    else:
        d["action_mask"] = spaces.MultiBinary(PLACEMENT_ACTIONS)
    return spaces.Dict(d)


class _Buffers:
    """The numpy arrays the Rust core writes observations into, for `n` games."""

    def __init__(self, n: int, mode: str):
        self.board = np.zeros((n, 20, 10), dtype=np.uint8)
        self.piece = np.zeros(n, dtype=np.int64)
        self.next = np.zeros(n, dtype=np.int64)
        self.level = np.zeros((n, 1), dtype=np.int32)
        self.lines = np.zeros((n, 1), dtype=np.int32)
        self.active = np.zeros((n, 4), dtype=np.uint8) if mode == "frame" else None
        self.mask = np.zeros((n, PLACEMENT_ACTIONS), dtype=np.int8) if mode != "frame" else None
        self.reward = np.zeros(n, dtype=np.float64)
        self.terminated = np.zeros(n, dtype=bool)

    def fill(self, core: _Core) -> None:
        core.observe(self.board, self.piece, self.next, self.level, self.lines, self.active, self.mask)

    def obs(self, i: int) -> dict:
        o = {
            "board": self.board[i].copy(),
            "piece": int(self.piece[i]),
            "next": int(self.next[i]),
            "level": self.level[i].copy(),
            "lines": self.lines[i].copy(),
        }
        if self.active is not None:
            o["active"] = self.active[i].copy()
        else:
            o["action_mask"] = self.mask[i].copy()
        return o

    def batch(self, copy: bool) -> dict:
        f = (lambda a: a.copy()) if copy else (lambda a: a)
        o = {
            "board": f(self.board),
            "piece": f(self.piece),
            "next": f(self.next),
            "level": f(self.level),
            "lines": f(self.lines),
        }
        if self.active is not None:
            o["active"] = f(self.active)
        else:
            o["action_mask"] = f(self.mask)
        return o


def _scalar_action(action: Any, n: int) -> int:
    a = np.asarray(action)
    if a.ndim != 0:
        raise ValueError(f"the action is one integer, got an array of shape {a.shape}")
    if not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"the action is an integer, got {a.dtype}")
    v = int(a)
    if not 0 <= v < n:
        raise ValueError(f"the action must be in 0..{n - 1}, got {v}")
    return v


class _NestorEnv(gym.Env):
    metadata = {"render_modes": ["ansi"], "render_fps": 60}
    _mode = "frame"

    def __init__(
        self,
        level: int = 19,
        profile: str = "30hz",
        reward: str = "lines",
        soft_drop: bool = False,
        invalid_penalty: float = 0.0,
        render_mode: Optional[str] = None,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        self.invalid_penalty = float(invalid_penalty)
        self.level = level
        self.profile = profile
        self._core = _Core(1, self._mode, level, 0, profile, soft_drop, reward)
        self._buf = _Buffers(1, self._mode)
        self.observation_space = observation_space(self._mode)
        self._actions = np.zeros(1, dtype=np.int64)

    @property
    def game(self):
        """A copy of the game as it stands (a `nestor.Game`)."""
        return self._core.game(0)

    def _info(self) -> dict:
        score, lines, level = self._core.stats(0)
        return {"score": score, "lines": lines, "level": level}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        if options and "level" in options:
            self._core.set_level(options["level"])
        if seed is None:
            seed = int(self.np_random.integers(0, 2**63))
        self._core.reset([int(seed)])
        self._buf.fill(self._core)
        return self._buf.obs(0), self._info()

    def step(self, action):
        self._actions[0] = _scalar_action(action, self.action_space.n)
        invalid = self._core.step(self._actions, self._buf.reward, self._buf.terminated)
        self._buf.fill(self._core)
        info = self._info()
        reward = float(self._buf.reward[0])
        if invalid:
            info["invalid_action"] = True
            reward -= self.invalid_penalty
        return self._buf.obs(0), reward, bool(self._buf.terminated[0]), False, info

    def render(self):
        if self.render_mode != "ansi":
            return None
        g = self._core.game(0)
        rows = ["".join("#" if c else "." for c in row) for row in g.board]
        head = f"level {g.level} lines {g.lines} score {g.score} piece {g.piece} next {g.next_piece}"
        return "\n".join([head] + rows)


class FrameEnv(_NestorEnv):
    """One frame per step; actions are controller bytes 0-255."""

    _mode = "frame"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.action_space = spaces.Discrete(256)


class PlacementEnv(_NestorEnv):
    """One piece per step; actions are placement indices, valid where the action mask is 1."""

    _mode = "placement"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.action_space = spaces.Discrete(PLACEMENT_ACTIONS)

    def _info(self) -> dict:
        info = super()._info()
        info["action_mask"] = self._buf.mask[0].copy()
        return info

    def locks(self) -> list:
        """The current piece's reachable locks (`nestor.Lock`), with their actions."""
        from . import Lock

        return [Lock(x, y, o, p, len(i), i, a) for x, y, o, p, i, a in self._core.locks(0)]

    def action_masks(self) -> np.ndarray:
        """The action mask (the name sb3-contrib's MaskablePPO looks for)."""
        return self._buf.mask[0].astype(bool)
