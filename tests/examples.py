"""How many Hypothesis examples the slowest property tests run.

Each of these tests plays whole random games with every step checked, and cost
13-30 s in the suite's quiet clean-clone run (2026-12-07, ci8): about 2 minutes
for six tests. ``make test`` runs half of their former count (``suite``); a
thorough run before a rules change sets ``MATIKA_FULL_EXAMPLES=1`` for the full
count. Hypothesis picks fresh examples each run (no example database in a clean
clone), so over runs the suite still covers the same space, only more slowly.
"""

from __future__ import annotations

import os


def examples(suite: int, full: int) -> int:
    """``suite`` examples in the suite, ``full`` with ``MATIKA_FULL_EXAMPLES=1``."""
    return full if os.environ.get("MATIKA_FULL_EXAMPLES") == "1" else suite
