"""Importing a class list: upload -> map the columns -> preview -> import (issue 29 §3).

The parsed upload waits between the steps in the cache (Redis), under a key of
the class and the teacher, for an hour at most (``UPLOAD_SECONDS``), compressed
-- never in the session, which every request of the teacher would decode
(issue 38 §3: a 366 KB .xlsx was 36 MB in the session), never on disk, never
in a URL. The mapping travels as column numbers. Only the class's teachers
reach these pages (``selectors.teacher_classroom``: 404 for others).
"""

from __future__ import annotations

import json
import secrets
import zlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from classrooms import roster_import, roster_services, selectors
from classrooms.errors import ClassroomError
from classrooms.models import Classroom

UPLOAD_KEY = "classrooms:roster-upload:%s:%s"
#: How long a parsed upload waits for its preview and import.
UPLOAD_SECONDS = 60 * 60
#: Where older versions kept the upload: dropped when met.
LEGACY_SESSION_KEY = "classrooms.roster-import.%s"

#: A parsed upload: a table (CSV, XLSX) or a OneRoster export.
Parsed = roster_import.Table | roster_import.OneRoster
#: What waits in the cache: (kind, file name, the parsed upload, upload id).
Stored = tuple[str, str, Parsed, str]
#: (mapping or chosen OneRoster class, candidate rows or None, rows left out, refusal or None)
Plan = tuple[
    roster_import.Mapping | str,
    list[roster_import.Candidate] | None,
    list[roster_import.LeftOut],
    ClassroomError | None,
]


def _key(request: HttpRequest, classroom: Classroom) -> str:
    return UPLOAD_KEY % (classroom.pk, request.user.pk)


def _store(request: HttpRequest, classroom: Classroom, kind: str, name: str, data: Parsed) -> None:
    if isinstance(data, roster_import.Table):
        stored = {"headers": data.headers, "rows": data.rows}
    else:
        stored = {
            "classes": [[c.sourced_id, c.title, c.school, c.students] for c in data.classes],
            "users": data.users,
            "enrollments": data.enrollments,
        }
    payload = {
        "kind": kind,
        "name": name,
        "data": stored,
        # the import names the upload it previewed (another tab may upload again)
        "upload": secrets.token_urlsafe(8),
    }
    packed = zlib.compress(json.dumps(payload, ensure_ascii=False).encode(), 6)
    cache.set(_key(request, classroom), packed, UPLOAD_SECONDS)
    request.session.pop(LEGACY_SESSION_KEY % classroom.pk, None)


def _forget(request: HttpRequest, classroom: Classroom) -> None:
    cache.delete(_key(request, classroom))


def _load(request: HttpRequest, classroom: Classroom) -> Stored | None:
    packed = cache.get(_key(request, classroom))
    if not packed:
        return None
    try:
        stored = json.loads(zlib.decompress(packed))
    except (zlib.error, ValueError):
        return None
    data = stored["data"]
    if stored["kind"] == "table":
        table = roster_import.Table(
            headers=data["headers"], rows=[(row, cells) for row, cells in data["rows"]]
        )
        return stored["kind"], stored["name"], table, stored.get("upload", "")
    oneroster = roster_import.OneRoster(
        classes=[roster_import.OneRosterClass(*c) for c in data["classes"]],
        users={k: tuple(v) for k, v in data["users"].items()},
        enrollments=[tuple(e) for e in data["enrollments"]],
    )
    return stored["kind"], stored["name"], oneroster, stored.get("upload", "")


