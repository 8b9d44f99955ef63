"""Importing a class list into a roster: the preview and the import (issue 29 §3).

The rows come from ``classrooms.roster_import``; each name is validated by the
same ``services.normalise_roster_name`` as a pasted one and new names are added
by the same ``services._add_roster_names`` (class size limit, claim codes), so
there is one set of rules for roster names.

Matching against the roster: by ``source_id`` (a OneRoster sourcedId) when the
row has one and an entry holds it, otherwise by the normalised name (case and
spacing ignored). A matched entry is never recreated: its profile, merged
profiles and results stay. Entries the file does not name are listed and kept;
nothing is ever deleted by an import. A file with any bad row imports nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from classrooms import roster_rows, services
from classrooms.errors import ClassroomError
from classrooms.models import Classroom, Membership
from classrooms.roster_import import Candidate


@dataclass
class RowError:
    row: int
    code: str
    message: str
    name: str = ""


@dataclass
class Preview:
    new: list[Candidate] = field(default_factory=list)
    unchanged: list[tuple[Candidate, Membership]] = field(default_factory=list)
    # matched by source_id, the name in the file differs: the entry is renamed
    renamed: list[tuple[Candidate, Membership]] = field(default_factory=list)
    # roster entries the file does not name: kept
    missing: list[Membership] = field(default_factory=list)
    # a new name with the same words as an entry in another order ("Nováková
    # Tereza" / "Tereza Nováková"): most likely that pupil, so not added
    suspected: list[tuple[Candidate, Membership]] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def _key(name: str) -> str:
    return name.casefold()


def preview(classroom: Classroom, rows: list[Candidate]) -> Preview:
    """What an import of ``rows`` would do; changes nothing."""
    result = Preview()
    members = list(
        Membership.objects.filter(classroom=classroom).exclude(status=Membership.Status.PENDING)
    )
    by_source = {m.source_id: m for m in members if m.source_id}
    by_name = {_key(m.roster_name): m for m in members}
    seen_names: dict[str, int] = {}
    seen_sources: dict[str, int] = {}
    matched: set[int] = set()
    if not rows:
        result.errors.append(
            RowError(0, "file_empty", _("No row of the file gives a name for this class."))
        )
    for row in rows:
        try:
            name = services.normalise_roster_name(row.name)
        except ClassroomError as error:
            result.errors.append(RowError(row.row, error.code, error.message, row.name))
            continue
        first = seen_names.get(_key(name)) or (
            seen_sources.get(row.source_id) if row.source_id else None
        )
        if first is not None:
            result.errors.append(
                RowError(
                    row.row,
                    "duplicate_in_file",
                    _("The same name as in row %(row)s.") % {"row": first},
                    name,
                )
            )
            continue
        seen_names[_key(name)] = row.row
        if row.source_id:
            seen_sources[row.source_id] = row.row
        candidate = Candidate(row=row.row, name=name, source_id=row.source_id)
        member = by_source.get(row.source_id) if row.source_id else None
        if member is not None and member.pk not in matched:
            matched.add(member.pk)
            if member.roster_name == name:
                result.unchanged.append((candidate, member))
            else:
                result.renamed.append((candidate, member))
            continue
        member = by_name.get(_key(name))
        if member is not None and member.pk not in matched:
            matched.add(member.pk)
            result.unchanged.append((candidate, member))
            continue
        result.new.append(candidate)
    _flag_suspected(result, members, matched)
    # A renamed entry must not take a name another entry keeps.
    kept_names = {_key(m.roster_name): m for m in members}
    for candidate, member in result.renamed:
        other = kept_names.get(_key(candidate.name))
        if other is not None and other.pk != member.pk and other.pk not in matched:
            result.errors.append(
                RowError(
                    candidate.row,
                    "name_in_roster",
                    _("Another student in the roster already has this name."),
                    candidate.name,
                )
            )
    result.missing = [m for m in members if m.pk not in matched]
    total = len(members) + len(result.new)
    if total > services.MAX_MEMBERS:
        result.errors.append(RowError(0, "class_full", services.class_full_message()))
    result.errors.sort(key=lambda error: error.row)
    return result


def _flag_suspected(result: Preview, members: list[Membership], matched: set[int]) -> None:
    """Move each new name that is an unmatched entry's name in another word order
    to ``suspected``: shown in the preview, never added as a second pupil."""
    kept = []
    for candidate in result.new:
        member = next(
            (
                m
                for m in members
                if m.pk not in matched and roster_rows.same_person(m.roster_name, candidate.name)
            ),
            None,
        )
        if member is None:
            kept.append(candidate)
            continue
        matched.add(member.pk)
        result.suspected.append((candidate, member))
    result.new = kept


@dataclass
class ImportResult:
    added: int
    renamed: int
    unchanged: int
    missing: int


@transaction.atomic
def import_roster(*, classroom: Classroom, rows: list[Candidate]) -> ImportResult:
    """Add the new names, rename entries matched by their ID in the school system,
    link a name-matched entry to its ID; keep everything else. Refused as a
    whole (``roster_file_errors``, nothing written) when any row is bad."""
    classroom = services._lock(classroom)
    plan = preview(classroom, rows)
    if not plan.ok:
        raise ClassroomError(
            "roster_file_errors",
            ngettext(
                "The file has %(count)s error. Nothing was imported.",
                "The file has %(count)s errors. Nothing was imported.",
                len(plan.errors),
            )
            % {"count": len(plan.errors)},
        )
    created = services._add_roster_names(classroom, [c.name for c in plan.new])
    ids = {_key(c.name): c.source_id for c in plan.new}
    linked = []
    for member in created:
        if ids.get(_key(member.roster_name)):
            member.source_id = ids[_key(member.roster_name)]
            linked.append(member)
    for candidate, member in plan.unchanged:
        if candidate.source_id and member.source_id != candidate.source_id:
            member.source_id = candidate.source_id
            linked.append(member)
    if linked:
        Membership.objects.bulk_update(linked, ["source_id"])
    for candidate, member in plan.renamed:
        member.roster_name = candidate.name
        member.save(update_fields=["roster_name"])
    return ImportResult(
        added=len(created),
        renamed=len(plan.renamed),
        unchanged=len(plan.unchanged),
        missing=len(plan.missing),
    )


# --- the roster from an LMS (NRPS) ------------------------------------------------------


@dataclass
class LmsSync:
    added: int = 0
    renamed: int = 0
    linked: int = 0
    # learners not added: the class is at its member cap
    over_cap: int = 0

    @property
    def changed(self) -> int:
        return self.added + self.renamed + self.linked


def _free_name(name: str, taken: set[str]) -> str:
    """``name``, or "name (2)", "name (3)"... when another entry has it already."""
    candidate, number = name, 1
    while candidate.casefold() in taken:
        number += 1
        candidate = f"{name} ({number})"
    return candidate


def sync_lms_members(*, classroom: Classroom, learners: list[tuple[str, str, str]]) -> LmsSync:
    """Add or rename the LMS's active learners ``(source_id, name, fallback name)``
    in the class by the same rules as every roster name: a valid roster name
    (else the fallback), a claim code for each new entry, never past the class's
    member cap (``services.MAX_MEMBERS``: the rest are counted in ``over_cap``),
    an entry the teacher typed with the same name is linked, not doubled.
    Nothing is deleted. The caller holds the class's row lock or lets this take it."""
    classroom = services._lock(classroom)
    result = LmsSync()
    members = list(Membership.objects.filter(classroom=classroom))
    by_source = {m.source_id: m for m in members if m.source_id}
    room = services.MAX_MEMBERS - sum(1 for m in members if not m.is_pending)
    taken = {_key(m.roster_name) for m in members}
    for source_id, raw_name, fallback in learners:
        try:
            name = services.normalise_roster_name(raw_name)
        except ClassroomError:
            name = fallback
        entry = by_source.get(source_id)
        if entry is not None:
            if raw_name and entry.roster_name != name and _key(name) not in taken:
                taken.discard(_key(entry.roster_name))
                entry.roster_name = name
                entry.save(update_fields=["roster_name"])
                taken.add(_key(name))
                result.renamed += 1
            continue
        typed = next(
            (
                m
                for m in members
                if not m.source_id
                and m.player_id is None
                and not m.is_pending
                and _key(m.roster_name) == _key(name)
            ),
            None,
        )
        if typed is not None:
            typed.source_id = source_id
            typed.save(update_fields=["source_id"])
            by_source[source_id] = typed
            result.linked += 1
            continue
        if room <= 0:
            result.over_cap += 1
            continue
        entry = Membership.objects.create(
            classroom=classroom,
            roster_name=_free_name(name, taken),
            source_id=source_id,
            claim_code=services.new_claim_code(),
        )
        members.append(entry)
        by_source[source_id] = entry
        taken.add(_key(entry.roster_name))
        room -= 1
        result.added += 1
    return result
