"""Resolving effects: the queue of operations, choices, piles, boredom, proofs.

Every effect of every card is a list of operations (``{"op": ..., ...}``) taken from
the catalogue. Playing a card, using a tool or ending a turn puts operations on
``state.queue``; :func:`resolve` runs them front first. An operation that needs a
choice with two or more options parks itself in ``state.decision`` and the game
waits for a ``choose`` action; with exactly one option it is taken, with none the
operation does nothing. After every operation the state-based checks run: players
whose boredom reached their patience lose, theorems whose progress reached their
difficulty are proven (and their ■ operations are queued in front).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from . import derived
from .catalogue import CATALOGUE
from .state import FINISHED, RUNNING, Decision, GameState, PlayerState, TheoremInPlay

# returned by an operation that is waiting for a decision
WAIT = object()


def log(state: GameState, kind: str, **data: Any) -> None:
    state.log.append({"type": kind, **data})


def rng(state: GameState) -> random.Random:
    """A fresh generator per random event, derived from the seed and a counter,
    so the state stays small and JSON-serialisable and replays are exact."""
    state.rng_counter += 1
    return random.Random(f"{state.seed}:{state.rng_counter}")


def task(op: dict[str, Any], player: int, source: str | None) -> dict[str, Any]:
    return {**op, "player": player, "source": source}


def tasks_of(card: str, trigger: str, player: int) -> list[dict[str, Any]]:
    return [task(op, player, card) for op in CATALOGUE[card].ops(trigger)]


def turn_order(state: GameState) -> list[int]:
    count = len(state.players)
    return [(state.current + offset) % count for offset in range(count)]


# --- game end -------------------------------------------------------------------


def finish(state: GameState, winners: list[int]) -> None:
    state.status = FINISHED
    state.winners = winners
    state.queue.clear()
    state.decision = None
    log(state, "game_over", winners=winners)


def check_losses(state: GameState) -> None:
    """Everyone at or above their patience loses at once; the last one left wins."""
    if state.status != RUNNING:
        return
    losers = [
        seat
        for seat, player in enumerate(state.players)
        if not player.lost and player.boredom >= derived.patience(state, seat)
    ]
    if losers:
        eliminate(state, losers, "lost")


def eliminate(state: GameState, seats: list[int], kind: str) -> None:
    """Take ``seats`` out of the game (logged as ``kind``): events they were resolving
    go to their discard pile, their pending operations and choice are dropped, and
    the last one left wins."""
    for seat in seats:
        player = state.players[seat]
        player.lost = True
        player.discard_pile.extend(player.resolving)
        player.resolving.clear()
        log(state, kind, player=seat)
    state.queue = [t for t in state.queue if t["player"] not in seats]
    if state.decision is not None and state.decision.player in seats:
        state.decision = None
    alive = [seat for seat, player in enumerate(state.players) if not player.lost]
    if len(alive) <= 1:
        finish(state, alive)


def change_boredom(state: GameState, seats: list[int], amount: int) -> None:
    for seat in seats:
        player = state.players[seat]
        player.boredom = max(0, player.boredom + amount)
        log(state, "boredom", player=seat, amount=amount, boredom=player.boredom)
    check_losses(state)


# --- piles ------------------------------------------------------------------------


def shuffle(state: GameState, pile: list[str]) -> None:
    rng(state).shuffle(pile)


def reshuffle(state: GameState, seat: int) -> None:
    """The discard pile becomes the draw pile; the n-th time costs +n Nuda."""
    player = state.players[seat]
    player.draw_pile = player.discard_pile
    player.discard_pile = []
    shuffle(state, player.draw_pile)
    player.reshuffles += 1
    log(state, "reshuffle", player=seat, count=player.reshuffles)
    change_boredom(state, [seat], player.reshuffles)


def ensure_draw_pile(state: GameState, seat: int) -> bool:
    """Reshuffle if the draw pile is empty; False when both piles are empty."""
    player = state.players[seat]
    if not player.draw_pile and player.discard_pile:
        reshuffle(state, seat)
    return bool(player.draw_pile)


def take_top(state: GameState, seat: int) -> str | None:
    """The top card of the draw pile, or None if there is none or the reshuffle
    needed to get it bored the player out of the game."""
    if not ensure_draw_pile(state, seat) or state.players[seat].lost:
        return None
    return state.players[seat].draw_pile.pop()


def draw_cards(state: GameState, seat: int, count: int) -> int:
    player = state.players[seat]
    drawn = 0
    for _ in range(count):
        card = take_top(state, seat)
        if card is None:
            break
        player.hand.append(card)
        drawn += 1
    log(state, "draw", player=seat, count=drawn)
    return drawn


# --- proofs ------------------------------------------------------------------------


def check_proofs(state: GameState) -> None:
    """Prove every theorem whose progress reached its (current) difficulty.

    Repeats until nothing changes, because a proof can lower other difficulties
    (Lagrangeova věta) or flip a condition (Věta o střední hodnotě). ■ operations
    of the proofs found are queued in front, in the order the proofs happened.
    """
    proven_tasks: list[dict[str, Any]] = []
    changed = True
    while changed and state.status == RUNNING:
        changed = False
        for seat in turn_order(state):
            player = state.players[seat]
            if player.lost:
                continue
            for entry in player.theorems:
                if entry.progress >= derived.difficulty(state, seat, entry):
                    player.theorems.remove(entry)
                    player.proven.append(entry.card)
                    log(state, "proven", player=seat, card=entry.card)
                    proven_tasks += tasks_of(entry.card, "proven", seat)
                    changed = True
                    break
    state.queue[:0] = proven_tasks


def add_progress(state: GameState, seat: int, entry: TheoremInPlay, amount: int) -> None:
    entry.progress += amount
    log(state, "progress", player=seat, card=entry.card, amount=amount, progress=entry.progress)


# --- choices --------------------------------------------------------------------------


def choose(state: GameState, current: dict[str, Any], kind: str, options: list[Any]) -> Any:
    """The option to act on, ``None`` if there is none, or ``WAIT`` for the player."""
    if "choice" in current:
        return current["choice"]
    if not options:
        log(state, "no_target", player=current["player"], card=current["source"])
        return None
    if len(options) == 1:
        return options[0]
    state.decision = Decision(
        player=current["player"], kind=kind, options=options, task=current, source=current["source"]
    )
    return WAIT


def own_theorem_options(player: PlayerState, field: str | None = None) -> list[str]:
    return [
        entry.card
        for entry in player.theorems
        if field is None or field in CATALOGUE[entry.card].fields
    ]


# --- operations ----------------------------------------------------------------------


def op_draw(state: GameState, t: dict[str, Any]) -> None:
    draw_cards(state, t["player"], t["amount"])


def op_boredom(state: GameState, t: dict[str, Any]) -> None:
    target = t.get("target", "self")
    if target == "self":
        change_boredom(state, [t["player"]], t["amount"])
    elif target == "all_opponents":
        change_boredom(state, derived.alive_opponents(state, t["player"]), t["amount"])
    else:
        seat = choose(state, t, "opponent", derived.alive_opponents(state, t["player"]))
        if seat is not None and seat is not WAIT:
            change_boredom(state, [seat], t["amount"])


def op_actions(state: GameState, t: dict[str, Any]) -> None:
    # "actions this turn": a player proving something outside their own turn gains nothing
    if t["player"] == state.current:
        state.actions_left = max(0, state.actions_left + t["amount"])
        log(state, "actions", player=t["player"], amount=t["amount"], left=state.actions_left)


def op_patience(state: GameState, t: dict[str, Any]) -> None:
    state.players[t["player"]].patience_bonus += t["amount"]
    log(state, "patience", player=t["player"], amount=t["amount"])
    check_losses(state)


def op_ambition(state: GameState, t: dict[str, Any]) -> None:
    state.players[t["player"]].ambition_bonus += t["amount"]
    log(state, "ambition", player=t["player"], amount=t["amount"])


def op_progress(state: GameState, t: dict[str, Any]) -> None:
    player = state.players[t["player"]]
    if t["target"] == "all_own_theorems":
        for entry in player.theorems:
            add_progress(state, t["player"], entry, t["amount"])
        return
    card = choose(state, t, "own_theorem", own_theorem_options(player, t.get("field")))
    if card is not None and card is not WAIT:
        entry = player.theorem(card)
        assert entry is not None
        add_progress(state, t["player"], entry, t["amount"])


def op_difficulty(state: GameState, t: dict[str, Any]) -> None:
    seat = t["player"]
    if t["target"] == "own_theorem":
        card = choose(state, t, "own_theorem", own_theorem_options(state.players[seat]))
        target = None if card is None or card is WAIT else (seat, card)
    else:
        options = [
            {"player": other, "card": card}
            for other in derived.alive_opponents(state, seat)
            for card in own_theorem_options(state.players[other])
        ]
        choice = choose(state, t, "opponent_theorem", options)
        target = None if choice is None or choice is WAIT else (choice["player"], choice["card"])
    if target is not None:
        entry = state.players[target[0]].theorem(target[1])
        assert entry is not None
        entry.difficulty_delta += t["amount"]
        log(state, "difficulty", player=target[0], card=target[1], amount=t["amount"])


def op_discard_from_hand(state: GameState, t: dict[str, Any]) -> None:
    player = state.players[t["player"]]
    card = choose(state, t, "hand_card", sorted(set(player.hand)))
    if card is not None and card is not WAIT:
        player.hand.remove(card)
        player.discard_pile.append(card)
        log(state, "discard", player=t["player"], card=card)


def op_steal(state: GameState, t: dict[str, Any]) -> None:
    """Ukradnutá myšlenka: a random card of a chosen opponent's hand becomes yours;
    an event is resolved at once as yours and then goes to your discard pile."""
    seat = t["player"]
    victim = choose(state, t, "opponent", derived.alive_opponents(state, seat))
    if victim is None or victim is WAIT:
        return
    hand = state.players[victim].hand
    if not hand:
        log(state, "steal", player=seat, victim=victim, card=None)
        return
    card = hand.pop(rng(state).randrange(len(hand)))
    thief = state.players[seat]
    if CATALOGUE[card].kind == "event":
        log(state, "steal", player=seat, victim=victim, card=card)
        thief.resolving.append(card)
        state.queue[:0] = [*tasks_of(card, "on_play", seat), finish_event_task(card, seat)]
    else:
        # which card it was stays between thief and victim
        log(state, "steal", player=seat, victim=victim, card=None)
        thief.hand.append(card)


def last_other_event(state: GameState) -> str | None:
    return next((e for e in reversed(state.events_played) if not is_repeat(e)), None)


def is_repeat(card: str) -> bool:
    return any(op["op"] == "repeat" for op in CATALOGUE[card].ops("on_play"))


def op_repeat(state: GameState, t: dict[str, Any]) -> None:
    """Rekurze: the effect of the last other event played this turn, once more."""
    event = last_other_event(state)
    if event is None:
        log(state, "no_target", player=t["player"], card=t["source"])
        return
    log(state, "repeat", player=t["player"], card=event)
    state.queue[:0] = tasks_of(event, "on_play", t["player"])


def op_fetch(state: GameState, t: dict[str, Any]) -> None:
    """Take a chosen card from your draw pile (Banach; then shuffle it) or from
    your discard pile (Knihovna) into your hand."""
    seat = t["player"]
    player = state.players[seat]
    from_draw_pile = t["from"] == "draw_pile"
    if from_draw_pile and "choice" not in t:
        ensure_draw_pile(state, seat)
        if player.lost or state.status != RUNNING:
            return
    pile = player.draw_pile if from_draw_pile else player.discard_pile
    kind = "draw_pile_card" if from_draw_pile else "discard_pile_card"
    card = choose(state, t, kind, sorted(set(pile)))
    if card is None or card is WAIT:
        return
    pile.remove(card)
    player.hand.append(card)
    if from_draw_pile:
        shuffle(state, pile)
        log(state, "fetch", player=seat, pile=t["from"], card=None)
    else:
        log(state, "fetch", player=seat, pile=t["from"], card=card)


def op_free_reshuffle(state: GameState, t: dict[str, Any]) -> None:
    """Kruhová inverze: discard pile into draw pile, no Nuda, not counted."""
    player = state.players[t["player"]]
    player.draw_pile += player.discard_pile
    player.discard_pile = []
    shuffle(state, player.draw_pile)
    log(state, "free_reshuffle", player=t["player"])


# --- internal operations: the end of an event and of a turn -----------------------------


def finish_event_task(card: str, seat: int) -> dict[str, Any]:
    return task({"op": "finish_event", "card": card}, seat, card)


def op_finish_event(state: GameState, t: dict[str, Any]) -> None:
    player = state.players[t["player"]]
    player.resolving.remove(t["card"])
    player.discard_pile.append(t["card"])


def op_burn(state: GameState, t: dict[str, Any]) -> None:
    seat = t["player"]
    card = take_top(state, seat)
    if card is not None:
        state.players[seat].discard_pile.append(card)
        log(state, "burn", player=seat, card=card)


def op_check_win(state: GameState, t: dict[str, Any]) -> None:
    seat = t["player"]
    if len(state.players[seat].proven) >= derived.ambition(state, seat):
        finish(state, [seat])


def op_next_turn(state: GameState, t: dict[str, Any]) -> None:
    start_next_turn(state)


def start_next_turn(state: GameState) -> None:
    count = len(state.players)
    seat = state.current
    for _ in range(count):
        seat = (seat + 1) % count
        if not state.players[seat].lost:
            break
    state.current = seat
    state.turn_number += 1
    state.actions_left = derived.ACTIONS_PER_TURN
    state.free_definition = True
    state.proved_this_turn = []
    state.tools_used = []
    state.events_played = []
    log(state, "turn", player=seat, turn=state.turn_number)


OPERATIONS: dict[str, Callable[[GameState, dict[str, Any]], None]] = {
    "draw": op_draw,
    "boredom": op_boredom,
    "actions": op_actions,
    "patience": op_patience,
    "ambition": op_ambition,
    "progress": op_progress,
    "difficulty": op_difficulty,
    "discard_from_hand": op_discard_from_hand,
    "steal": op_steal,
    "repeat": op_repeat,
    "fetch": op_fetch,
    "free_reshuffle": op_free_reshuffle,
    "finish_event": op_finish_event,
    "burn": op_burn,
    "check_win": op_check_win,
    "next_turn": op_next_turn,
}


def resolve(state: GameState) -> None:
    """Run queued operations until the queue is empty or a choice is needed."""
    while state.status == RUNNING:
        check_losses(state)
        check_proofs(state)
        if state.status != RUNNING or state.decision is not None or not state.queue:
            break
        current = state.queue.pop(0)
        OPERATIONS[current["op"]](state, current)
    if (
        state.status == RUNNING
        and state.decision is None
        and not state.queue
        and state.players[state.current].lost
    ):
        start_next_turn(state)
