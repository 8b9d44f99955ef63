"""Importing a class list from a school system's export or OneRoster CSV (issue 29 §3).

Upload -> map the columns -> preview -> import. Real-looking exports: Bakaláři
in Windows-1250 with ``;``, EduPage in UTF-8 with a BOM, an Excel file, a
OneRoster 1.2 CSV set (zip or separate files). A file with a bad row imports
nothing; a re-import keeps the entries (and the pupils' progress) it matches.
"""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from openpyxl import Workbook

from classrooms import privacy, roster_import, roster_services, services
from classrooms.errors import ClassroomError
from classrooms.models import Membership
from games.models import GameResult
from tests.classrooms import factories

pytestmark = pytest.mark.django_db

BAKALARI = (
    "Příjmení;Jméno;Třída;Datum narození\r\n"
    "Nováková;Bára;6.A;3.4.2014\r\n"
    "Kováč;Adam;6.A;1.2.2014\r\n"
    "Šťastný;Čeněk;6.B;5.6.2014\r\n"
    "Žlutá;Řepa;6.A;7.8.2014\r\n"
).encode("cp1250")

EDUPAGE = "\ufeffMeno a priezvisko;Trieda\nĽubica Ďurišová;5.B\nÁdám Öttl;5.B\n\n".encode()

ORGS = "sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId\nS1,active,,ZŠ Komenského,school,,\n"
CLASSES = (
    "sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,"
    "location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods\n"
    "C6A,active,,6.A Matematika,06,,M6A,scheduled,,S1,T1,,,\n"
    "C7B,active,,7.B Matematika,07,,M7B,scheduled,,S1,T1,,,\n"
)
USERS = (
    "sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,"
    "middleName,identifier,email,sms,phone,agentSourcedIds,grades,password\n"
    "U1,active,,true,anovak,,Anna,Nováková,,,,,,,06,\n"
    "U2,active,,true,bkral,,Boris,Král,,,,,,,06,\n"
    "U3,active,,true,cmal,,Cecílie,Malá,,,,,,,07,\n"
    "T1,active,,true,ucitel,,Jana,Učitelská,,,,,,,,\n"
)
ENROLLMENTS = (
    "sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,"
    "primary,beginDate,endDate\n"
    "E1,active,,C6A,S1,U1,student,,,\n"
    "E2,active,,C6A,S1,U2,student,,,\n"
    "E3,active,,C7B,S1,U3,student,,,\n"
    "E4,active,,C6A,S1,T1,teacher,true,,\n"
)


