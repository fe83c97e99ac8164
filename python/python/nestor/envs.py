"""Gymnasium environments on nestor's rules model.

`nestor/Frame-v0`: one step is one frame; the action is the controller byte (0-255: A $80,
B $40, Select $20, Start $10, Up $08, Down $04, Left $02, Right $01).

`nestor/Placement-v0`: one step is one piece; the action is a placement index (rotation slot ×
pivot row × column, `nestor.placement_action(x, y, orientation)`, back with
`nestor.placement_of(action, piece)`), valid when it is one of the locks the piece can reach
under the profile: `observation["action_mask"]` and `info["action_mask"]` mark them. The
environment then plays the lock's frame-by-frame inputs. An action outside the mask presses
nothing (the piece falls where gravity takes it), sets `info["invalid_action"]` and costs
`invalid_penalty` (0 by default).

Both take `level` (start level 0-255), `profile` (preset name, .toml file or None for "30hz"),
`reward` ("lines" or "score"), `with_piece` (the board shows the falling piece as 2) and
`render_mode` ("ansi" text, "rgb_array" pixels drawn by nestor in the level's colours with no
ROM, or "human": the same pixels in a window, with pygame or matplotlib, see `nestor.human`);
`reset(seed=...)` picks the game's pieces. `gym.make` stops an episode (truncation) after
`MAX_EPISODE_STEPS[id]` steps unless given `max_episode_steps`.

Observation fields (every one a numpy value):

| field | shape, dtype | encoding |
| --- | --- | --- |
| board | (20, 10) uint8 | visible rows top to bottom: 0 empty, 1 block; 2 the falling piece with `with_piece=True` |
| piece | int | the falling piece, index into `nestor.PIECES` ("TJZOSLI"); 7 none shown |
| next | int | the next piece, same encoding |
| level | (1,) int32 | the current level 0-255 |
| lines | (1,) int32 | lines cleared, capped at 65535 |
| active (Frame) | (4,) uint8 | pivot x 0-9, pivot y as a byte (254, 255: hidden rows −2, −1), orientation id 0-18 (19 none), play state (1 control, 2 lock, 3 row check, 4 line clear, ... 8 spawn, 10 curtain); `nestor.piece_cells(*active[:3])` gives its cells |
| action_mask (Placement) | (880,) int8 | 1 where the placement action is a reachable lock |
"""

from __future__ import annotations

import numbers
import operator
from typing import Any, Dict, List, Optional, SupportsIndex, Tuple

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import Lock, ProfileArg, _profile_name
from . import human
from ._nestor import PLACEMENT_ACTIONS, Game, _Core

__all__ = ["FrameEnv", "PlacementEnv", "MAX_EPISODE_STEPS", "MAX_LINES", "RENDER_CELL", "observation_space"]

#: The highest `lines` an observation shows.
MAX_LINES = 65535

#: The step limit `gym.make` puts on each registered id (truncation): one hour of frames at
#: the NES's 60 frames a second for Frame-v0; 10,000 pieces (4,000 lines) for Placement-v0.
MAX_EPISODE_STEPS = {"nestor/Frame-v0": 216_000, "nestor/Placement-v0": 10_000}

#: Pixels per playfield cell of `render()` in "rgb_array" mode unless `render_cell` says.
RENDER_CELL = 8

_OPTIONS = ("level",)


def observation_space(mode: str, with_piece: bool = False) -> spaces.Dict:
    """The observation space of one game in `mode` ("frame" or "placement")."""
    d: Dict[str, spaces.Space[Any]] = {
        "board": spaces.Box(0, 2 if with_piece else 1, shape=(20, 10), dtype=np.uint8),
        "piece": spaces.Discrete(8),
        "next": spaces.Discrete(8),
        "level": spaces.Box(0, 255, shape=(1,), dtype=np.int32),
        "lines": spaces.Box(0, MAX_LINES, shape=(1,), dtype=np.int32),
    }
    if mode == "frame":
        d["active"] = spaces.Box(0, 255, shape=(4,), dtype=np.uint8)
    else:
        d["action_mask"] = spaces.MultiBinary(PLACEMENT_ACTIONS)
    return spaces.Dict(d)


def check_seed(seed: Any) -> Optional[int]:
    """`seed` as an int in 0..=2**64-1 (None stays None): a TypeError for a non-integer, a
    ValueError out of range."""
    if seed is None:
        return None
    if isinstance(seed, bool):
        raise TypeError("seed must be an integer or None, got a bool")
    try:
        v = operator.index(seed)
    except TypeError:
        raise TypeError(f"seed must be an integer or None, got {type(seed).__name__}") from None
    if not 0 <= v < 2**64:
        raise ValueError(f"seed must be in 0..=2**64-1, got {v}")
    return v


