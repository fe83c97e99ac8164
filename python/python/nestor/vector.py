"""Vector forms of the nestor environments: N games stepped in Rust in one call.

Games that end (terminated, or truncated after `max_episode_steps` steps when given) are
started again in the same step (Gymnasium's SAME_STEP autoreset, the next seed in turn): the
observation returned for them is the new game's first, and `info["final_obs"]` /
`info["final_info"]` hold how the ended game stood, masked by `info["_final_obs"]` /
`info["_final_info"]`. `info` has the single environment's keys as arrays (score, lines, level;
action_mask and invalid_action for placements), each with its `_key` mask.

`threads=k` splits the games over k threads (the GIL is released while they step); the games
and their results do not depend on it. `copy=False` returns the arrays the Rust side writes
into (valid until the next step) instead of copies.
"""

from __future__ import annotations

import operator
from typing import Any, Dict, Optional, Sequence, SupportsIndex, Tuple, Union

import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

from . import ProfileArg, _profile_name
from ._nestor import PLACEMENT_ACTIONS, _Core
from .envs import _Buffers, check_common, check_options, check_seed, observation_space

__all__ = ["FrameVectorEnv", "PlacementVectorEnv"]

_STATS = ("score", "lines", "level")


def _positive(value: Any, what: str, allow_none: bool = False) -> Optional[int]:
    if value is None and allow_none:
        return None
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an integer, got a bool")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, got {type(value).__name__}") from None
    if v < 1:
        raise ValueError(f"{what} must be at least 1, got {v}")
    return v


