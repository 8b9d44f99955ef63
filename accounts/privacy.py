"""Privacy hooks: the app that owns a table answers for it.

``accounts`` sits low (above only ``core``): it knows who a player is, but
it must not import the shared game results, the rooms runtime, ``classrooms``
or a game -- not even inside a function (``tests/foundation/test_layers.py``).
Yet erasing a player, applying the retention periods, exporting a player's
data, their profile statistics and deleting a teacher account all touch their
tables. So every app that keeps personal data registers one
:class:`PrivacyHooks` here from its ``AppConfig.ready`` (as the apps that use
``django.contrib.auth`` plug into it), and the jobs in ``accounts`` --
``erasure``, ``retention``, ``export``, ``teacher_data`` -- call them in
registration order (the order of ``INSTALLED_APPS``)::

    # myapp/privacy.py
    HOOKS = PrivacyHooks(app="myapp", erase_player=erase_player, export_player=export_player)

    # myapp/apps.py
    def ready(self):
        from accounts import privacy
        from myapp.privacy import HOOKS
        privacy.register(HOOKS)

A game that stores players inside JSON (room state, logged steps, result
details) also says *where*: :func:`register_places` with the key names that
hold a nickname or a player id (:class:`Places`). Erasure replaces exact values
at exactly those places -- never a dict key other than a player id in a dict
keyed by player ids, never a substring -- so another player's data and the
game's own keys stay byte-identical (``docs/privacy.md``).

Hooks that are a plain question, not a job, live here too: whether anything
keeps a player off public tables (:func:`publication_blocked`, answered by
``classrooms`` for its classes' publication choice).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from accounts.models import PlayerProfile, User

#: What an erased player's nickname becomes wherever a game or log kept it.
DELETED_NAME = "—"


@dataclass(frozen=True)
class Places:
    """Where JSON of one game holds a player, by the key names that hold them.

    ``nicknames``: a string equal to the player's nickname (or hidden name);
    ``ids``: a player id (an int, or its digits as a string);
    ``text_ids``: a player id written as a string only (an int there is
    something else, e.g. a tile's number);
    ``id_lists``: a list whose items are player ids;
    ``keyed_by_id``: a dict whose keys are player ids;
    ``seat_rows``: a list of ``[player id, nickname, ...]`` rows.
    A key may be in several sets (e.g. ``seats`` is a list of ids in one game
    and a list of rows in the runtime's start step): each item is judged by
    its type. Dicts and lists under any key are walked.
    """

    nicknames: frozenset[str] = frozenset()
    ids: frozenset[str] = frozenset()
    text_ids: frozenset[str] = frozenset()
    id_lists: frozenset[str] = frozenset()
    keyed_by_id: frozenset[str] = frozenset()
    seat_rows: frozenset[str] = frozenset()

    def __or__(self, other: Places) -> Places:
        return Places(
            nicknames=self.nicknames | other.nicknames,
            ids=self.ids | other.ids,
            text_ids=self.text_ids | other.text_ids,
            id_lists=self.id_lists | other.id_lists,
            keyed_by_id=self.keyed_by_id | other.keyed_by_id,
            seat_rows=self.seat_rows | other.seat_rows,
        )


def places(**sets: Any) -> Places:
    """``places(ids={"player_id"}, nicknames={"nickname"})``: a :class:`Places` from any iterables."""
    return Places(**{name: frozenset(values) for name, values in sets.items()})


@dataclass
class Erasure:
    """One player being erased: who, and the exact values that replace them.

    ``pseudonym`` is a random negative id, the same throughout one erasure, so
    a replay of a room's log still tells the seats apart and no id of a
    living profile is ever produced."""

    player_id: int
    nickname: str
    # Every exact name the player was shown under (the nickname, the hidden name).
    names: frozenset[str]
    pseudonym: int = field(default_factory=lambda: -secrets.randbelow(2**31 - 2) - 1)

    def _is_id(self, value: object) -> bool:
        if isinstance(value, bool):
            return False
        if isinstance(value, int):
            return value == self.player_id
        return isinstance(value, str) and value == str(self.player_id)

    def _pseudonym_for(self, value: object) -> object:
        return str(self.pseudonym) if isinstance(value, str) else self.pseudonym

    def scrub(self, value: Any, where: Places, *, keyed_by_id: bool = False) -> Any:
        """``value`` with the player replaced at ``where``; everything else as it was."""
        if isinstance(value, dict):
            return {
                (self._pseudonym_for(key) if keyed_by_id and self._is_id(key) else key): (
                    self._entry(key, item, where)
                )
                for key, item in value.items()
            }
        if isinstance(value, list):
            return [self.scrub(item, where) for item in value]
        return value

    def _entry(self, key: str, item: Any, where: Places) -> Any:
        if key in where.nicknames and isinstance(item, str) and item in self.names:
            return DELETED_NAME
        if key in where.ids and self._is_id(item):
            return self._pseudonym_for(item)
        if key in where.text_ids and isinstance(item, str) and self._is_id(item):
            return self._pseudonym_for(item)
        if isinstance(item, dict) and key in where.keyed_by_id:
            return self.scrub(item, where, keyed_by_id=True)
        if isinstance(item, list) and (key in where.id_lists or key in where.seat_rows):
            return [self._list_item(key, element, where) for element in item]
        return self.scrub(item, where)

    def _list_item(self, key: str, element: Any, where: Places) -> Any:
        if key in where.id_lists and self._is_id(element):
            return self._pseudonym_for(element)
        if key in where.seat_rows and isinstance(element, list) and element:
            head, rest = element[0], element[1:]
            if self._is_id(head):
                head = self._pseudonym_for(head)
                if rest and isinstance(rest[0], str) and rest[0] in self.names:
                    rest = [DELETED_NAME, *rest[1:]]
            return [head, *(self.scrub(part, where) for part in rest)]
        return self.scrub(element, where)


@dataclass(frozen=True)
class PrivacyHooks:
    """What one app does for the platform's privacy jobs; every hook is optional.

    - ``erase_player(erasure)``: inside the erasure's transaction, before the
      profile row is deleted: remove the player from what the app runs, delete
      the app's rows about them that would not cascade, and replace their
      nickname and id in JSON (``erasure.scrub``).
    - ``export_player(player) -> {section: rows}``: the app's part of the
      profile download (a section ``other`` is merged into the generic
      ``other``); ``exported_relations`` maps each foreign key to the profile
      those sections cover (``"app.Model.field"``) to its section, and the
      generic relation walk skips it.
    - ``apply_retention(now) -> {kind: count}``: delete (or strip) what is kept
      longer than ``settings.RETENTION`` says; idempotent, batched, one
      transaction per batch; ``retention_kinds`` lists the kinds it counts.
    - ``export_account(user) -> {section: rows}``, ``account_fates(user) ->
      list``, ``delete_account(user)``: a teacher's account, its export, the
      warning before its deletion and the deletion (one transaction).
    - ``publication_blocked(player) -> bool``: True when the app keeps the
      player off every public table.
    - ``exported_account_relations``: like ``exported_relations``, for the
      foreign keys to the teacher's ``User`` that ``export_account`` covers
      (the generic walk of ``accounts.teacher_data`` skips them).
    - ``erase_player_last(erasure)``: like ``erase_player``, after every app's
      ``erase_player`` ran (taking a player out of a running game may still
      write their result; the shared results are scrubbed after that).
    - ``player_stats(player, today) -> dict``: the app's part of the player's
      profile statistics (``accounts.selectors.player_stats`` merges them).
    - ``reset_stats(player) -> int``: detach what the player's statistics are
      made of, so they start from zero; the number of rows detached.
    """

    app: str
    erase_player: Callable[[Erasure], None] | None = None
    export_player: (
        Callable[[PlayerProfile], Mapping[str, list[Any] | dict[str, list[Any]]]] | None
    ) = None
    exported_relations: Mapping[str, str] = field(default_factory=dict)
    apply_retention: Callable[[datetime], dict[str, int]] | None = None
    retention_kinds: tuple[str, ...] = ()
    export_account: Callable[[User], dict[str, Any]] | None = None
    account_fates: Callable[[User], list] | None = None
    delete_account: Callable[[User], None] | None = None
    publication_blocked: Callable[[PlayerProfile], bool] | None = None
    exported_account_relations: Mapping[str, str] = field(default_factory=dict)
    erase_player_last: Callable[[Erasure], None] | None = None
    player_stats: Callable[[PlayerProfile, date | None], dict[str, Any]] | None = None
    reset_stats: Callable[[PlayerProfile], int] | None = None


_HOOKS: dict[str, PrivacyHooks] = {}
_PLACES: dict[str, Places] = {}


def register(hooks: PrivacyHooks) -> None:
    """Add an app's hooks (from its ``AppConfig.ready``); registering again replaces them."""
    _HOOKS[hooks.app] = hooks


def unregister(app: str) -> None:
    """Remove an app's hooks (tests that add a probe clean up with this)."""
    _HOOKS.pop(app, None)


def registered() -> list[PrivacyHooks]:
    return list(_HOOKS.values())


def register_places(game: str, where: Places) -> None:
    """Where a game's JSON holds players (its rooms, results, records); see :class:`Places`."""
    _PLACES[game] = where


def places_of(game: str) -> Places:
    """The places of ``game``, with those every room and result share (the ``""`` entry)."""
    return _PLACES.get("", Places()) | _PLACES.get(game, Places())


def publication_blocked(player: PlayerProfile) -> bool:
    return any(
        hooks.publication_blocked(player)
        for hooks in _HOOKS.values()
        if hooks.publication_blocked is not None
    )
