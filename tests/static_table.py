"""WhiteNoise's table of static files built once per run, not once per test client.

Django's test client builds its own middleware chain the first time each
``Client()`` sends a request, and the suite's settings serve static files from
the finders (``WHITENOISE_USE_FINDERS``, nothing is collected): so every new
client's ``WhiteNoiseMiddleware`` walked the static folders and built a response
for each of the ~260 files. That cost 0.06 s of CPU a client on a quiet machine
(0.13 s of wall time at load 7-10), and a run makes well over a thousand clients
(144 in the 173 in-process tests of ``tests/classrooms``).

The files do not change while the tests run (``collectstatic`` for the production
smoke test runs in a subprocess, into its own folder), so after the first build
every later middleware takes the same entries: the same ``StaticFile`` responders,
which hold only paths and headers and open the file for each request. The table is
kept per configuration (static prefix, the responders' options, the finders'
settings), so a test that overrides one of those gets a table of its own.
``tests/foundation/test_static_table.py`` checks that a cached table equals the one
WhiteNoise builds itself. ``MATIKA_STATIC_TABLE=0`` builds it per client again.
"""

from __future__ import annotations

import os
from typing import Any

_tables: dict[tuple, dict[str, Any]] = {}
stats = {"built": 0, "reused": 0}
#: WhiteNoise's own ``add_files_from_finders`` (set by ``install``)
build_uncached = None


def _key(middleware) -> tuple:
    from django.conf import settings

    return (
        middleware.static_prefix,
        middleware.max_age,
        middleware.allow_all_origins,
        middleware.charset,
        middleware.index_file,
        repr(middleware.add_headers_function),
        repr(getattr(settings, "WHITENOISE_IMMUTABLE_FILE_TEST", None)),
        repr(getattr(settings, "WHITENOISE_MIMETYPES", None)),
        repr(getattr(settings, "STATICFILES_DIRS", ())),
        tuple(getattr(settings, "STATICFILES_FINDERS", ())),
        tuple(settings.INSTALLED_APPS),
    )


def install() -> None:
    if os.environ.get("MATIKA_STATIC_TABLE") == "0":
        return
    from whitenoise.middleware import WhiteNoiseMiddleware

    if getattr(WhiteNoiseMiddleware.add_files_from_finders, "matika_shared", False):
        return
    global build_uncached
    build = build_uncached = WhiteNoiseMiddleware.add_files_from_finders

    def add_files_from_finders(self) -> None:
        key = _key(self)
        table = _tables.get(key)
        if table is None:
            before = dict(self.files)
            build(self)
            _tables[key] = {
                url: entry for url, entry in self.files.items() if before.get(url) is not entry
            }
            stats["built"] += 1
            return
        self.files.update(table)
        stats["reused"] += 1

    add_files_from_finders.matika_shared = True  # type: ignore[attr-defined]
    WhiteNoiseMiddleware.add_files_from_finders = add_files_from_finders  # type: ignore[method-assign]