def check_options(options: Optional[Dict[str, Any]]) -> Optional[Any]:
    """The `level` of reset options, after checking that nothing else is asked."""
    if options is None:
        return None
    if not isinstance(options, dict):
        raise TypeError(f"options must be a dict or None, got {type(options).__name__}")
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        raise ValueError(f"unknown reset options {unknown}: the options are {list(_OPTIONS)}")
    return options.get("level")


def check_common(reward: Any, soft_drop: Any, render_mode: Any, modes: List[str]) -> None:
    """The arguments every environment takes, beyond those the Rust core checks."""
    if not isinstance(reward, str):
        raise TypeError(f"reward must be 'lines' or 'score', got {type(reward).__name__}")
    if not isinstance(soft_drop, (bool, np.bool_)):
        raise TypeError(f"soft_drop must be a bool, got {type(soft_drop).__name__}")
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be one of {modes} or None, got {render_mode!r}")


class _Buffers:
    """The numpy arrays the Rust core writes observations into, for `n` games."""

    def __init__(self, n: int, mode: str, with_piece: bool = False):
        self.with_piece = with_piece
        self.board = np.zeros((n, 20, 10), dtype=np.uint8)
        self.piece = np.zeros(n, dtype=np.int64)
        self.next = np.zeros(n, dtype=np.int64)
        self.level = np.zeros((n, 1), dtype=np.int32)
        self.lines = np.zeros((n, 1), dtype=np.int32)
        self.active = np.zeros((n, 4), dtype=np.uint8) if mode == "frame" else None
        self.mask = np.zeros((n, PLACEMENT_ACTIONS), dtype=np.int8) if mode != "frame" else None
        self.reward = np.zeros(n, dtype=np.float64)
        self.terminated = np.zeros(n, dtype=bool)
        # score, lines, level per game: what `info` reports.
        self.stats = np.zeros((n, 3), dtype=np.int64)

    def fill(self, core: _Core) -> None:
        core.observe(
            self.board, self.piece, self.next, self.level, self.lines, self.active, self.mask, self.with_piece,
            self.stats,
        )

    def obs(self, i: int) -> Dict[str, Any]:
        o: Dict[str, Any] = {
            "board": self.board[i].copy(),
            "piece": int(self.piece[i]),
            "next": int(self.next[i]),
            "level": self.level[i].copy(),
            "lines": self.lines[i].copy(),
        }
        if self.active is not None:
            o["active"] = self.active[i].copy()
        elif self.mask is not None:
            o["action_mask"] = self.mask[i].copy()
        return o

    def batch(self, copy: bool) -> Dict[str, np.ndarray]:
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
        elif self.mask is not None:
            o["action_mask"] = f(self.mask)
        return o


def _scalar_action(action: Any, n: int) -> int:
    if type(action) is int and 0 <= action < n:  # the common case, without numpy's cost
        return action
    if isinstance(action, (bool, np.bool_)):
        raise TypeError("the action must be an integer, got a bool")
    a = np.asarray(action)
    if a.ndim != 0:
        raise ValueError(f"the action is one integer in 0..={n - 1}, got an array of shape {a.shape}")
    if not np.issubdtype(a.dtype, np.integer):
        raise TypeError(f"the action must be an integer in 0..={n - 1}, got {a.dtype}")
    v = int(a)
    if not 0 <= v < n:
        raise ValueError(f"the action must be in 0..={n - 1}, got {v}")
    return v


def render_ansi(game: Game) -> str:
    """The game as text: a header line, then the 20 rows ('#' a block, '@' the falling piece)."""
    rows = ["".join(".#@"[c] for c in row) for row in game.board_with_piece]
    head = f"level {game.level} lines {game.lines} score {game.score} piece {game.piece} next {game.next_piece}"
    return "\n".join([head] + rows)


def check_render_cell(render_cell: Any) -> int:
    """The pixels per cell of the "rgb_array" render (4..=64)."""
    if isinstance(render_cell, bool) or not isinstance(render_cell, numbers.Integral):
        raise TypeError(f"render_cell must be an integer, got {type(render_cell).__name__}")
    if not 4 <= int(render_cell) <= 64:
        raise ValueError(f"render_cell must be in 4..=64, got {render_cell}")
    return int(render_cell)


