"""The public rules API: ``new_game``, ``legal_actions``, ``apply``, ``view``.

Actions are plain dicts, all carrying the acting ``player`` seat:

- ``{"type": "define", "player": p, "card": id}``  free Definice at the start of a turn
- ``{"type": "draw", "player": p}``                 the Draw action (Braní karet)
- ``{"type": "play", "player": p, "card": id}``     the Play action (Hraní)
- ``{"type": "prove", "player": p, "card": id}``    the Prove action (Dokazování)
- ``{"type": "use", "player": p, "card": id}``      the Use-a-tool action
- ``{"type": "end_turn", "player": p}``
- ``{"type": "choose", "player": p, "choice": x}``  answer to ``state.decision``

Every check lives in one ``_check_*`` function; ``legal_actions`` is the list of
candidates that pass them, and ``apply`` runs the same checks, so the two agree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from . import derived
from .catalogue import CATALOGUE
from .effects import (
    eliminate,
    finish,
    finish_event_task,
    is_repeat,
    last_other_event,
    log,
    resolve,
    rng,
    shuffle,
    tasks_of,
)
from .effects import task as make_task
from .errors import IllegalMove
from .state import RUNNING, GameState, PlayerState, TheoremInPlay

MIN_PLAYERS, MAX_PLAYERS = 2, 4
MIN_DECK, MAX_DECK = 10, 20
STARTING_HAND = 4
FIRST_TURN_ACTIONS = 2

Action = dict[str, Any]

# the keys each action type must carry (besides "type" and "player"), nothing more
_ACTION_KEYS: dict[str, tuple[str, ...]] = {
    "define": ("card",),
    "draw": (),
    "play": ("card",),
    "prove": ("card",),
    "use": ("card",),
    "end_turn": (),
    "choose": ("choice",),
}


# --- setup -------------------------------------------------------------------------


def validate_deck(mathematician: Any, deck: Any) -> None:
    """Raise ``IllegalMove`` unless this is a legal mathematician + draw deck."""
    if not isinstance(mathematician, str) or not isinstance(deck, list | tuple):
        raise IllegalMove("malformed_deck", "a mathematician id and a list of card ids")
    if mathematician not in CATALOGUE or CATALOGUE[mathematician].kind != "mathematician":
        raise IllegalMove("not_a_mathematician", f"{mathematician!r} is not a mathematician")
    for card in deck:
        if not isinstance(card, str) or card not in CATALOGUE:
            raise IllegalMove("unknown_card", f"no card {card!r} in the catalogue")
        if CATALOGUE[card].kind == "mathematician":
            raise IllegalMove("mathematician_in_deck", f"{card} is a mathematician")
    if len(set(deck)) != len(deck):
        raise IllegalMove("duplicate_card", "no card may be in a deck more than once")
    if len(deck) < MIN_DECK:
        raise IllegalMove("deck_too_small", f"a deck has at least {MIN_DECK} cards")
    if len(deck) > MAX_DECK:
        raise IllegalMove("deck_too_large", f"a deck has at most {MAX_DECK} cards")


def new_game(players: list[Mapping[str, Any]], seed: int, *, burn: bool = True) -> GameState:
    """Shuffle every deck, deal 4 cards each, pick the start player at random.

    ``burn=False`` is the seed's small-deck variant (no burning at the end of a turn).
    """
    if not isinstance(players, list | tuple) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalMove("invalid_players", f"{MIN_PLAYERS}–{MAX_PLAYERS} players")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise IllegalMove("malformed_seed", "the seed is an integer")
    for entry in players:
        if not isinstance(entry, Mapping):
            raise IllegalMove("malformed_deck", "each player is a mapping")
        validate_deck(entry.get("mathematician"), entry.get("deck"))
    state = GameState(
        players=[PlayerState(mathematician=p["mathematician"]) for p in players],
        seed=seed,
        current=0,
        start_player=0,
        burn=burn,
    )
    for player, entry in zip(state.players, players, strict=True):
        player.draw_pile = list(entry["deck"])
        shuffle(state, player.draw_pile)
        player.hand = [player.draw_pile.pop() for _ in range(STARTING_HAND)]
    state.start_player = state.current = rng(state).randrange(len(players))
    state.actions_left = FIRST_TURN_ACTIONS
    log(state, "turn", player=state.current, turn=1)
    return state


# --- checks ------------------------------------------------------------------------


def _check_shape(action: Any) -> None:
    if not isinstance(action, Mapping):
        raise IllegalMove("malformed_action", "an action is a mapping")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _ACTION_KEYS:  # a dict is not hashable
        raise IllegalMove("unknown_action", f"no action type {kind!r}")
    if set(action) != {"type", "player", *_ACTION_KEYS[kind]}:
        raise IllegalMove("malformed_action", f"{kind} takes {_ACTION_KEYS[kind]}")
    player = action["player"]
    if not isinstance(player, int) or isinstance(player, bool):
        raise IllegalMove("malformed_action", "player is a seat number")
    if "card" in action and not isinstance(action["card"], str):
        raise IllegalMove("malformed_action", "card is a card id")


def _check_turn(state: GameState, action: Mapping[str, Any]) -> PlayerState:
    if state.status != RUNNING:
        raise IllegalMove("game_over", "the game has finished")
    if action["type"] == "choose":
        if state.decision is None:
            raise IllegalMove("no_decision", "nothing to choose now")
        if action["player"] != state.decision.player:
            raise IllegalMove("not_your_turn", "another player is choosing")
    else:
        if state.decision is not None:
            raise IllegalMove("decision_pending", "a choice must be made first")
        if action["player"] != state.current:
            raise IllegalMove("not_your_turn", "it is another player's turn")
    player: PlayerState = state.players[action["player"]]
    return player


def _require_action_left(state: GameState) -> None:
    if state.actions_left < 1:
        raise IllegalMove("no_actions_left", "no actions left this turn")


def _require_in_hand(player: PlayerState, card: str) -> None:
    if card not in player.hand:
        raise IllegalMove("card_not_in_hand", f"{card} is not in your hand")


def _check_define(state: GameState, player: PlayerState, action: Mapping[str, Any]) -> None:
    if not state.free_definition:
        raise IllegalMove("definition_phase_over", "a free Definice only at the start of a turn")
    _require_in_hand(player, action["card"])
    if CATALOGUE[action["card"]].kind != "definition":
        raise IllegalMove("not_a_definition", "only a Definice can be laid for free")
    if player.definition == action["card"]:
        raise IllegalMove("already_in_play", "this Definice is already in play")


def _check_draw(state: GameState, player: PlayerState, action: Mapping[str, Any]) -> None:
    _require_action_left(state)
    if len(player.hand) >= derived.hand_limit(state, action["player"]):
        raise IllegalMove("hand_limit", "no Draw action with a full hand")
    if not player.draw_pile and not player.discard_pile:
        raise IllegalMove("nothing_to_draw", "both your piles are empty")


def _check_play(state: GameState, player: PlayerState, action: Mapping[str, Any]) -> None:
    _require_action_left(state)
    card = action["card"]
    _require_in_hand(player, card)
    kind = CATALOGUE[card].kind
    if kind == "event":
        if is_repeat(card) and last_other_event(state) is None:
            raise IllegalMove("nothing_to_repeat", "no other event was played this turn")
    elif kind == "theorem":
        if player.theorem(card) is not None or card in player.proven:
            raise IllegalMove("already_in_play", "you already have this theorem")
    elif kind == "tool":
        if card in player.tools:
            raise IllegalMove("already_in_play", "you already have this tool in play")
    elif player.definition == card:
        raise IllegalMove("already_in_play", "this Definice is already in play")


def _check_prove(state: GameState, player: PlayerState, action: Mapping[str, Any]) -> None:
    _require_action_left(state)
    card = action["card"]
    if player.theorem(card) is None:
        raise IllegalMove("theorem_not_in_play", f"{card} is not one of your theorems in play")
    if derived.follows_riemann_rule(card):
        raise IllegalMove("not_provable", "this theorem cannot be the target of Prove")
    if card in state.proved_this_turn:
        raise IllegalMove("already_proved_this_turn", "each theorem once per turn")


def _check_use(state: GameState, player: PlayerState, action: Mapping[str, Any]) -> None:
    _require_action_left(state)
    card = action["card"]
    if card not in player.tools:
        raise IllegalMove("tool_not_in_play", f"{card} is not one of your tools in play")
    if card in state.tools_used:
        raise IllegalMove("tool_already_used", "each tool once per turn")
    costs = [op["op"] for op in _tool_effect(card)["cost"]]
    if "discard_from_hand" in costs and not player.hand:
        raise IllegalMove("cost_not_payable", "you have no card to discard")


def _check_end_turn(state: GameState, player: PlayerState, action: Mapping[str, Any]) -> None:
    """Ending the turn is always allowed once no choice is pending (checked before)."""


def _check_choose(state: GameState, player: PlayerState, action: Mapping[str, Any]) -> None:
    assert state.decision is not None
    choice = action["choice"]
    if not any(type(choice) is type(o) and choice == o for o in state.decision.options):
        raise IllegalMove("invalid_choice", "not one of the options")


# --- effects of actions ----------------------------------------------------------------


def _tool_effect(card: str) -> Mapping[str, Any]:
    return CATALOGUE[card].effects_for("on_use")[0]


def _spend_action(state: GameState) -> None:
    state.actions_left -= 1
    state.free_definition = False


def _lay_definition(player: PlayerState, card: str) -> None:
    if player.definition is not None:
        player.discard_pile.append(player.definition)
    player.definition = card


def _do_define(state: GameState, player: PlayerState, action: Mapping[str, Any]) -> None:
    state.free_definition = False
    player.hand.remove(action["card"])
    _lay_definition(player, action["card"])
    log(state, "define", player=action["player"], card=action["card"])


def _do_draw(state: GameState, player: PlayerState, action: Mapping[str, Any]) -> None:
    _spend_action(state)
    state.queue.append(make_task({"op": "draw", "amount": 1}, action["player"], None))


def _do_play(state: GameState, player: PlayerState, action: Mapping[str, Any]) -> None:
    _spend_action(state)
    seat, card = action["player"], action["card"]
    player.hand.remove(card)
    log(state, "play", player=seat, card=card)
    kind = CATALOGUE[card].kind
    if kind == "event":
        state.events_played.append(card)
        player.resolving.append(card)
        state.queue += [*tasks_of(card, "on_play", seat), finish_event_task(card, seat)]
        return
    if kind == "theorem":
        player.theorems.append(TheoremInPlay(card=card))
    elif kind == "tool":
        player.tools.append(card)
    else:
        _lay_definition(player, card)
    state.queue += tasks_of(card, "on_play", seat)


def _do_prove(state: GameState, player: PlayerState, action: Mapping[str, Any]) -> None:
    _spend_action(state)
    seat, card = action["player"], action["card"]
    state.proved_this_turn.append(card)
    log(state, "prove", player=seat, card=card)
    for entry in player.theorems:
        if entry.card == card or derived.follows_riemann_rule(entry.card):
            entry.progress += 1
            log(state, "progress", player=seat, card=entry.card, amount=1, progress=entry.progress)


def _do_use(state: GameState, player: PlayerState, action: Mapping[str, Any]) -> None:
    _spend_action(state)
    seat, card = action["player"], action["card"]
    state.tools_used.append(card)
    log(state, "use", player=seat, card=card)
    effect = _tool_effect(card)
    state.queue += [make_task(dict(op), seat, card) for op in [*effect["cost"], *effect["ops"]]]


def _do_end_turn(state: GameState, player: PlayerState, action: Mapping[str, Any]) -> None:
    seat = action["player"]
    log(state, "end_turn", player=seat)
    for card in player.proven:
        state.queue += tasks_of(card, "end_of_turn", seat)
    if state.burn:
        state.queue.append(make_task({"op": "burn"}, seat, None))
    state.queue.append(make_task({"op": "check_win"}, seat, None))
    state.queue.append(make_task({"op": "next_turn"}, seat, None))


def _do_choose(state: GameState, player: PlayerState, action: Mapping[str, Any]) -> None:
    assert state.decision is not None
    resumed = {**state.decision.task, "choice": action["choice"]}
    state.decision = None
    state.queue.insert(0, resumed)


_Handler = Callable[[GameState, PlayerState, Mapping[str, Any]], None]
_RULES: dict[str, tuple[_Handler, _Handler]] = {
    "define": (_check_define, _do_define),
    "draw": (_check_draw, _do_draw),
    "play": (_check_play, _do_play),
    "prove": (_check_prove, _do_prove),
    "use": (_check_use, _do_use),
    "end_turn": (_check_end_turn, _do_end_turn),
    "choose": (_check_choose, _do_choose),
}


def _check(state: GameState, action: Any) -> PlayerState:
    _check_shape(action)
    player = _check_turn(state, action)
    _RULES[action["type"]][0](state, player, action)
    return player


# --- public API --------------------------------------------------------------------------


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``; the input state is left untouched."""
    _check(state, action)
    new = state.copy()
    _RULES[action["type"]][1](new, new.players[action["player"]], action)
    resolve(new)
    return new


