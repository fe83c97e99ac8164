"""`nestor.locks` and `nestor.Planner` against the Rust search and the model itself."""

from pathlib import Path

import pytest

import nestor
from nestor._nestor import _spawn_locks


def board_rows(game):
    return [int(sum(int(c) << i for i, c in enumerate(row))) for row in game.board]


def decisions(level, seed, n):
    """Games at successive spawns of a planner-played game (the first piece's spawn included)."""
    game = nestor.Game(level=level, seed=seed)
    planner = nestor.Planner(profile="30hz")
    out = [game.clone()]
    while len(out) < n and not game.game_over:
        plan = planner.plan(game)
        for b in plan.inputs:
            game.step(b)
        while not game.game_over:
            if game.step(0).spawned:
                break
        out.append(game.clone())
    return out


@pytest.mark.parametrize("profile", ["30hz", "unlimited", "15hz", "human", "das"])
def test_locks_equal_the_rust_search(profile):
    for game in decisions(19, 11, 12)[1:]:
        assert game.piece_frames == 0
        got = {(l.x, l.y, l.orientation) for l in nestor.locks(game, profile=profile)}
        want = set(_spawn_locks(board_rows(game), game.piece, game.level, profile))
        assert got == want and got, (profile, game)


@pytest.mark.parametrize("profile", ["30hz", "12hz", "human"])
def test_every_lock_is_reached_by_its_inputs(profile):
    for game in decisions(18, 4, 8):
        locks = nestor.locks(game, profile=profile)
        assert locks
        for lock in locks:
            g = game.clone()
            events = [g.step(b) for b in lock.inputs]
            assert events[-1].locked == (lock.x, lock.y, lock.orientation), lock
            assert not any(e.locked for e in events[:-1])
            assert lock.frames == len(lock.inputs)


def test_slower_profiles_reach_fewer_locks():
    game = decisions(19, 3, 3)[-1]
    n = {p: len(nestor.locks(game, profile=p)) for p in ("unlimited", "30hz", "10hz")}
    assert n["unlimited"] >= n["30hz"] >= n["10hz"] > 0


def test_planner_plays_and_explains():
    game = nestor.Game(level=19, seed=9)
    planner = nestor.Planner(profile="30hz")
    plan = planner.plan(game)
    assert plan.lock in {(l.x, l.y, l.orientation) for l in nestor.locks(game, "30hz")}
    ev = [game.step(b) for b in plan.inputs]
    assert ev[-1].locked == plan.lock
    top = planner.explain(game.clone(), n=3)
    # After the lock no piece is under control: nothing to explain yet.
    assert top == [] or all("terms" in t for t in top)
    fresh = nestor.Game(level=19, seed=9)
    top = planner.explain(fresh, n=3)
    assert [t["rank"] for t in top] == sorted(t["rank"] for t in top)
    best = top[0]
    assert best["value"] == pytest.approx(sum(t["contribution"] for t in best["terms"]))
    assert (best["lock"]["x"], best["lock"]["y"], best["lock"]["orientation"]) == planner.plan(fresh).lock


def test_planner_reaches_many_lines():
    game = nestor.Game(level=18, seed=2)
    planner = nestor.Planner(profile="30hz")
    for _ in range(120):
        plan = planner.plan(game)
        if plan is None:
            break
        for b in plan.inputs:
            game.step(b)
        while not game.game_over and not game.step(0).spawned:
            pass
    assert game.lines >= 30


@pytest.mark.parametrize("profile", ["30hz", "human", "das"])
def test_locks_from_a_piece_in_flight(profile):
    # Some frames into the piece: the profile counts from its spawn, the inputs from now.
    for game in decisions(18, 4, 5)[1:]:
        for wait in (1, 3, 7):
            g = game.clone()
            for _ in range(wait):
                g.step(0)
            assert g.piece_frames == wait
            locks = nestor.locks(g, profile=profile)
            assert locks
            for lock in locks:
                h = g.clone()
                assert [h.step(b) for b in lock.inputs][-1].locked == (lock.x, lock.y, lock.orientation)


def test_planner_weights_and_profile_files(tmp_path):
    repo = Path(__file__).resolve().parents[2]
    game = nestor.Game(level=19, seed=9)
    default = nestor.Planner().plan(game)
    other = nestor.Planner(weights=repo / "config/weights/score-2018.toml", profile=str(repo / "config/profiles/12hz.toml"))
    plan = other.plan(game)
    assert plan is not None and default is not None and plan.replan_after is None
    top = other.explain(game, n=1)[0]
    assert top["value"] == pytest.approx(plan.value)
    bad = tmp_path / "bad.toml"
    bad.write_text("this is = = not toml")
    with pytest.raises(ValueError, match="bad.toml"):
        nestor.Planner(weights=bad)
    with pytest.raises(ValueError, match="bad.toml"):
        nestor.locks(game, profile=str(bad))


def test_reaction_profile_replans_like_nestor():
    # `human` reacts after 18 frames: a blind plan first, then the plan with the next piece,
    # followed from where the piece is; the piece locks where the second plan says.
    game = nestor.Game(level=18, seed=6)
    planner = nestor.Planner(profile="human")
    for _ in range(12):
        first = planner.plan(game)
        assert first.replan_after is not None
        for b in first.inputs[: first.replan_after]:
            game.step(b)
        second = planner.plan(game)
        assert second.replan_after is None
        events = [game.step(b) for b in second.inputs]
        assert events[-1].locked == second.lock
        while not game.game_over and not game.step(0).spawned:
            pass


def test_first_piece_locks_wait_the_profiles_start_delay():
    # `human` presses nothing for 18 frames at the start of a game, then ends the first-piece
    # delay with Down, as its planner does; `30hz` presses Down on the first frame.
    game = nestor.Game(level=18, seed=4)
    human = nestor.locks(game, profile="human")
    plan = nestor.Planner(profile="human").plan(game)
    assert human and list(plan.inputs[:18]) == [0] * 18
    for lock in human:
        assert list(lock.inputs[:18]) == [0] * 18 and lock.inputs[18] != 0, lock
    assert all(lock.inputs[0] != 0 for lock in nestor.locks(game, profile="30hz"))
