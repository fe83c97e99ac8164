"""nestor for Python: the NES Tetris (NTSC) rules model, exact frame for frame, the lock search
under a player profile, nestor's planner, and Gymnasium environments built on them.

    import nestor
    game = nestor.Game(level=19, seed=1)
    ev = game.step("left")            # or an int controller byte, or "A.....L."
    locks = nestor.locks(game, profile="30hz")

Bad arguments follow one rule: a wrong type is a TypeError, a value out of range (a seed, a
level, an action, a profile or file that cannot be used) a ValueError that names the argument
and what it accepts.
"""

from __future__ import annotations

import gzip
import json
import os
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union

from ._nestor import (  # noqa: F401
    PIECES,
    PLACEMENT_ACTIONS,
    STATE_BYTES,
    Events,
    Game,
    _Core,
    _locks,
    _spawn_locks,
    __version__,
    piece_cells,
    placement_action,
    placement_of,
    profiles,
)
from ._nestor import Planner as _Planner

__all__ = [
    "Game",
    "Events",
    "Lock",
    "Plan",
    "Planner",
    "Trace",
    "locks",
    "profiles",
    "placement_action",
    "placement_of",
    "piece_cells",
    "read_trace",
    "PIECES",
    "PLACEMENT_ACTIONS",
    "STATE_BYTES",
    "BUTTONS",
    "NO_PIECE",
    "__version__",
]

#: Controller bits, as the cartridge stores them.
BUTTONS = {
    "A": 0x80,
    "B": 0x40,
    "SELECT": 0x20,
    "START": 0x10,
    "UP": 0x08,
    "DOWN": 0x04,
    "LEFT": 0x02,
    "RIGHT": 0x01,
}

#: The piece index of "no piece" in the environments' `piece` and `next` (0-6 index `PIECES`).
NO_PIECE = 7

#: A profile argument: a preset name (`nestor.profiles()`), a .toml file, or None for "30hz".
ProfileArg = Union[str, "os.PathLike[str]", None]


class Lock(NamedTuple):
    """A reachable lock: the piece's pivot (x, y) and orientation id where it locks, its letter,
    the frames to get there, `inputs` (one controller byte per frame from the next frame on;
    the last one is the lock frame) and its placement action index."""

    x: int
    y: int
    orientation: int
    piece: str
    frames: int
    inputs: bytes
    action: int


class Plan(NamedTuple):
    """nestor's decision: `inputs` (one controller byte per frame, the last one the lock
    frame), `lock` and `next_lock` as (x, y, orientation id), `value` (lower is better; None
    when every pair breaks a rule), `candidates` (reachable locks of the current piece) and
    `replan_after`: under a profile with a reaction time the first plan of a piece is made
    before the next piece is seen; nestor plays that many of its inputs, then plans again (call
    `plan` again then: the game knows how far its piece has come). None otherwise."""

    inputs: bytes
    lock: Tuple[int, int, int]
    next_lock: Optional[Tuple[int, int, int]]
    value: Optional[float]
    candidates: int
    replan_after: Optional[int]


class Trace(NamedTuple):
    """A trace file (the format of tests/fixtures/traces): its `header` (a dict; empty when the
    file has none) and its `frames`, one dict per frame line, each one a
    `Game.from_trace_line` accepts."""

    header: Dict[str, Any]
    frames: List[Dict[str, Any]]


def _profile_name(profile: ProfileArg) -> str:
    """The profile argument as the Rust side takes it: None is "30hz", paths are strings."""
    if profile is None:
        return "30hz"
    if isinstance(profile, str):
        return profile
    if isinstance(profile, os.PathLike):
        return os.fspath(profile)
    raise TypeError(
        f"profile must be a preset name ({', '.join(profiles())}), a .toml file path or None, "
        f"got {type(profile).__name__}"
    )


def _check_game(game: Any, what: str) -> None:
    if not isinstance(game, Game):
        raise TypeError(f"{what} takes a nestor.Game, got {type(game).__name__}")