def _xlsx(rows: list[list]) -> bytes:
    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _zip(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, text in files.items():
            archive.writestr(f"oneroster/{name}", text.encode())
    return out.getvalue()


def _oneroster(users: str = USERS) -> dict[str, str]:
    return {
        "orgs.csv": ORGS,
        "classes.csv": CLASSES,
        "users.csv": users,
        "enrollments.csv": ENROLLMENTS,
    }


def _upload(client, classroom, *files: tuple[str, bytes]):
    return client.post(
        f"/classes/{classroom.pk}/members/import/",
        {"files": [SimpleUploadedFile(name, data) for name, data in files]},
    )


def _upload_id(client, classroom) -> str:
    """The id of the teacher's parsed upload, kept in the cache (never the session)."""
    import json
    import zlib

    from django.core.cache import cache

    from classrooms import import_views

    user_id = int(client.session["_auth_user_id"])
    packed = cache.get(import_views.UPLOAD_KEY % (classroom.pk, user_id))
    return json.loads(zlib.decompress(packed))["upload"] if packed else ""


def _confirm(client, classroom, data: dict):
    """The import's POST, naming the upload the page previewed (as the page does)."""
    return client.post(
        f"/classes/{classroom.pk}/members/import/confirm/",
        {"upload": _upload_id(client, classroom), **data},
    )


def _names(classroom) -> list[str]:
    return sorted(classroom.members.values_list("roster_name", flat=True))


# --- parsing ------------------------------------------------------------------------


def test_a_bakalari_export_in_cp1250_is_read_and_its_columns_guessed():
    table = roster_import.read_upload("zaci.csv", BAKALARI)
    assert table.headers == ["Příjmení", "Jméno", "Třída", "Datum narození"]
    mapping = roster_import.guess_mapping(table)
    assert (mapping.first, mapping.last, mapping.full, mapping.class_column) == (1, 0, None, 2)
    assert roster_import.class_values(table, 2) == ["6.A", "6.B"]
    mapping.class_value = "6.A"
    rows = roster_import.candidates(table, mapping)
    assert [(r.row, r.name) for r in rows] == [
        (2, "Bára Nováková"),
        (3, "Adam Kováč"),
        (5, "Řepa Žlutá"),
    ]


def test_an_edupage_export_in_utf8_with_a_bom_has_a_full_name_column():
    table = roster_import.read_upload("trieda.CSV", EDUPAGE)
    assert table.headers[0] == "Meno a priezvisko"
    mapping = roster_import.guess_mapping(table)
    assert (mapping.full, mapping.first, mapping.last, mapping.class_column) == (0, None, None, 1)
    assert [r.name for r in roster_import.candidates(table, mapping)] == [
        "Ľubica Ďurišová",
        "Ádám Öttl",
    ]


def test_comma_separated_and_excel_files_are_read():
    table = roster_import.read_upload("list.csv", b"First name,Last name\nAnn,Lee\n")
    assert [
        r.name for r in roster_import.candidates(table, roster_import.guess_mapping(table))
    ] == ["Ann Lee"]
    data = _xlsx([["Příjmení", "Jméno", "Třída"], ["Malý", "Jan", "6.A"], [None, None, None]])
    table = roster_import.read_upload("export.xlsx", data)
    assert table.rows == [(2, ["Malý", "Jan", "6.A"])]


@pytest.mark.parametrize(
    ("name", "data", "code"),
    [
        ("zaci.pdf", b"%PDF-1.4", "wrong_type"),
        ("zaci.xlsx", b"not a zip at all", "wrong_type"),
        ("zaci.csv", b"", "file_empty"),
        ("zaci.csv", b"Jmeno\n", "file_empty"),
        ("zaci.csv", b"x" * (roster_import.MAX_FILE_BYTES + 1), "file_too_large"),
        (
            "zaci.csv",
            ("Jméno\n" + "Žák\n" * (roster_import.MAX_ROWS + 1)).encode(),
            "too_many_rows",
        ),
    ],
)
def test_a_bad_file_is_refused_with_a_stable_code(name, data, code):
    with pytest.raises(ClassroomError) as refused:
        roster_import.read_upload(name, data)
    assert refused.value.code == code


def test_oneroster_students_of_one_class_with_their_sourced_ids():
    files = roster_import.oneroster_files([("export.zip", _zip(_oneroster()))])
    data = roster_import.read_oneroster(files)
    assert [(c.sourced_id, c.school, c.students) for c in data.classes] == [
        ("C6A", "ZŠ Komenského", 2),
        ("C7B", "ZŠ Komenského", 1),
    ]
    rows = roster_import.oneroster_candidates(data, "C6A")
    assert [(r.name, r.source_id) for r in rows] == [("Anna Nováková", "U1"), ("Boris Král", "U2")]


def test_an_incomplete_oneroster_set_is_refused():
    with pytest.raises(ClassroomError) as refused:
        roster_import.oneroster_files([("users.csv", USERS.encode())])
    assert refused.value.code == "oneroster_incomplete"


# --- the pages ----------------------------------------------------------------------


def test_upload_map_preview_and_import_a_bakalari_file(teacher_client, classroom):
    response = _upload(teacher_client, classroom, ("zaci.csv", BAKALARI))
    assert response.status_code == 302
    assert response["Location"] == f"/classes/{classroom.pk}/members/import/map/"
    page = teacher_client.get(response["Location"])
    assert page.status_code == 200
    assert "Příjmení" in page.content.decode()
    preview = teacher_client.get(
        response["Location"],
        {"preview": "1", "first": "1", "last": "0", "class_column": "2", "class_value": "6.A"},
    )
    body = preview.content.decode().split('data-testid="import-preview"')[1]
    assert "Řepa Žlutá" in body and "Čeněk" not in body  # 6.B is left out
    before = _names(classroom)
    done = _confirm(
        teacher_client,
        classroom,
        {"first": "1", "last": "0", "full": "", "class_column": "2", "class_value": "6.A"},
    )
    assert done.status_code == 302
    # Adam Kováč is in the roster already: matched, not added twice
    assert _names(classroom) == sorted([*before, "Bára Nováková", "Řepa Žlutá"])
    # the same rules as pasted names: every new entry has its claim code
    assert all(m.claim_code for m in classroom.members.all())


def test_a_file_with_bad_rows_shows_them_and_imports_nothing(teacher_client, classroom):
    data = (
        "Příjmení;Jméno;Třída\n"
        "Nová;Eva;6.A\n"
        ";;\n"  # a blank row is skipped, not an error
        "Malý;;6.A\n"
        "nová;  eva ;6.A\n"
        f"{'X' * 90};Jan;6.A\n"
        "\t;\t;6.A\n"
    ).encode("cp1250")
    table = roster_import.read_upload("x.csv", data)
    rows = roster_import.candidates(table, roster_import.guess_mapping(table))
    plan = roster_services.preview(classroom, rows)
    assert [(e.row, e.code) for e in plan.errors] == [
        (5, "duplicate_in_file"),
        (6, "name_too_long"),
        (7, "name_empty"),
    ]
    before = _names(classroom)
    _upload(teacher_client, classroom, ("x.csv", data))
    page = teacher_client.get(f"/classes/{classroom.pk}/members/import/map/", {"preview": "1"})
    body = page.content.decode()
    assert 'data-testid="import-row-errors"' in body
    assert 'data-row="5" data-error-code="duplicate_in_file"' in body
    assert 'data-testid="import-confirm"' not in body
    refused = _confirm(
        teacher_client,
        classroom,
        {"first": "1", "last": "0", "full": "", "class_column": "2"},
    )
    assert refused.status_code == 400
    assert 'data-error-code="roster_file_errors"' in refused.content.decode()
    assert _names(classroom) == before


@pytest.mark.parametrize(
    ("name", "data", "code"),
    [
        ("zaci.docx", b"PK\x03\x04junk", "wrong_type"),
        ("zaci.csv", b"x" * (roster_import.MAX_FILE_BYTES + 1), "file_too_large"),
        ("zaci.xlsx", b"broken", "wrong_type"),
    ],
)
def test_a_bad_upload_answers_400_with_its_code(teacher_client, classroom, name, data, code):
    response = _upload(teacher_client, classroom, (name, data))
    assert response.status_code == 400
    assert f'data-error-code="{code}"' in response.content.decode()
    assert teacher_client.get(f"/classes/{classroom.pk}/members/import/map/").status_code == 302


def test_no_file_and_a_mapping_without_a_name_are_refused(teacher_client, classroom):
    response = teacher_client.post(f"/classes/{classroom.pk}/members/import/", {})
    assert response.status_code == 400
    assert 'data-error-code="no_file"' in response.content.decode()
    _upload(teacher_client, classroom, ("zaci.csv", BAKALARI))
    before = _names(classroom)
    for params in ({"full": "", "first": "", "last": ""}, {"full": "x", "first": ""}):
        page = teacher_client.get(
            f"/classes/{classroom.pk}/members/import/map/", {"preview": "1", **params}
        )
        assert page.status_code == 400
        refused = _confirm(teacher_client, classroom, params)
        assert refused.status_code == 400
    assert _names(classroom) == before


def test_a_re_import_keeps_entries_their_players_and_results(teacher_client, classroom):
    adam = classroom.members.get(roster_name="Adam Kováč")
    player = factories.make_player("Adík")
    adam.player = player
    adam.save()
    factories.play(classroom, {player: 12})
    data = "Celé jméno\nadam   kováč\nDana Veselá\n".encode("utf-8-sig")
    _upload(teacher_client, classroom, ("znovu.csv", data))
    page = teacher_client.get(
        f"/classes/{classroom.pk}/members/import/map/", {"preview": "1", "full": "0"}
    )
    body = page.content.decode()
    assert 'data-change="unchanged"' in body and 'data-change="missing"' in body
    assert "Bára Nová" in body  # listed as not in the file
    _confirm(teacher_client, classroom, {"full": "0", "first": "", "last": ""})
    adam.refresh_from_db()
    assert adam.player_id == player.pk and adam.roster_name == "Adam Kováč"
    assert GameResult.objects.filter(player=player, score=12).exists()
    # nothing deleted: the two names missing from the file stay
    assert _names(classroom) == ["Adam Kováč", "Bára Nová", "Cyril Pekný", "Dana Veselá"]


def test_oneroster_zip_import_and_re_import_matches_by_sourced_id(teacher_client, teacher):
    classroom = factories.make_class(teacher, name="6.A")
    assert _upload(teacher_client, classroom, ("roster.zip", _zip(_oneroster()))).status_code == 302
    page = teacher_client.get(f"/classes/{classroom.pk}/members/import/map/")
    assert "7.B Matematika" in page.content.decode()
    _confirm(teacher_client, classroom, {"oneroster_class": "C6A"})
    assert sorted(classroom.members.values_list("roster_name", "source_id")) == [
        ("Anna Nováková", "U1"),
        ("Boris Král", "U2"),
    ]
    anna = classroom.members.get(source_id="U1")
    player = factories.make_player("Anička")
    anna.player = player
    anna.save()
    # Anna married: the school system has a new family name; the same sourcedId
    users = USERS.replace("Anna,Nováková", "Anna,Horáková")
    files = [(name, text.encode()) for name, text in _oneroster(users).items()]
    assert _upload(teacher_client, classroom, *files).status_code == 302
    page = teacher_client.get(
        f"/classes/{classroom.pk}/members/import/map/", {"preview": "1", "oneroster_class": "C6A"}
    )
    assert 'data-change="renamed"' in page.content.decode()
    _confirm(teacher_client, classroom, {"oneroster_class": "C6A"})
    anna.refresh_from_db()
    assert (anna.roster_name, anna.player_id) == ("Anna Horáková", player.pk)
    assert classroom.members.count() == 2
    # the ID is the pupil's data too: it is in their download
    assert privacy.export_player(player)["classes"][0]["source_id"] == "U1"


def test_an_import_after_another_upload_in_another_tab_is_refused(teacher_client, classroom):
    _upload(teacher_client, classroom, ("zaci.csv", BAKALARI))
    old = _upload_id(teacher_client, classroom)
    _upload(teacher_client, classroom, ("jiny.csv", "Celé jméno\nJiný Žák\n".encode()))
    before = _names(classroom)
    refused = teacher_client.post(
        f"/classes/{classroom.pk}/members/import/confirm/",
        {"upload": old, "full": "0", "first": "", "last": ""},
    )
    assert refused.status_code == 409
    assert 'data-error-code="upload_changed"' in refused.content.decode()
    assert _names(classroom) == before


def test_a_class_that_would_pass_its_size_limit_imports_nothing(classroom):
    rows = [
        roster_import.Candidate(row=n + 2, name=f"Žák {n}") for n in range(services.MAX_MEMBERS)
    ]
    with pytest.raises(ClassroomError) as refused:
        roster_services.import_roster(classroom=classroom, rows=rows)
    assert refused.value.code == "roster_file_errors"
    assert classroom.members.count() == 3


@pytest.mark.parametrize(
    "params",
    [
        {"first": "NaN", "last": "0"},
        {"full": "-1"},
        {"full": "99999999999999999999"},
        {"full": "1e309", "class_column": "\u0000"},
        {"first": "1", "last": "0", "class_column": "2", "class_value": "x" * 5000},
        {"oneroster_class": "C6A"},
    ],
)
def test_hostile_mappings_answer_4xx_and_change_nothing(teacher_client, classroom, params):
    _upload(teacher_client, classroom, ("zaci.csv", BAKALARI))
    before = _names(classroom)
    base = f"/classes/{classroom.pk}/members/import/"
    page = teacher_client.get(base + "map/", {"preview": "1", **params})
    assert page.status_code in {200, 400}
    answer = _confirm(teacher_client, classroom, params)
    assert answer.status_code in {302, 400}
    if answer.status_code == 302:  # a valid mapping of rows that are all fine
        assert set(before) <= set(_names(classroom))
    else:
        assert _names(classroom) == before


def test_excel_files_with_formatted_empty_columns_are_read():
    data = _xlsx([["Příjmení", "Jméno", *[None] * 100], ["Malá", "Ema", *[None] * 100]])
    table = roster_import.read_upload("export.xlsx", data)
    assert table.headers == ["Příjmení", "Jméno"]


# --- who may ------------------------------------------------------------------------


def test_only_the_class_teachers_import(client, teacher_client, classroom):
    outsider = factories.make_teacher("cizi@skola.sk")
    base = f"/classes/{classroom.pk}/members/import/"
    before = _names(classroom)
    client.force_login(outsider)
    assert _upload(client, classroom, ("zaci.csv", BAKALARI)).status_code == 404
    assert client.get(base + "map/").status_code == 404
    assert client.post(base + "confirm/", {"full": "0"}).status_code == 404
    client.logout()
    assert _upload(client, classroom, ("zaci.csv", BAKALARI)).status_code == 302
    assert "/accounts/login/" in client.get(base).headers["Location"]
    # the owner's own upload is not reachable from another session
    _upload(teacher_client, classroom, ("zaci.csv", BAKALARI))
    client.force_login(outsider)
    assert client.post(base + "confirm/", {"first": "1", "last": "0"}).status_code == 404
    assert _names(classroom) == before
    colleague = factories.make_teacher("kolega@skola.sk")
    factories.add_co_teacher(classroom, colleague)
    client.force_login(colleague)
    assert _upload(client, classroom, ("zaci.csv", BAKALARI)).status_code == 302
    _confirm(client, classroom, {"first": "1", "last": "0", "full": "", "class_column": ""})
    assert Membership.objects.filter(classroom=classroom, roster_name="Čeněk Šťastný").exists()
