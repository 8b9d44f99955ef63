"""Test settings plus the rooms' DB thread count, from the environment (bench/ only).

``bench/placement_cpu.py --settings bench.placement_settings`` compares variants
side by side in one hour (bench/RESULTS-placement-cpu.md):

* ``BENCH_DB_THREADS=<n>``: the rooms' DB threads (``0``: half the pool, as shipped);
* ``BENCH_GROUP_COMMIT_MS=<ms>``: the per-seat moves' group-commit window
  (``games/rooms/groupcommit.py``; ``0``: every move alone, as before the fifth pass);
* ``BENCH_GROUP_COMMIT_IN_FLIGHT=<n>``: batches in flight per process;
* uvicorn flags per variant go in ``UVICORN_ARGS`` (bench/placement_cpu.py).

The two switches of the third pass (``ROOMS_DIRECT_FANOUT``,
``ROOMS_GIL_SWITCH_INTERVAL``) are gone from the product: the direct fan-out is
the only way, and the interpreter keeps its own switch interval.
"""

import os

from config.settings.test import *  # noqa: F403

if "BENCH_DB_THREADS" in os.environ:
    ROOMS_DB_THREADS = int(os.environ["BENCH_DB_THREADS"]) or None
if "BENCH_GROUP_COMMIT_MS" in os.environ:
    ROOMS_GROUP_COMMIT_MS = float(os.environ["BENCH_GROUP_COMMIT_MS"])
if "BENCH_GROUP_COMMIT_IN_FLIGHT" in os.environ:
    ROOMS_GROUP_COMMIT_IN_FLIGHT = int(os.environ["BENCH_GROUP_COMMIT_IN_FLIGHT"])
