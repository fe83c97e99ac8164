#!/usr/bin/env python3
"""The page in headless Chromium, driven through chromedriver's WebDriver HTTP API (standard
library only): the bot's 200-piece game against the native one, the editor's positions against
the native planner, the share link, a few keys in Play mode, nothing fetched from elsewhere.

Usage: web/test/browser_test.py [--dist web/dist] [--speed-only] (exit 0 with a "skipped"
line when chromium or chromedriver is missing). The native answers come from the
`web_reference` example (built by this script with cargo when --reference is not given).
"""
import argparse
import functools
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
POSITIONS = os.path.join(ROOT, "web", "test", "positions.txt")
GAME = (18, 1, "30hz", 200)  # level, seed, profile, pieces


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript"}

    def log_message(self, *args):
        pass


def serve(dist):
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=dist))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


class Driver:
    """The few WebDriver calls the test needs."""

    def __init__(self, chromium, chromedriver):
        self.port = free_port()
        self.proc = subprocess.Popen([chromedriver, f"--port={self.port}"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(100):
            try:
                self.call("GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": chromium,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1200,900", "--no-first-run", "--disable-extensions"]}}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=600) as r:
                return json.loads(r.read() or b"{}").get("value")
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"webdriver {method} {path}: {e.read().decode()[:2000]}") from None

    def s(self, method, path, body=None):
        return self.call(method, f"/session/{self.session}{path}", body)

    def go(self, url):
        self.s("POST", "/url", {"url": url})
        for _ in range(300):
            if self.js("return document.body && document.body.dataset.ready === '1'"):
                return
            status = self.js("return document.getElementById('status').textContent")
            if status.startswith("failed"):
                raise RuntimeError(f"the page failed to load: {status}")
            time.sleep(0.1)
        raise RuntimeError("the page did not get ready in 30 s")

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def element(self, css):
        el = self.s("POST", "/element", {"using": "css selector", "value": css})
        return next(iter(el.values()))

    def click(self, css):
        self.s("POST", f"/element/{self.element(css)}/click", {})

    def type_into(self, css, text):
        el = self.element(css)
        self.s("POST", f"/element/{el}/clear", {})
        self.s("POST", f"/element/{el}/value", {"text": text})

    def actions(self, actions):
        self.s("POST", "/actions", {"actions": actions})
        self.s("DELETE", "/actions")

    def quit(self):
        try:
            self.s("DELETE", "")
        finally:
            self.proc.terminate()
            self.proc.wait()


def reference(binary, *args):
    out = subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    print(f"ok: {what}")


def positions():
    rows = []
    with open(POSITIONS) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                piece, nxt, level, lines, profile, board = line.split()
                rows.append((piece, "" if nxt == "-" else nxt, int(level), int(lines), profile,
                             board))
    return rows


def test_game(d, ref):
    level, seed, profile, pieces = GAME
    page = d.js("return nestor.watchRun(...arguments)", level, seed, profile, pieces)
    (native,) = reference(ref, "game", str(level), str(seed), profile, str(pieces))
    check(page["pieces"] == pieces, f"the bot played {pieces} pieces in the page")
    check(page["lines"] == native["lines"],
          f"the page's game cleared {page['lines']} lines, the native one {native['lines']}")
    check(page["board"] == native["board"], "the page's board after them is the native one")
    return page, native


def test_positions(d, ref):
    table = positions()
    native = reference(ref, "positions", POSITIONS)
    check(len(native) == len(table), f"native answers for the {len(table)} positions")
    d.click("button[data-mode=analyse]")
    for (piece, nxt, level, lines, profile, board), want in zip(table, native):
        d.type_into("#an-text", "\n".join(board[i:i + 10] for i in range(0, 200, 10)))
        for sel, value in (("an-piece", piece), ("an-next", nxt), ("an-level", str(level)),
                           ("an-lines", str(lines)), ("an-profile", profile)):
            d.js("document.getElementById(arguments[0]).value = arguments[1]", sel, value)
        d.click("#an-load")
        got = d.js("return nestor.editor.run()")
        plan = got.get("plan")
        lock = None if plan is None else [plan["x"], plan["y"], plan["orientation"]]
        check(lock == want["lock"],
              f"{piece} next {nxt or '-'} level {level} lines {lines} {profile}: "
              f"page {lock}, native {want['lock']}")
        check(d.js("return nestor.editor.boardText()") == board,
              "the editor holds the pasted board")
    return table


def test_editor_and_link(d, base):
    d.click("#an-clear")
    # Click the bottom-left cell, then drag along the bottom row to column 3.
    r = d.js("const r = document.getElementById('analyse-board').getBoundingClientRect();"
             "return [r.left, r.top]")
    x, y = int(r[0] + 1 + 12), int(r[1] + 1 + 19 * 24 + 12)
    move = lambda x, dur=0: {"type": "pointerMove", "origin": "viewport", "x": x, "y": y,
                             "duration": dur}
    d.actions([{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                "actions": [move(x), {"type": "pointerDown", "button": 0},
                            *(move(x + k * 24, 50) for k in (1, 2, 3)),
                            {"type": "pointerUp", "button": 0}]}])
    board = d.js("return nestor.editor.boardText()")
    check(board[190:194] == "####" and board.count("#") == 4,
          f"a click and a drag filled the bottom row's first four cells ({board[180:]})")
    d.js("document.getElementById('an-piece').value = 'I'; "
         "document.getElementById('an-level').value = '29'")
    link = d.js("nestor.editor.run(); return nestor.editor.encode()")
    d.go(base + "/" + link)
    check(d.js("return nestor.editor.boardText()") == board
          and d.js("return document.getElementById('an-piece').value") == "I"
          and d.js("return document.getElementById('an-level').value") == "29",
          "the link reopens the same position")


def test_play(d):
    d.click("button[data-mode=play]")
    d.js("document.getElementById('play-level').value = '0'")
    d.click("#play-start")
    time.sleep(0.6)  # past the first piece's entry delay
    before = d.js("return nestor.play.state().active")
    key = lambda k, hold: [{"type": "key", "id": "kb", "actions": [
        {"type": "keyDown", "value": k}, {"type": "pause", "duration": hold},
        {"type": "keyUp", "value": k}]}]
    d.actions(key("\ue012", 600))  # ArrowLeft held ~36 frames: a move, then DAS repeats
    after = d.js("return nestor.play.state().active")
    check(after["x"] <= before["x"] - 2,
          f"holding Left moved the piece from x {before['x']} to {after['x']}")
    d.actions(key("x", 50))
    rotated = d.js("return nestor.play.state().active")
    check(rotated["id"] != after["id"], f"X (A) rotated orientation {after['id']} to {rotated['id']}")
    d.js("document.getElementById('play-assist').checked = true")
    d.click("#play-start")
    time.sleep(0.3)
    check(len(d.js("return nestor.play.state().view.outline")) == 4,
          "assist outlines the bot's lock for the piece")
    # At level 19 an untouched piece falls to its lock in under a second; assist rates it.
    d.js("document.getElementById('play-level').value = '19'")
    d.click("#play-start")
    time.sleep(2.5)
    ratings = d.js("return nestor.play.state().ratings")
    check(len(ratings) >= 1 and ratings[0]["rank"] is not None and ratings[0]["of"] > 1,
          f"assist rated the locks: {ratings[:2]}")


def test_watch_page(d):
    """The watch tab itself: the worker's game drawn frame by frame, explained."""
    d.click("button[data-mode=watch]")
    d.js("document.getElementById('watch-speed').value = '4'")
    d.click("#watch-start")
    time.sleep(3)
    pieces = int(d.js("return document.getElementById('watch-pieces').textContent"))
    shown = d.js("return nestor.meter.shown")
    check(pieces >= 3 and shown >= 60, f"watch mode drew {shown} frames, {pieces} pieces in 3 s")
    check(d.js("return document.querySelectorAll('#watch-explain table').length") == 3,
          "the explanation panel shows the decision's top 3 placements")


def test_guard(d):
    """Past 155 the crash guard's decisions are reported (the watch panel lists them)."""
    run = d.js("return nestor.watchRun(157, 1, '30hz', 60)")
    notes = run["guard"]
    check(run["pieces"] == 60 and len(notes) > 0 and all(n["level"] >= 155 for n in notes),
          f"from level 157, {len(notes)} of 60 decisions have crash-guard notes "
          f"(e.g. {notes[0] if notes else None})")


def test_colours(d, ref):
    native = reference(ref, "colours")
    page = [json.loads(d.js("return nestorLevelColours(arguments[0])", level)) for level in range(10)]
    check(page == native, "the page's level colours are the native picture's (levels 0-9)")


def test_offline(d, base):
    urls = d.js("return performance.getEntriesByType('resource').map((e) => e.name)")
    urls.append(d.js("return location.href"))
    foreign = [u for u in urls if not u.startswith(base)]
    check(not foreign, f"all {len(urls)} requests went to the page's own origin {foreign}")


def watch_speed(d):
    """Watch mode at ×1 for each profile: refreshes per second and the work per refresh."""
    d.click("button[data-mode=watch]")
    rows = []
    for profile in d.js("return nestor.profiles"):
        d.js("document.getElementById('watch-profile').value = arguments[0];"
             "document.getElementById('watch-speed').value = '1'", profile)
        d.click("#watch-start")
        time.sleep(3.2)
        m = d.js("return nestor.meter")
        rows.append((profile, m["fps"], m["wasmMs"], m["worstMs"], m["starvedLast"]))
        print(f"watch ×1 {profile}: {m['fps']:.1f} refreshes/s, {m['wasmMs']:.2f} ms drawing "
              f"per refresh, at most {m['worstMs']:.1f} ms, {m['starvedLast']} refreshes "
              "without a new frame")
    return rows


def decision_speed(d, ref, pieces=500):
    """Decisions per second, page against native, per profile (the same game from level 18)."""
    for profile in d.js("return nestor.profiles"):
        page = d.js("return nestor.watchRun(18, 1, arguments[0], arguments[1])", profile, pieces)
        (native,) = reference(ref, "game", "18", "1", profile, str(pieces))
        same = page["board"] == native["board"] and page["lines"] == native["lines"]
        print(f"decisions {profile}: page {page['decisions'] / page['ms'] * 1000:.0f}/s, native "
              f"{native['decisions'] / native['ms'] * 1000:.0f}/s over {page['decisions']} "
              f"decisions ({page['lines']} lines{'' if same else ', GAMES DIFFER'})")
        check(same, f"{profile}: the page's game is the native one")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dist", default=os.path.join(ROOT, "web", "dist"))
    ap.add_argument("--reference", help="the built web_reference example")
    ap.add_argument("--speed", action="store_true",
                    help="also measure decisions per second and watch mode per profile")
    a = ap.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chromedriver = shutil.which("chromedriver")
    if not chromium or not chromedriver:
        print("browser test skipped: chromium and chromedriver are needed "
              "(apt-get install chromium chromium-driver)")
        return 0
    if not os.path.exists(os.path.join(a.dist, "index.html")):
        print(f"browser test: {a.dist}/index.html is missing (run web/build.sh)", file=sys.stderr)
        return 1
    ref = a.reference
    if not ref:
        subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "web_reference"],
                       cwd=ROOT, check=True)
        target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
        ref = os.path.join(target, "release", "examples", "web_reference")
    server, base = serve(a.dist)
    d = Driver(chromium, chromedriver)
    try:
        d.go(base + "/index.html")
        page, native = test_game(d, ref)
        test_colours(d, ref)
        test_guard(d)
        n = len(test_positions(d, ref))
        test_editor_and_link(d, base)
        test_play(d)
        test_watch_page(d)
        test_offline(d, base)
        print(f"speed: {GAME[3]} pieces from level {GAME[0]} under {GAME[2]}: page "
              f"{page['decisions'] / page['ms'] * 1000:.0f} decisions/s "
              f"({page['ms']:.0f} ms), native {native['decisions'] / native['ms'] * 1000:.0f} "
              f"decisions/s ({native['ms']:.0f} ms); {page['frames'] / page['pieces']:.1f} "
              "frames a piece")
        if a.speed:
            decision_speed(d, ref)
            d.go(base + "/index.html")
            watch_speed(d)
        print(f"browser test passed ({n} positions)")
    finally:
        d.quit()
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
