"""The test clients' shared table of static files (tests/static_table.py) is the
one WhiteNoise builds itself: the same URLs, files and response headers."""

from django.test import Client
from whitenoise.middleware import WhiteNoiseMiddleware

from tests import static_table


def _described(files: dict) -> dict:
    described = {}
    for url, entry in files.items():
        if hasattr(entry, "alternatives"):
            described[url] = (
                [(path, sorted(headers)) for _, path, headers in entry.alternatives],
                sorted(entry.not_modified_response.headers),
            )
        else:
            described[url] = (entry.response.status, entry.response.headers)
    return described


def test_a_reused_static_table_is_the_one_whitenoise_builds():
    assert static_table.build_uncached is not None, "tests/conftest.py installs the shared table"
    own = WhiteNoiseMiddleware(lambda request: None)
    own.files = {}
    static_table.build_uncached(own)
    shared = WhiteNoiseMiddleware(lambda request: None)
    assert len(own.files) > 100
    assert _described(shared.files) == _described(own.files)


def test_a_second_client_serves_static_files_from_the_shared_table():
    reused = static_table.stats["reused"]
    for _ in range(2):
        response = Client().get("/static/js/kit/dialog.js")
        assert response.status_code == 200
        assert b"".join(response.streaming_content)
    assert static_table.stats["reused"] >= reused + 1
