"""kill -9 during random valid play loses no acknowledged write
(tools/bench/kill_test.py, against ``mamma-mia serve`` in a subprocess)."""
from __future__ import annotations

from tools.bench.kill_test import run_cycles


def test_no_acknowledged_write_is_lost_to_kill_9(tmp_path):
    outcome = run_cycles(cycles=3, seed=7, folder=tmp_path, play_seconds=(0.3, 0.8))
    assert outcome.cycles == 3 and outcome.acknowledged > 10
    assert outcome.errors == []
    assert outcome.lost == []
