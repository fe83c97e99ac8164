"""The Python model against the Rust model and the real cartridge's traces."""

import copy
import pickle

import numpy as np
import pytest

import nestor
from nestor._nestor import _rust_selfplay
from conftest import TRACES, read_trace

# The piece-progress bytes at the end of a state are the Python wrapper's own bookkeeping.
GAME_BYTES = nestor.STATE_BYTES - 5


@pytest.mark.parametrize("level,seed,profile", [(19, 1, "30hz"), (18, 7, "human"), (29, 3, "unlimited")])
def test_python_model_equals_rust_model_frame_by_frame(level, seed, profile):
    inputs, states = _rust_selfplay(level, seed, 6000, profile)
    assert len(inputs) > 500
    game = nestor.Game(level=level, seed=seed)
    locks = 0
    for i, b in enumerate(inputs):
        ev = game.step(b)
        locks += ev.locked is not None
        want = states[i * nestor.STATE_BYTES : i * nestor.STATE_BYTES + GAME_BYTES]
        assert game.to_bytes()[:GAME_BYTES] == want, f"frame {i}"
    assert locks > 20


def test_trace_replays_to_the_same_state():
    # Every recorded field of every frame, from the trace's first line on.
    checked = 0
    for name in ["l19-das-walls.jsonl.gz", "l12-masher-topout.jsonl.gz", "l145-lag-frame.jsonl.gz",
                 "l29-hidden-rows-07-quirk.jsonl.gz", "l05-soft-drop-levelup.jsonl.gz"]:
        _, lines = read_trace(name)
        game = nestor.Game.from_trace_line(lines[0])
        for line in lines[1:]:
            game.step(line["input"])
            rec = game.trace_record(line["held"])
            diff = {k: (line[k], rec[k]) for k in rec if k not in ("frame", "t") and k in line and line[k] != rec[k]}
            assert not diff, f"{name} t={line['t']}: {diff}"
            checked += 1
    assert checked > 5000


# Traces past level 155 where the Rust model still diverges (a crash, a long lag or the audio
# engine's lag it cannot yet count): the measured baseline in tests/traces.rs.
DIVERGING = {
    "c156-well.jsonl.gz",
    "c157-mixed.jsonl.gz",
    "c160-center.jsonl.gz",
    "c255-rebirth-b.jsonl.gz",
    "nestor-l19-crash-157.jsonl.gz",
}


def test_every_fixture_trace_ends_in_its_recorded_state():
    names = sorted(p.name for p in TRACES.glob("*.jsonl.gz"))
    assert len(names) >= 20
    assert DIVERGING <= set(names)
    for name in names:
        if name in DIVERGING:
            continue
        _, lines = read_trace(name)
        game = nestor.Game.from_trace_line(lines[0])
        game.run(bytes(int(line["held"]) for line in lines[1:]))
        last = lines[-1]
        rec = game.trace_record(last["held"])
        assert rec["field"] == last["field"], name
        for k in ("score", "lines", "level", "rng", "frame_counter", "play_state", "x", "y", "piece", "next"):
            assert rec[k] == last[k], (name, k)


