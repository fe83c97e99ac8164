"""nestor for Python: the NES Tetris (NTSC) rules model, exact frame for frame, the lock search
under a player profile, nestor's planner, and Gymnasium environments built on them.

    import nestor
    game = nestor.Game(level=19, seed=1)
    ev = game.step("left")            # or an int controller byte, or "A.....L."
    locks = nestor.locks(game, profile="30hz")
"""

from __future__ import annotations

from collections import namedtuple
from typing import Optional

from ._nestor import (  # noqa: F401
    PIECES,
    PLACEMENT_ACTIONS,
    STATE_BYTES,
    Events,
    Game,
    _Core,
    _locks,
    _spawn_locks,
    placement_action,
    profiles,
)
from ._nestor import Planner as _Planner

__all__ = [
    "Game",
    "Events",
    "Lock",
    "Plan",
    "Planner",
    "locks",
    "profiles",
    "placement_action",
    "PIECES",
    "PLACEMENT_ACTIONS",
    "BUTTONS",
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

Lock = namedtuple("Lock", "x y orientation piece frames inputs action")
Lock.__doc__ = """A reachable lock: the piece's pivot (x, y) and orientation id where it locks,
its letter, the frames to get there, `inputs` (one controller byte per frame from the next
frame on; the last one is the lock frame) and its placement action index."""

Plan = namedtuple("Plan", "inputs lock next_lock value candidates replan_after")
Plan.__doc__ = """nestor's decision: `inputs` (one controller byte per frame, the last one
the lock frame), `lock` and `next_lock` as (x, y, orientation id), `value` (lower is better;
None when every pair breaks a rule), `candidates` (reachable locks of the current piece) and
`replan_after`: under a profile with a reaction time the first plan of a piece is made before
the next piece is seen; nestor plays that many of its inputs, then plans again (call `plan`
again then: the game knows how far its piece has come). None otherwise."""

def _profile_name(profile) -> str:
    if profile is None:
        return "30hz"
    return str(profile)


def locks(game: Game, profile="30hz", soft_drop: bool = False) -> list:
    """Every lock the current piece of `game` can reach under `profile` (a preset name from
    `nestor.profiles()` or a profile .toml file), with the inputs frame by frame. Empty when
    no piece is under control. During the game's first-piece delay the inputs start with the
    Down press that ends it (as nestor's planner does)."""
    if not isinstance(game, Game):
        raise ValueError(f"locks() takes a nestor.Game, got {type(game).__name__}")
    out = []
    for x, y, o, piece, inputs, action in _locks(game, _profile_name(profile), bool(soft_drop)):
        out.append(Lock(x, y, o, piece, len(inputs), inputs, action))
    return out


class Planner:
    """nestor's planner: `plan(game)` is its decision for the current piece, `explain(game)`
    the best placements with their value split by feature.

    weights: None (nestor's default set) or the path of a weights .toml file.
    profile: the player's input limits (preset name or .toml file).
    """

    def __init__(self, weights=None, profile="30hz"):
        self._inner = _Planner(weights, _profile_name(profile))
        self.profile = _profile_name(profile)

    def plan(self, game: Game) -> Optional[Plan]:
        if not isinstance(game, Game):
            raise ValueError(f"plan() takes a nestor.Game, got {type(game).__name__}")
        p = self._inner._plan(game)
        return None if p is None else Plan(*p)

    def explain(self, game: Game, n: int = 5) -> list:
        """The top `n` placements as dicts: rank, lock, next_lock, value, phase and `terms`
        (feature, value, weight, contribution; the contributions add up to the value)."""
        if not isinstance(game, Game):
            raise ValueError(f"explain() takes a nestor.Game, got {type(game).__name__}")
        if int(n) < 1:
            raise ValueError(f"n must be at least 1, got {n}")
        return self._inner.explain(game, int(n))


def _register() -> None:
    try:
        import gymnasium
    except ImportError:  # the model and the search work without Gymnasium
        return
    ids = {
        "nestor/Frame-v0": ("nestor.envs:FrameEnv", "nestor.vector:FrameVectorEnv"),
        "nestor/Placement-v0": ("nestor.envs:PlacementEnv", "nestor.vector:PlacementVectorEnv"),
    }
    for env_id, (entry, vector_entry) in ids.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(id=env_id, entry_point=entry, vector_entry_point=vector_entry)


_register()
