"""Roster upload memory benchmark (issue 38 §3): the parsed class list out of the session.

Before, the parsed upload waited in the teacher's session between upload, map
and import: a 366 KB .xlsx became ~36 MB in the session, decoded on *every*
request of that teacher. Now it waits compressed in the cache under a key of
the class and the teacher (classrooms/import_views.py) and the session holds
only the login.

In this process, through the Django test client under the test settings
(a throwaway PostgreSQL and Redis from tools/devservices.py), one teacher
uploads the largest list the caps allow (``roster_import.MAX_CELLS`` cells:
3000 rows x 20 columns of text, an .xlsx) into four classes, then opens an
unrelated page (the class list) ``REQUESTS`` times. Measured for the way it
is now (``cache``) and for the old way (``session``: the same parsed tables put
into the session as the old ``_store`` did): the session row's size, the
process's resident memory (RSS) after the uploads and after the page requests,
the Python heap peak of one page request (tracemalloc) and its median time.

    .venv/bin/python -m tools.devservices test bench/roster_upload_bench.py -q -s -p no:cacheprovider
"""

from __future__ import annotations

import gc
import io
import statistics
import time
import tracemalloc

import psutil
import pytest
from django.contrib.sessions.models import Session
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

pytestmark = pytest.mark.django_db

CLASSES = 4
REQUESTS = 5


def _xlsx() -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["Příjmení", "Jméno", "Třída"] + [f"Údaj {i}" for i in range(17)])
    for row in range(3000):
        sheet.append(
            [f"Příjmení{row:04d}x", "Jméno", "6.A"]
            + [f"poznámka {row} {col} " * 3 for col in range(17)]
        )
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _rss_mb() -> float:
    return psutil.Process().memory_info().rss / 2**20


def _run(mode: str) -> dict:
    from classrooms import import_views, roster_import
    from tests.classrooms import factories

    teacher = factories.make_teacher(f"bench-{mode}@skola.cz")
    client = Client()
    client.force_login(teacher)
    data = _xlsx()
    classes = [factories.make_class(teacher, name=f"6.{n}") for n in "ABCD"[:CLASSES]]
    gc.collect()
    before = _rss_mb()
    for classroom in classes:
        response = client.post(
            f"/classes/{classroom.pk}/members/import/",
            {"files": [SimpleUploadedFile("zaci.xlsx", data)]},
        )
        assert response.status_code == 302, response.content[:500]
        if mode == "session":  # the old way: the parsed table in the session
            table = roster_import.read_upload("zaci.xlsx", data)
            session = client.session
            session[import_views.LEGACY_SESSION_KEY % classroom.pk] = {
                "kind": "table",
                "name": "zaci.xlsx",
                "data": {"headers": table.headers, "rows": table.rows},
                "upload": "x",
            }
            session.save()
    gc.collect()
    after_uploads = _rss_mb()
    times = []
    for _ in range(REQUESTS):
        start = time.perf_counter()
        assert client.get("/classes/").status_code == 200
        times.append(time.perf_counter() - start)
    gc.collect()
    after_pages = _rss_mb()
    tracemalloc.start()
    client.get("/classes/")
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    row = Session.objects.get(session_key=client.session.session_key)
    return {
        "mode": mode,
        "xlsx_kb": round(len(data) / 1024),
        "session_kb": round(len(row.session_data) / 1024, 1),
        "rss_before_mb": round(before),
        "rss_after_uploads_mb": round(after_uploads),
        "rss_after_pages_mb": round(after_pages),
        "page_heap_peak_mb": round(peak / 2**20, 1),
        "page_median_ms": round(1000 * statistics.median(times), 1),
    }


@pytest.mark.timeout(1800)
@pytest.mark.parametrize("mode", ["cache", "session"])
def test_roster_upload_memory(mode):
    print(_run(mode))
