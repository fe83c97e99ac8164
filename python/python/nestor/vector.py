"""Vector forms of the nestor environments: N games stepped in Rust in one call.

Games that end are started again in the same step (Gymnasium's SAME_STEP autoreset, the next
seed in turn): `terminated` says which did, the observation returned for them is the new
game's first, and `info["final_obs"]` / `info["final_info"]` (score, lines, level) hold how
the ended game stood, masked by `info["_final_obs"]` / `info["_final_info"]`.

`threads=k` splits the games over k threads (the GIL is released while they step); the games
and their results do not depend on it. `copy=False` returns the arrays the Rust side writes
into (valid until the next step) instead of copies.
"""

from __future__ import annotations

from typing import Optional

import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

from . import PLACEMENT_ACTIONS, _Core
from .envs import _Buffers, observation_space


class _NestorVectorEnv(VectorEnv):
    _mode = "frame"
    metadata = {"autoreset_mode": None}

    def __init__(
        self,
        num_envs: int = 8,
        level: int = 19,
        profile: str = "30hz",
        reward: str = "lines",
        soft_drop: bool = False,
        copy: bool = True,
        threads: int = 1,
        **kwargs,
    ):
        try:
            from gymnasium.vector import AutoresetMode

            self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
        except ImportError:
            pass
        if int(num_envs) < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        self.num_envs = int(num_envs)
        self.copy = copy
        self._core = _Core(self.num_envs, self._mode, level, 0, profile, soft_drop, reward, int(threads))
        self._buf = _Buffers(self.num_envs, self._mode)
        self.single_observation_space = observation_space(self._mode)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        n = 256 if self._mode == "frame" else PLACEMENT_ACTIONS
        self.single_action_space = spaces.Discrete(n)
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, n))
        self._truncated = np.zeros(self.num_envs, dtype=bool)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        if options and "level" in options:
            self._core.set_level(options["level"])
        if seed is None:
            seed = int(np.random.default_rng().integers(0, 2**63))
        if isinstance(seed, (list, tuple, np.ndarray)):
            seeds = [int(s) for s in seed]
        else:
            seeds = [int(seed) + i for i in range(self.num_envs)]
            self._core.set_seed(int(seed) + self.num_envs)
        self._core.reset(seeds)
        self._buf.fill(self._core)
        return self._buf.batch(self.copy), self._info()

    def _info(self) -> dict:
        info = {}
        if self._buf.mask is not None:
            info["action_mask"] = self._buf.mask.copy() if self.copy else self._buf.mask
        return info

    def step(self, actions):
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"expected {self.num_envs} actions (shape ({self.num_envs},)), got shape {a.shape}")
        if not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"actions are integers, got {a.dtype}")
        term = self._buf.terminated
        invalid = self._core.step(a.astype(np.int64, copy=False), self._buf.reward, term)
        self._buf.fill(self._core)
        final = {}
        if term.any():
            ended = np.flatnonzero(term)
            final_obs = np.full(self.num_envs, None, dtype=object)
            final_info = {k: np.zeros(self.num_envs, dtype=np.int64) for k in ("score", "lines", "level")}
            for i in ended:
                final_obs[i] = self._buf.obs(int(i))
                score, lines, level = self._core.stats(int(i))
                final_info["score"][i], final_info["lines"][i], final_info["level"][i] = score, lines, level
            for k in ("score", "lines", "level"):
                final_info["_" + k] = term.copy()
            final = {"final_obs": final_obs, "_final_obs": term.copy(), "final_info": final_info,
                     "_final_info": term.copy()}
            self._core.reset_games([int(i) for i in ended])
            self._buf.fill(self._core)
        info = self._info()
        info.update(final)
        if self._buf.mask is not None:
            flags = np.zeros(self.num_envs, dtype=bool)
            flags[invalid] = True
            info["invalid_action"] = flags
        f = (lambda x: x.copy()) if self.copy else (lambda x: x)
        return (
            self._buf.batch(self.copy),
            f(self._buf.reward),
            f(self._buf.terminated),
            self._truncated.copy(),
            info,
        )


class FrameVectorEnv(_NestorVectorEnv):
    """N frame-level games; actions are N controller bytes."""

    _mode = "frame"


class PlacementVectorEnv(_NestorVectorEnv):
    """N placement-level games; actions are N placement indices (see the action masks)."""

    _mode = "placement"