def test_state_round_trips_through_bytes_clone_and_pickle():
    game = nestor.Game(level=18, seed=42)
    for i in range(700):
        game.step([0, 2, 0, 1, 0x80, 0, 4][i % 7])
    data = game.to_bytes()
    assert len(data) == nestor.STATE_BYTES
    for other in (nestor.Game.from_bytes(data), game.clone(), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert other == game
        assert other.to_bytes() == data
    twin = game.clone()
    twin.step("down")
    assert twin != game and game.to_bytes() == data  # a clone is independent


def test_the_piece_keeps_its_last_tap_through_bytes_and_trace_lines():
    # What `adjust = "restart"` times the adjustment after: the last frame that newly pressed
    # Left, Right, A or B (not how many did).
    game = nestor.Game(level=18, seed=3)
    while game.piece_frames == 0:
        game.step(0)
    first = game.piece_frames
    for pad in [2, 0, 0, 1, 1, 0]:  # taps on first and first + 3; Right held on first + 4
        game.step(pad)
    rec = game.trace_record()
    assert rec["nestor"]["piece_last_tap"] == first + 3
    for other in (nestor.Game.from_trace_line(rec), nestor.Game.from_bytes(game.to_bytes())):
        assert other == game and other.to_bytes() == game.to_bytes()
    # A line of the tap-count format: a count above 0 is a tap on the frame before.
    old = dict(rec, nestor={k: v for k, v in rec["nestor"].items() if k != "piece_last_tap"})
    old["nestor"]["piece_taps"] = 2
    back = nestor.Game.from_trace_line(old).trace_record()
    assert back["nestor"]["piece_last_tap"] == game.piece_frames - 1
    bad = dict(rec, nestor=dict(rec["nestor"], piece_last_tap=game.piece_frames))
    with pytest.raises(ValueError, match="piece_last_tap .* must be below piece_frames"):
        nestor.Game.from_trace_line(bad)


def test_observables():
    game = nestor.Game(level=19, seed=1)
    assert (game.level, game.start_level, game.lines, game.score) == (19, 19, 0, 0)
    assert game.piece in nestor.PIECES and game.next_piece in nestor.PIECES
    assert game.position == (5, 0)
    assert game.board.shape == (20, 10) and game.board.dtype == np.uint8 and game.board.sum() == 0
    assert game.playfield.shape == (22, 10) and (game.playfield == 0xEF).all()
    # Let pieces fall until the first lock: it shows in the events and on the board.
    events = [game.step(0) for _ in range(400)]
    locked = [e for e in events if e.locked]
    assert locked and game.board.sum() >= 4
    assert any(e.spawned for e in events)
    assert not any(e.crashed for e in events)


def test_buttons_as_int_names_and_letters_agree():
    states = []
    for buttons in (0x82, "A+left", "a,LEFT", "A.....L."):
        g = nestor.Game(level=19, seed=5)
        for _ in range(100):
            g.step(buttons)
            g.step(0)
        states.append(g.to_bytes())
    assert all(s == states[0] for s in states)


def test_top_out_event():
    game = nestor.Game(level=29, seed=2)
    topped = False
    for _ in range(20000):
        ev = game.step(0)
        if ev.topped_out:
            topped = True
            break
    assert topped and game.game_over


def test_events_count_lines_and_levels():
    inputs, _ = _rust_selfplay(18, 4, 40000, "30hz")
    game = nestor.Game(level=18, seed=4)
    cleared = level_ups = 0
    for b in inputs:
        ev = game.step(b)
        cleared += ev.cleared
        level_ups += ev.level_up
    assert cleared == game.lines > 0
    assert level_ups == game.level - 18 > 0


def test_crash_state_shows_in_the_game():
    data = bytearray(nestor.Game(level=19, seed=1).to_bytes())
    assert nestor.Game.from_bytes(bytes(data)).crashed is None
    for code, name in ((1, "crash"), (2, "hang"), (3, "demo")):
        data[4 + 256 + 35] = code  # the crash byte of the state layout
        g = nestor.Game.from_bytes(bytes(data))
        assert g.crashed == name and g.game_over
    data[4 + 256 + 35] = 9
    with pytest.raises(ValueError, match="crash"):
        nestor.Game.from_bytes(bytes(data))


def test_the_legal_screen_wait_round_trips_and_counts_down():
    # Wait 9 (the legal screen's tail, crash kind 3 "demo") keeps its three counters where a
    # lag keeps the shown player block: lead, sleepCounter, generalCounter.
    data = bytearray(nestor.Game(level=19, seed=1).to_bytes())
    r = 4 + 256
    data[r + 34], data[r + 35] = 9, 3
    data[r + 36 : r + 39] = bytes([0, 0, 2])
    g = nestor.Game.from_bytes(bytes(data))
    assert g.crashed == "demo" and g.game_over
    assert g.to_bytes() == bytes(data)
    g.step(0)
    after = g.to_bytes()
    assert after[r + 34] == 9 and after[r + 38] == 1
    g.step(0)
    # The wait for Start counted out: `inc gameMode`, the demo (no wait left).
    assert g.to_bytes()[r + 34] == 0 and g.crashed == "demo"


def test_corrupt_states_raise_or_play_but_never_panic():
    import random

    rng = random.Random(7)
    good = nestor.Game(level=19, seed=3)
    for _ in range(300):
        good.step(rng.choice([0, 1, 2, 0x80]))
    data = good.to_bytes()
    accepted = 0
    for _ in range(2000):
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(4, len(b))] = rng.randrange(256)
        try:
            g = nestor.Game.from_bytes(bytes(b))
        except ValueError:
            continue
        accepted += 1
        for i in range(60):
            g.step(rng.randrange(256))
        nestor.locks(g, "30hz")
        g.trace_record()
    assert accepted > 1000


def test_tiles_is_a_live_read_only_view():
    game = nestor.Game(level=19, seed=1)
    tiles = game.tiles
    assert tiles.shape == (20, 10) and not tiles.flags.writeable and not tiles.flags.owndata
    assert (tiles == 0xEF).all()
    while not game.step(0).locked:
        pass
    for _ in range(30):
        game.step(0)
    # The same array object now shows the locked piece, as the 0/1 board does.
    assert ((tiles < 0xEF) == game.board.astype(bool)).all() and game.board.sum() == 4
    with pytest.raises(ValueError):
        tiles[0, 0] = 1
    del game  # the view keeps the game alive
    assert int((tiles < 0xEF).sum()) == 4
