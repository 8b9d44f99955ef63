"""Backups that restore (issue 43): the method docs/operations.md gives --
``pg_dump -Fc`` of the live database, ``pg_restore --no-owner`` into an empty
one -- run on a populated database and restored into a fresh PostgreSQL
cluster, where every class, membership, played game and homework result is
found again (counts and a checksum of every row, table by table)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest
from django.db import connection
from django.utils import timezone

from accounts.identity import new_profile_code
from accounts.models import PlayerProfile, User
from classrooms.models import Classroom, Membership
from classrooms.services import new_class_code
from games.models import GameRecord, GameResult
from homework.models import Assignment, Attempt
from tests.production import shipped
from tools.services import Postgres, free_port, postgres_bin

MODELS = [User, PlayerProfile, Classroom, Membership, GameRecord, GameResult, Assignment, Attempt]


def _populate() -> dict[str, int]:
    teacher = User.objects.create_user("backup@school.example", "x" * 16, name="Učitelka Nová")
    now = timezone.now()
    for number in range(3):
        classroom = Classroom.objects.create(
            teacher=teacher,
            name=f"{6 + number}.B",
            school_year="2026/27",
            join_code=new_class_code(),
        )
        members = []
        for pupil in range(8):
            player = PlayerProfile.objects.create(
                nickname=f"Žák {number}-{pupil}", code=new_profile_code()
            )
            members.append(
                Membership.objects.create(
                    classroom=classroom, player=player, roster_name=f"Příjmení {pupil}"
                )
            )
        record = GameRecord.objects.create(
            game="poker", mode="class", classroom=classroom, settings={"rounds": 3},
            finished_at=now,
        )  # fmt: skip
        for rank, member in enumerate(members, start=1):
            GameResult.objects.create(
                record=record, player=member.player, score=100 - rank, rank=rank,
                details={"hands": rank},
            )  # fmt: skip
        assignment = Assignment.objects.create(
            classroom=classroom, game="poker", title=f"Úkol {number}",
            due_at=now + timedelta(days=7), created_by=teacher,
        )  # fmt: skip
        for index, member in enumerate(members):
            Attempt.objects.create(
                assignment=assignment, member=member, player=member.player,
                finished_at=now, score=10 * index, duration_s=61.5 + index,
            )  # fmt: skip
    return {model._meta.db_table: model.objects.count() for model in MODELS}


def _fingerprint(url: str) -> dict[str, tuple[int, str]]:
    """Each table: (rows, md5 of every row's text in primary-key order)."""
    found = {}
    with psycopg.connect(url) as conn:
        for model in MODELS:
            table = model._meta.db_table
            found[table] = conn.execute(
                f"SELECT count(*), md5(coalesce(string_agg(t::text, chr(10) ORDER BY t.id), '')) FROM \"{table}\" t"  # noqa: E501
            ).fetchone()
    return found


def _source_url() -> str:
    s = connection.settings_dict
    user = f"{s['USER']}@" if s.get("USER") else ""
    return f"postgresql://{user}{s['HOST'] or '127.0.0.1'}:{s['PORT']}/{s['NAME']}"


def test_operations_documents_dump_and_restore():
    text = (shipped.BASE_DIR / "docs" / "operations.md").read_text()
    assert "pg_dump" in text and "-Fc" in text
    assert "pg_restore" in text and "--no-owner" in text


@pytest.mark.django_db(transaction=True)
def test_a_dump_restores_every_class_membership_game_and_homework_result(tmp_path):
    counts = _populate()
    assert counts[Membership._meta.db_table] == 24 and counts[Attempt._meta.db_table] == 24
    source = _source_url()
    before = _fingerprint(source)
    dump = tmp_path / "matika.dump"
    binaries = postgres_bin()
    subprocess.run(
        [str(binaries / "pg_dump"), "-Fc", "--no-owner", "-d", source, "-f", str(dump)],
        check=True,
        timeout=300,
    )
    # As root PostgreSQL runs as its own user, which must reach the folder.
    workdir = Path(tempfile.mkdtemp(prefix="matika-restore-"))
    workdir.chmod(0o755)
    fresh = Postgres(workdir / "restored", free_port(), durable=False)
    fresh.start()
    try:
        fresh.ensure_database("matika")
        subprocess.run(
            [str(binaries / "pg_restore"), "--no-owner", "--no-acl", "--exit-on-error",
             "-d", fresh.url("matika"), str(dump)],
            check=True,
            timeout=300,
        )  # fmt: skip
        after = _fingerprint(fresh.url("matika"))
        assert after == before
        for table, rows in counts.items():
            assert after[table][0] == rows, table
        with psycopg.connect(fresh.url("matika")) as conn:
            names = conn.execute(
                f'SELECT name FROM "{Classroom._meta.db_table}" ORDER BY name'
            ).fetchall()
            scores = conn.execute(f'SELECT sum(score) FROM "{Attempt._meta.db_table}"').fetchone()
        assert [name for (name,) in names] == ["6.B", "7.B", "8.B"]
        assert scores == (3 * sum(10 * i for i in range(8)),)
    finally:
        fresh.stop()
        shutil.rmtree(workdir, ignore_errors=True)