def remove_player(state: GameState, seat: int) -> GameState:
    """``seat`` leaves the table for good; the input state is left untouched.

    They are out as if they had lost (logged as ``left``): what they were
    resolving goes to their discard pile, their pending operations and choice
    are dropped, and if it was their turn the next player still in is on turn
    at once. The last player left wins. A seat already out changes nothing.
    """
    if state.status != RUNNING:
        raise IllegalMove("game_over", "the game has finished")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise IllegalMove("malformed_action", "player is a seat number")
    new = state.copy()
    if new.players[seat].lost:
        return new
    eliminate(new, [seat], "left")
    resolve(new)
    return new


def end_game(state: GameState, winners: list[int]) -> GameState:
    """End a running game now with these winners (e.g. only robots are left)."""
    if state.status != RUNNING:
        raise IllegalMove("game_over", "the game has finished")
    new = state.copy()
    finish(new, list(winners))
    return new


def _candidates(state: GameState) -> list[Action]:
    if state.decision is not None:
        seat = state.decision.player
        return [{"type": "choose", "player": seat, "choice": o} for o in state.decision.options]
    seat = state.current
    player = state.players[seat]
    hand = sorted(set(player.hand))
    return [
        *({"type": "define", "player": seat, "card": card} for card in hand),
        {"type": "draw", "player": seat},
        *({"type": "play", "player": seat, "card": card} for card in hand),
        *({"type": "prove", "player": seat, "card": entry.card} for entry in player.theorems),
        *({"type": "use", "player": seat, "card": card} for card in player.tools),
        {"type": "end_turn", "player": seat},
    ]


