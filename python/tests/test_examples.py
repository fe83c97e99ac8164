"""The example scripts run (short versions) and say what they did."""

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run(script, *args, cwd):
    return subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def test_planner_example(tmp_path):
    r = run("planner_env.py", "--pieces", "60", "--level", "18", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = int(r.stdout.split("done: ")[1].split()[0])
    assert lines >= 15


def test_random_and_greedy_example(tmp_path):
    r = run("random_agents.py", "--games", "2", "--level", "19", "--out", str(tmp_path / "lines.png"), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "random" in r.stdout and "greedy" in r.stdout
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "no plot" in r.stdout
    else:
        assert (tmp_path / "lines.png").stat().st_size > 0
