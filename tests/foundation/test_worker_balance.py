"""With two workers the slowest test files are handed out first (tests/balance.py)."""

import json

from tests import balance


def test_files_go_longest_first_each_file_together_in_its_old_order(monkeypatch):
    monkeypatch.setattr(balance, "MEASURED", {"c.py": 100.0})
    tests = [
        ("a.py", 1.0, 2, False),  # 0
        ("b.py", 12.0, 2, False),  # 1
        ("a.py", 1.0, 2, False),  # 2
        ("b.py", 12.0, 2, False),  # 3
        ("c.py", 0.05, 2, False),  # 4: measured, longer than its tests' estimate
        ("d.py", 2.0, 2, False),  # 5: as long as a.py, seen after it
    ]
    assert balance.longest_first(tests) == [4, 1, 3, 0, 2, 5]


def test_database_files_first_and_browser_files_last_in_their_group(monkeypatch):
    monkeypatch.setattr(balance, "MEASURED", {})
    tests = [
        ("plain.py", 50.0, 2, False),  # 0
        ("browser.py", 90.0, 1, True),  # 1
        ("live.py", 10.0, 1, False),  # 2
        ("mixed.py", 0.3, 0, False),  # 3: a database test and
        ("mixed.py", 4.0, 1, False),  # 4: a transactional one
        ("db.py", 0.3, 0, False),  # 5
    ]
    # database-only files, then a file with both, transactional ones, browser ones, the rest
    assert balance.longest_first(tests) == [5, 3, 4, 2, 1, 0]


def test_a_single_process_keeps_the_collected_order(monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    items = ["second", "first"]
    balance.reorder(items)
    assert items == ["second", "first"]


def test_a_run_with_matika_file_times_writes_each_files_seconds(tmp_path, monkeypatch):
    target = tmp_path / "times.json"
    monkeypatch.setenv("MATIKA_FILE_TIMES", str(target))
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setattr(balance, "_times", {})

    class Report:
        def __init__(self, nodeid: str, duration: float) -> None:
            self.nodeid, self.duration = nodeid, duration

    for nodeid, duration in [("a.py::t", 1.0), ("b.py::t[1]", 2.5), ("b.py::t[2]", 1.0)]:
        balance.record(Report(nodeid, duration))
    balance.write_times()
    assert json.loads(target.read_text()) == {"b.py": 3.5, "a.py": 1.0}
    assert list(json.loads(target.read_text())) == ["b.py", "a.py"]