@login_required
def upload(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    error = None
    if request.method == "POST":
        files = request.FILES.getlist("files")
        try:
            kind, name, data = _parse(files)
        except ClassroomError as refusal:
            error = refusal
        else:
            _store(request, classroom, kind, name, data)
            return redirect("classrooms:import_map", pk=classroom.pk)
    return render(
        request,
        "classrooms/import_upload.html",
        {"classroom": classroom, "error": error},
        status=400 if error else 200,
    )


def _parse(files: list[UploadedFile]) -> tuple[str, str, Parsed]:
    if not files:
        raise ClassroomError("no_file", _("Choose the file with the class list."))
    if sum(f.size or 0 for f in files) > roster_import.MAX_FILE_BYTES:
        raise ClassroomError(
            "file_too_large", _("The file is too large. A class list can have at most 2 MB.")
        )
    uploads = [(f.name or "", f.read()) for f in files]
    names = [name for name, _data in uploads]
    if roster_import.is_oneroster(names):
        found = roster_import.oneroster_files(uploads)
        return "oneroster", ", ".join(names), roster_import.read_oneroster(found)
    if len(uploads) > 1:
        raise ClassroomError(
            "one_file", _("Upload one class list (several files only for OneRoster).")
        )
    name, data = uploads[0]
    return "table", name, roster_import.read_upload(name, data)


def _column(params: QueryDict, name: str) -> int | None:
    value = params.get(name, "")
    try:
        return int(value) if value != "" else None
    except ValueError:
        raise ClassroomError("bad_mapping", _("Choose the columns again.")) from None


def _mapping(
    params: QueryDict, table: roster_import.Table, classroom: Classroom
) -> roster_import.Mapping:
    if "full" not in params and "first" not in params:
        roster = list(classroom.members.values_list("roster_name", flat=True))
        return roster_import.guess_mapping(table, class_name=classroom.name, roster=roster)
    return roster_import.Mapping(
        first=_column(params, "first"),
        last=_column(params, "last"),
        full=_column(params, "full"),
        class_column=_column(params, "class_column"),
        class_value=params.get("class_value", "").strip()[: roster_import.MAX_CELL],
        surname_first=params.get("surname_first", "") in ("1", "on"),
        id_column=_column(params, "id_column"),
    )


def _plan(classroom: Classroom, data: Parsed, params: QueryDict) -> Plan:
    """(mapping or chosen OneRoster class, candidate rows or None, rows left out,
    refusal or None)."""
    if isinstance(data, roster_import.Table):
        mapping = _mapping(params, data, classroom)
        if "preview" not in params:
            return mapping, None, [], None
        try:
            rows, left_out = roster_import.split_candidates(data, mapping)
        except ClassroomError as refusal:
            return mapping, None, [], refusal
        return mapping, rows, left_out, None
    chosen = params.get("oneroster_class", "")
    if not chosen and len(data.classes) == 1:
        chosen = data.classes[0].sourced_id
    if not chosen or "preview" not in params:
        return chosen, None, [], None
    try:
        return chosen, roster_import.oneroster_candidates(data, chosen), [], None
    except ClassroomError as refusal:
        return chosen, None, [], refusal


def _render_map(
    request: HttpRequest,
    classroom: Classroom,
    stored: Stored,
    params: QueryDict,
    *,
    error: ClassroomError | None = None,
    status: int = 200,
) -> HttpResponse:
    kind, name, data, upload_id = stored
    try:
        choice, rows, left_out, refusal = _plan(classroom, data, params)
    except ClassroomError as bad:  # a table's columns chosen wrongly (OneRoster refuses in _plan)
        assert isinstance(data, roster_import.Table)
        choice, rows, left_out, refusal = roster_import.guess_mapping(data), None, [], bad
    context = {
        "classroom": classroom,
        "kind": kind,
        "file_name": name,
        "upload_id": upload_id,
        "error": error or refusal,
        "preview": roster_services.preview(classroom, rows) if rows is not None else None,
        "left_out": left_out,
    }
    if isinstance(data, roster_import.Table):
        assert isinstance(choice, roster_import.Mapping)
        context.update(
            headers=list(enumerate(data.headers)),
            mapping=choice,
            class_values=roster_import.class_values(data, choice.class_column),
            sample=data.rows[:3],
        )
    else:
        context.update(oneroster_classes=data.classes, chosen=choice)
    if (error or refusal) and status == 200:
        status = 400
    return render(request, "classrooms/import_map.html", context, status=status)


@login_required
def map_columns(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    stored = _load(request, classroom)
    if stored is None:
        return redirect("classrooms:import_upload", pk=classroom.pk)
    return _render_map(request, classroom, stored, request.GET)


@login_required
@require_POST
def confirm(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    stored = _load(request, classroom)
    if stored is None:
        messages.error(request, _("Upload the class list again."))
        return redirect("classrooms:import_upload", pk=classroom.pk)
    _kind, _name, data, upload_id = stored
    params = request.POST.copy()
    params["preview"] = "1"
    if params.get("upload") != upload_id:
        error = ClassroomError(
            "upload_changed",
            _("Another file was uploaded meanwhile. Check its preview and import again."),
        )
        return _render_map(request, classroom, stored, params, error=error, status=409)
    try:
        _choice, rows, _left_out, refusal = _plan(classroom, data, params)
        if refusal is not None:
            raise refusal
        result = roster_services.import_roster(classroom=classroom, rows=rows or [])
    except ClassroomError as error:
        return _render_map(request, classroom, stored, params, error=error, status=400)
    _forget(request, classroom)
    messages.success(
        request,
        ngettext(
            "%(count)s student was added to the roster.",
            "%(count)s students were added to the roster.",
            result.added,
        )
        % {"count": result.added},
    )
    if result.renamed:
        messages.info(
            request,
            ngettext(
                "%(count)s name was updated.",
                "%(count)s names were updated.",
                result.renamed,
            )
            % {"count": result.renamed},
        )
    if result.missing:
        messages.info(
            request,
            ngettext(
                "%(count)s student of the roster is not in the file and stays in the class.",
                "%(count)s students of the roster are not in the file and stay in the class.",
                result.missing,
            )
            % {"count": result.missing},
        )
    return redirect("classrooms:members", pk=classroom.pk)