def is_legal(state: GameState, action: Any) -> bool:
    try:
        _check(state, action)
    except IllegalMove:
        return False
    return True


def legal_actions(state: GameState) -> list[Action]:
    """Everything the player to act may do now, choices and ending the turn included."""
    if state.status != RUNNING:
        return []
    return [action for action in _candidates(state) if is_legal(state, action)]


def _public_player(state: GameState, seat: int, viewer: int | None) -> dict[str, Any]:
    player = state.players[seat]
    data: dict[str, Any] = {
        "seat": seat,
        "mathematician": player.mathematician,
        "boredom": player.boredom,
        "patience": derived.patience(state, seat),
        "ambition": derived.ambition(state, seat),
        "hand_limit": derived.hand_limit(state, seat),
        "hand_count": len(player.hand),
        "draw_pile_count": len(player.draw_pile),
        # the discard pile lies face up; sorted so its order is not given away
        "discard_pile": sorted(player.discard_pile),
        "theorems": [
            {
                "card": entry.card,
                "progress": entry.progress,
                "difficulty": derived.difficulty(state, seat, entry),
                "difficulty_delta": entry.difficulty_delta,
            }
            for entry in player.theorems
        ],
        "tools": list(player.tools),
        "definition": player.definition,
        "proven": list(player.proven),
        "resolving": list(player.resolving),
        "reshuffles": player.reshuffles,
        "lost": player.lost,
    }
    if seat == viewer:
        data["hand"] = sorted(player.hand)
    return data


def view(state: GameState, player: int | None) -> dict[str, Any]:
    """What one seat (or a spectator, ``None``) may see: no other hand, no pile order,
    no seed. The player to act also gets their legal actions."""
    decision = None
    if state.decision is not None:
        decision = {
            "player": state.decision.player,
            "kind": state.decision.kind,
            "source": state.decision.source,
        }
        if state.decision.player == player:
            decision["options"] = state.decision.options
    return {
        "status": state.status,
        "winners": list(state.winners),
        "current": state.current,
        "to_act": state.to_act,
        "start_player": state.start_player,
        "turn_number": state.turn_number,
        "actions_left": state.actions_left,
        "free_definition": state.free_definition,
        "proved_this_turn": list(state.proved_this_turn),
        "tools_used": list(state.tools_used),
        "events_played": list(state.events_played),
        "burn": state.burn,
        "decision": decision,
        "players": [_public_player(state, seat, player) for seat in range(len(state.players))],
        "log": [dict(entry) for entry in state.log],
        "legal_actions": legal_actions(state)
        if player is not None and state.to_act == player
        else [],
    }
