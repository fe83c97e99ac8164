import gzip
import json
from pathlib import Path

import pytest

TRACES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "traces"


def read_trace(name):
    """The header and the frame lines of a fixture trace."""
    with gzip.open(TRACES / name, "rt") as f:
        lines = [json.loads(line) for line in f]
    return lines[0]["header"], lines[1:]


@pytest.fixture
def traces_dir():
    return TRACES