def locks(game: Game, profile: ProfileArg = "30hz", soft_drop: bool = False) -> List[Lock]:
    """Every lock the current piece of `game` can reach under `profile` (a preset name from
    `nestor.profiles()`, a profile .toml file, or None for "30hz"), with the inputs frame by
    frame. Empty when no piece is under control. On the game's first piece the inputs start
    as nestor's planner's do: nothing pressed until the profile's `start_delay`, then the Down
    press that ends the first-piece delay."""
    _check_game(game, "locks()")
    out = []
    for x, y, o, piece, inputs, action in _locks(game, _profile_name(profile), bool(soft_drop)):
        out.append(Lock(x, y, o, piece, len(inputs), inputs, action))
    return out


class Planner:
    """nestor's planner: `plan(game)` is its decision for the current piece, `explain(game)`
    the best placements with their value split by feature.

    weights: None (nestor's default set) or the path of a weights .toml file.
    profile: the player's input limits (preset name, .toml file, or None for "30hz").
    """

    def __init__(self, weights: Union[str, "os.PathLike[str]", None] = None, profile: ProfileArg = "30hz"):
        if weights is not None and not isinstance(weights, (str, os.PathLike)):
            raise TypeError(f"weights must be None or a .toml file path, got {type(weights).__name__}")
        self._inner = _Planner(weights, _profile_name(profile))
        #: The profile the planner plays by, as a name or path.
        self.profile = _profile_name(profile)

    def plan(self, game: Game) -> Optional[Plan]:
        """nestor's decision for the current piece of `game`; None when no piece is under
        control."""
        _check_game(game, "plan()")
        p = self._inner._plan(game)
        return None if p is None else Plan(*p)

    def explain(self, game: Game, n: int = 5) -> List[Dict[str, Any]]:
        """The top `n` placements as dicts: rank, lock, next_lock, value, phase and `terms`
        (feature, value, weight, contribution; the contributions add up to the value)."""
        _check_game(game, "explain()")
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"n must be an integer, got {type(n).__name__}")
        if n < 1:
            raise ValueError(f"n must be at least 1, got {n}")
        return self._inner.explain(game, n)


def read_trace(path: Union[str, "os.PathLike[str]"]) -> Trace:
    """Reads a trace file (JSON lines, gzip-compressed or not; the format of
    tests/fixtures/traces and of `nestor trace record`). A ValueError names the file (and the
    line) when it cannot be read or is not a trace."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file path, got {type(path).__name__}")
    name = os.fspath(path)
    try:
        with open(name, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ValueError(f"cannot read trace file {name}: {e.strerror or e}") from e
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as e:
            raise ValueError(f"trace file {name}: not a readable gzip file: {e}") from e
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"trace file {name}: not UTF-8 text: {e}") from e
    header: Dict[str, Any] = {}
    frames: List[Dict[str, Any]] = []
    for i, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"trace file {name}, line {i}: not JSON: {e.msg}") from e
        if not isinstance(obj, dict):
            raise ValueError(f"trace file {name}, line {i}: a trace line is a JSON object")
        if i == 1 and "header" in obj:
            header = obj["header"]
        else:
            frames.append(obj)
    if not frames:
        raise ValueError(f"trace file {name}: no frame lines")
    return Trace(header, frames)


def _register() -> None:
    import gymnasium

    ids = {
        "nestor/Frame-v0": ("nestor.envs:FrameEnv", "nestor.vector:FrameVectorEnv"),
        "nestor/Placement-v0": ("nestor.envs:PlacementEnv", "nestor.vector:PlacementVectorEnv"),
    }
    from .envs import MAX_EPISODE_STEPS

    for env_id, (entry, vector_entry) in ids.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point=entry,
            vector_entry_point=vector_entry,
            max_episode_steps=MAX_EPISODE_STEPS[env_id],
        )


_register()

from . import envs, vector  # noqa: E402  (after the names they import from this module)