class _NestorEnv(gym.Env):
    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 60}
    _mode = "frame"
    _n_actions = 256

    def __init__(
        self,
        level: SupportsIndex = 19,
        profile: ProfileArg = "30hz",
        reward: str = "lines",
        soft_drop: bool = False,
        invalid_penalty: float = 0.0,
        render_mode: Optional[str] = None,
        with_piece: bool = False,
        render_cell: int = RENDER_CELL,
    ):
        check_common(reward, soft_drop, render_mode, self.metadata["render_modes"])
        if isinstance(invalid_penalty, bool) or not isinstance(invalid_penalty, numbers.Real):
            raise TypeError(f"invalid_penalty must be a number, got {type(invalid_penalty).__name__}")
        if not isinstance(with_piece, (bool, np.bool_)):
            raise TypeError(f"with_piece must be a bool, got {type(with_piece).__name__}")
        self.render_mode = render_mode
        self.render_cell: int = check_render_cell(render_cell)
        self.invalid_penalty: float = float(invalid_penalty)
        self.level = level
        self.profile = _profile_name(profile)
        self._core: _Core = _Core(1, self._mode, level, 0, self.profile, bool(soft_drop), reward)
        self._buf: _Buffers = _Buffers(1, self._mode, bool(with_piece))
        self.observation_space = observation_space(self._mode, bool(with_piece))
        self._actions: np.ndarray = np.zeros(1, dtype=np.int64)
        self._viewer: Optional[human.Viewer] = None
        if render_mode == "human":
            self._viewer = human.open_viewer(int(self.metadata["render_fps"]), type(self).__name__)

    @property
    def game(self) -> Game:
        """A copy of the game as it stands (a `nestor.Game`)."""
        return self._core.game(0)

    def _info(self) -> Dict[str, Any]:
        score, lines, level = self._buf.stats[0].tolist()
        return {"score": score, "lines": lines, "level": level}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """Starts a new game: `seed` (0..=2**64-1) picks its pieces; `options={"level": n}`
        changes the start level of this and the following games."""
        seed = check_seed(seed)
        level = check_options(options)
        super().reset(seed=seed)
        if level is not None:
            self._core.set_level(level)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**63))
        self._core.reset([seed])
        self._buf.fill(self._core)
        if self._viewer is not None:
            self.render()
        return self._buf.obs(0), self._info()

    def step(self, action: Any) -> Tuple[Dict[str, Any], float, bool, bool, Dict[str, Any]]:
        """One frame (Frame) or one piece (Placement) with `action`."""
        self._actions[0] = _scalar_action(action, self._n_actions)
        invalid = self._core.step(self._actions, self._buf.reward, self._buf.terminated)
        self._buf.fill(self._core)
        info = self._info()
        reward = float(self._buf.reward[0])
        if self._mode == "placement":
            info["invalid_action"] = bool(invalid)
        if invalid:
            reward -= self.invalid_penalty
        if self._viewer is not None:
            self.render()
        return self._buf.obs(0), reward, bool(self._buf.terminated[0]), False, info

    def render(self) -> Any:
        """"ansi": the board as text with the falling piece; "rgb_array": nestor's picture of
        the game (board, falling piece, next piece, numbers, blocks in the level's colours; no
        ROM) as a uint8 array (height, width, 3); "human": that picture shown in the window
        (also after every reset and step), returning None; None without a render mode."""
        if self.render_mode == "ansi":
            return render_ansi(self._core.game(0))
        if self.render_mode == "rgb_array":
            return self._core.render(0, self.render_cell)
        if self._viewer is not None:
            self._viewer.show(self._core.render(0, self.render_cell))
        return None

    def close(self) -> None:
        """Closes the "human" window, if any."""
        if self._viewer is not None:
            self._viewer.close()
            self._viewer = None
        super().close()


class FrameEnv(_NestorEnv):
    """One frame per step; actions are controller bytes 0-255. The arguments are
    `nestor.envs`' (level, profile, reward, soft_drop, invalid_penalty, render_mode,
    with_piece, render_cell)."""

    _mode = "frame"

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.action_space = spaces.Discrete(256)


class PlacementEnv(_NestorEnv):
    """One piece per step; actions are placement indices, valid where the action mask is 1.
    The arguments are `nestor.envs`' (level, profile, reward, soft_drop, invalid_penalty,
    render_mode, with_piece, render_cell)."""

    _mode = "placement"
    _n_actions = PLACEMENT_ACTIONS

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.action_space = spaces.Discrete(PLACEMENT_ACTIONS)

    def _info(self) -> Dict[str, Any]:
        info = super()._info()
        assert self._buf.mask is not None
        info["action_mask"] = self._buf.mask[0].copy()
        return info

    def locks(self) -> List[Lock]:
        """The current piece's reachable locks (`nestor.Lock`), with their actions."""
        return [Lock(x, y, o, p, len(i), i, a) for x, y, o, p, i, a in self._core.locks(0)]

    def action_masks(self) -> np.ndarray:
        """The action mask (the name sb3-contrib's MaskablePPO looks for)."""
        assert self._buf.mask is not None
        return self._buf.mask[0].astype(bool)
