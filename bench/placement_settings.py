"""Test settings plus the rooms' performance switches, from the environment (bench/ only).

``bench/placement_cpu.py --settings bench.placement_settings`` compares the
switches side by side in one hour (bench/RESULTS-placement-cpu.md):

* ``BENCH_DIRECT_FANOUT=0``: room events through each socket's queue (Channels'
  way) instead of straight from the channel layer (``games/rooms/direct.py``);
* ``BENCH_GIL_SWITCH_INTERVAL=<seconds>``: the interpreter's switch interval while
  the rooms DB threads run (``games/rooms/dbcalls.py``); ``0`` leaves Python's 5 ms;
* ``BENCH_DB_THREADS=<n>``: the rooms' DB threads (``0``: half the pool, as shipped).
"""

import os

from config.settings.test import *  # noqa: F403

if "BENCH_DIRECT_FANOUT" in os.environ:
    ROOMS_DIRECT_FANOUT = os.environ["BENCH_DIRECT_FANOUT"] not in ("", "0")
if "BENCH_GIL_SWITCH_INTERVAL" in os.environ:
    ROOMS_GIL_SWITCH_INTERVAL = float(os.environ["BENCH_GIL_SWITCH_INTERVAL"]) or None
if "BENCH_DB_THREADS" in os.environ:
    ROOMS_DB_THREADS = int(os.environ["BENCH_DB_THREADS"]) or None