class _NestorVectorEnv(VectorEnv):
    _mode = "frame"
    metadata = {"autoreset_mode": None}

    def __init__(
        self,
        num_envs: int = 8,
        level: SupportsIndex = 19,
        profile: ProfileArg = "30hz",
        reward: str = "lines",
        soft_drop: bool = False,
        copy: bool = True,
        threads: int = 1,
        max_episode_steps: Optional[int] = None,
        with_piece: bool = False,
        render_mode: Optional[str] = None,
        invalid_penalty: float = 0.0,
    ):
        try:
            from gymnasium.vector import AutoresetMode

            self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
        except ImportError:
            pass
        n = _positive(num_envs, "num_envs")
        threads_n = _positive(threads, "threads")
        assert n is not None and threads_n is not None
        self.max_episode_steps = _positive(max_episode_steps, "max_episode_steps", allow_none=True)
        check_common(reward, soft_drop, render_mode, [])
        if not isinstance(with_piece, (bool, np.bool_)):
            raise TypeError(f"with_piece must be a bool, got {type(with_piece).__name__}")
        self.invalid_penalty = float(invalid_penalty)
        self.num_envs = n
        self.copy = bool(copy)
        self.render_mode = None
        self._core = _Core(n, self._mode, level, 0, _profile_name(profile), bool(soft_drop), reward, threads_n)
        self._buf = _Buffers(n, self._mode, bool(with_piece))
        self.single_observation_space = observation_space(self._mode, bool(with_piece))
        self.observation_space = batch_space(self.single_observation_space, n)
        na = 256 if self._mode == "frame" else PLACEMENT_ACTIONS
        self.single_action_space = spaces.Discrete(na)
        self.action_space = spaces.MultiDiscrete(np.full(n, na))
        self._steps = np.zeros(n, dtype=np.int64)
        self._all = np.ones(n, dtype=bool)

    def reset(
        self,
        *,
        seed: Union[int, Sequence[int], np.ndarray, None] = None,
        options: Optional[Dict[str, Any]] = None,
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        """Starts every game again: game i with `seed + i` (0..=2**64-1, wrapping) or `seed[i]`
        for a sequence of N seeds; `options={"level": n}` changes the start level."""
        level = check_options(options)
        if isinstance(seed, (list, tuple, np.ndarray)):
            checked = [check_seed(s) for s in seed]
            seeds = [s for s in checked if s is not None]
            if len(seeds) != self.num_envs:
                raise ValueError(f"seed must be one integer or {self.num_envs} integers, got {len(checked)} values")
            base = None
        else:
            base = check_seed(seed)
            if base is None:
                base = int(np.random.default_rng().integers(0, 2**63))
            seeds = [(base + i) % 2**64 for i in range(self.num_envs)]
        if level is not None:
            self._core.set_level(level)
        if base is not None:
            self._core.set_seed((base + self.num_envs) % 2**64)
        self._core.reset(seeds)
        self._buf.fill(self._core)
        self._steps[:] = 0
        return self._buf.batch(self.copy), self._info(None)

    def _info(self, invalid: Optional[np.ndarray]) -> Dict[str, Any]:
        b = self._buf
        f = (lambda x: x.copy()) if self.copy else (lambda x: x)
        info: Dict[str, Any] = {}
        for k, v in zip(_STATS, b.stats.T):
            info[k], info["_" + k] = v.copy(), self._all.copy()
        if b.mask is not None:
            info["action_mask"], info["_action_mask"] = f(b.mask), self._all.copy()
            if invalid is not None:
                info["invalid_action"], info["_invalid_action"] = invalid, self._all.copy()
        return info

    def _final(self, ended: np.ndarray, done: np.ndarray) -> Dict[str, Any]:
        """How the games that ended stood, before they start again."""
        final_obs = np.full(self.num_envs, None, dtype=object)
        final_info: Dict[str, Any] = {}
        for k, v in zip(_STATS, self._buf.stats.T):
            final_info[k] = np.where(done, v, 0)
            final_info["_" + k] = done.copy()
        for i in ended:
            final_obs[i] = self._buf.obs(int(i))
        return {"final_obs": final_obs, "_final_obs": done.copy(), "final_info": final_info,
                "_final_info": done.copy()}

    def step(
        self, actions: Any
    ) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """One step of every game: `actions` holds N integers (controller bytes or placement
        indices)."""
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"expected {self.num_envs} actions (shape ({self.num_envs},)), got shape {a.shape}")
        if not np.issubdtype(a.dtype, np.integer):
            raise TypeError(f"actions must be integers, got {a.dtype}")
        term = self._buf.terminated
        invalid_games = self._core.step(a.astype(np.int64, copy=False), self._buf.reward, term)
        self._buf.fill(self._core)
        invalid = np.zeros(self.num_envs, dtype=bool)
        invalid[invalid_games] = True
        if self.invalid_penalty:
            self._buf.reward[invalid] -= self.invalid_penalty
        self._steps += 1
        truncated = np.zeros(self.num_envs, dtype=bool)
        if self.max_episode_steps is not None:
            truncated = (self._steps >= self.max_episode_steps) & ~term
        done = term | truncated
        final: Dict[str, Any] = {}
        if done.any():
            ended = np.flatnonzero(done)
            final = self._final(ended, done)
            self._core.reset_games([int(i) for i in ended])
            self._steps[ended] = 0
            self._buf.fill(self._core)
        info = self._info(invalid if self._buf.mask is not None else None)
        info.update(final)
        f = (lambda x: x.copy()) if self.copy else (lambda x: x)
        return (self._buf.batch(self.copy), f(self._buf.reward), f(term), truncated, info)


class FrameVectorEnv(_NestorVectorEnv):
    """N frame-level games; actions are N controller bytes. The arguments: num_envs, level,
    profile, reward, soft_drop, copy, threads, max_episode_steps, with_piece (module doc)."""

    _mode = "frame"


class PlacementVectorEnv(_NestorVectorEnv):
    """N placement-level games; actions are N placement indices (see the action masks). The
    arguments: num_envs, level, profile, reward, soft_drop, copy, threads, max_episode_steps,
    with_piece, invalid_penalty (module doc)."""

    _mode = "placement"
