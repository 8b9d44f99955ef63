"""The planning robot: it works toward the theorems it can finish soonest.

Every decision it tries each legal action on a copy of the game in which the
cards it cannot see are shuffled (its own draw pile in a random order, the
opponents' hands and draw piles set aside, a fresh seed), looks one action
further along its own turn for the most promising ones, and values what it
reaches with a *proof plan*:

- the theorems it still needs (ambition minus proven) are taken from those in
  play (what is left to prove) and in hand (their difficulty for this
  mathematician, plus the action to play them), cheapest first;
- a plan takes at least as many turns as its longest proof (one Prove per
  theorem a turn) and at least its total work divided by the actions a turn
  gives; tools in play and progress events in hand shorten it;
- patience is a budget: the robot loses when boredom reaches it, so the last
  tokens of margin cost more and more, and a draw pile about to run out is a
  reshuffle (more boredom) waiting to happen;
- actions left this turn are worth what they can still do, opponents' plans
  being slow is worth something too.

It never looks at cards it could not see at a real table: the order of its
draw pile, other hands and draw piles, or the seed. Pure and deterministic for
a given ``rng``.
"""

from __future__ import annotations

import math
import random

from . import derived
from .catalogue import CATALOGUE
from .engine import Action, apply, legal_actions
from .state import FINISHED, GameState, TheoremInPlay

WIN = 10_000.0
TURN = 10.0  # one turn of a proof plan, in value points
UNKNOWN_THEOREM = 5.0  # work for a theorem not yet in hand (draw it, play it, prove it)
BEAM = 12  # actions looked one step further (in practice every one)
DRAW_SAMPLES = 6  # shuffles tried for an action that reveals a hidden card
# Weights of the value (see docs/rules/theorems.md, "The planning robot").
BOREDOM_MARGIN = 12.0  # / (patience - boredom)
BOREDOM_TOKEN = 1.5
RESHUFFLE = 4.0
PROVEN = 2.0
HAND_CARD = 0.6
OPPONENT_PLAN = 0.4  # of a turn, per turn the closest opponent still needs

_PROGRESS_EVENTS = {"eureka": 2.0, "calculator": 1.5}
_RANDOM_ACTIONS = frozenset({"draw", "end_turn"})


def _hidden_shuffled(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy in which nothing the robot cannot see is what it really is."""
    sim = state.copy(keep_log=False)  # the public log is not needed
    sim.seed = rng.getrandbits(48)
    pile = sim.players[seat].draw_pile
    pile.sort()  # from what it holds, not the order it lies in
    rng.shuffle(pile)
    for other, player in enumerate(sim.players):
        if other != seat:
            player.hand = []
            player.draw_pile = []
    return sim


def _difficulty_in_hand(state: GameState, seat: int, card: str) -> int:
    return derived.difficulty(state, seat, TheoremInPlay(card))


def _plan_turns(state: GameState, seat: int) -> float:
    """How many turns the robot's proof plan still needs (0 when ambition is met).

    A quick model of the turns ahead, turn by turn: each turn has its actions
    (the rest of this one, then three), each theorem in play takes at most one
    Prove a turn, theorems in hand cost an action to play, tools in play give
    +2 once a turn and progress events in hand once. Theorems it does not hold
    yet cost a draw and a typical difficulty. The plan works on the cheapest
    theorems first; the answer is whole turns plus the share of the last one.
    """
    player = state.players[seat]
    need = derived.ambition(state, seat) - len(player.proven)
    if need <= 0:
        return 0.0
    on_turn = state.current == seat
    # [work left, proved this turn] per theorem in play; unknown ones add floats.
    in_play: list[list[float | bool]] = sorted(
        [
            max(1, derived.difficulty(state, seat, entry) - entry.progress),
            on_turn and entry.card in state.proved_this_turn,
        ]
        for entry in player.theorems
        if not derived.follows_riemann_rule(entry.card)
    )
    hand: list[float] = sorted(
        _difficulty_in_hand(state, seat, card)
        for card in player.hand
        if CATALOGUE[card].kind == "theorem" and player.theorem(card) is None
    )
    unknown = max(0, need - len(in_play) - len(hand))
    hand += [UNKNOWN_THEOREM] * unknown
    draws = unknown  # each unknown theorem must be drawn first
    tools = sum(1 for tool in player.tools if _progress_tool(tool))
    tools_used = sum(1 for tool in state.tools_used if _progress_tool(tool)) if on_turn else 0
    events = sorted((_PROGRESS_EVENTS.get(card, 0.0) for card in player.hand), reverse=True)
    events = [amount for amount in events if amount]
    # Off turn, the robot's next turn comes after the others' (one turn away).
    actions = state.actions_left if on_turn else derived.ACTIONS_PER_TURN
    turns = 0 if on_turn else 1
    done = 0
    while done < need and turns < 20:
        left = actions
        tool_left = tools - tools_used
        while left > 0 and done < need:
            left -= 1
            targets = need - done
            fresh = [t for t in in_play[:targets] if not t[1]]
            closing = next((t for t in fresh if t[0] <= 1), None)
            if closing is not None:
                in_play.remove(closing)
                done += 1
            elif len(in_play) < targets and draws and not hand[: len(hand) - draws]:
                draws -= 1
            elif len(in_play) < targets and hand:
                in_play.append([hand.pop(0), False])
                in_play.sort()
            elif fresh:
                fresh[0][0] -= 1
                fresh[0][1] = True
            elif in_play and tool_left > 0:
                tool_left -= 1
                in_play[0][0] -= 2
            elif in_play and events:
                in_play[0][0] -= int(events.pop(0))
            else:
                left += 1
                break
            for theorem in [t for t in in_play if t[0] <= 0]:
                in_play.remove(theorem)
                done += 1
        if done >= need:
            return turns + (actions - left) / derived.ACTIONS_PER_TURN
        turns += 1
        actions = derived.ACTIONS_PER_TURN
        tools_used = 0
        for theorem in in_play:
            theorem[1] = False
    return float(turns)


def _progress_tool(card: str) -> bool:
    return any(
        op["op"] == "progress"
        for effect in CATALOGUE[card].effects_for("on_use")
        for op in effect["ops"]
    )


def _boredom_cost(state: GameState, seat: int) -> float:
    """Patience as a budget: the last tokens before losing cost the most."""
    player = state.players[seat]
    margin = max(1, derived.patience(state, seat) - player.boredom)
    cost = BOREDOM_MARGIN / margin + BOREDOM_TOKEN * player.boredom
    if not player.draw_pile:
        cost += RESHUFFLE * (player.reshuffles + 1) / max(1, margin - player.reshuffles - 1)
    return cost


def value(state: GameState, seat: int) -> float:
    """How good ``state`` is for ``seat``: higher is better."""
    if state.status == FINISHED:
        if seat in state.winners:
            return WIN
        return -WIN if state.winners or state.players[seat].lost else 0.0
    player = state.players[seat]
    if player.lost:
        return -WIN
    score = -TURN * _plan_turns(state, seat) - _boredom_cost(state, seat)
    score += PROVEN * len(player.proven)
    score += HAND_CARD * min(len(player.hand), 6)
    if player.definition is not None:
        score += 1.0
    if state.current == seat and state.status != FINISHED:
        score += 0.5 * state.actions_left
    opponents = derived.alive_opponents(state, seat)
    if opponents:
        score += OPPONENT_PLAN * TURN * min(_plan_turns(state, o) for o in opponents)
        score += sum(
            3.0 / max(1, derived.patience(state, o) - state.players[o].boredom) for o in opponents
        )
    return score


def _after(state: GameState, action: Action, seat: int, rng: random.Random) -> list[GameState]:
    samples = DRAW_SAMPLES if action["type"] in _RANDOM_ACTIONS else 1
    out = []
    for _ in range(samples):
        sim = _hidden_shuffled(state, seat, rng)
        out.append(apply(sim, action))
    return out


def _mean_value(states: list[GameState], seat: int) -> float:
    return sum(value(s, seat) for s in states) / len(states)


def _best_follow_up(state: GameState, seat: int) -> float:
    """The best value one more own action reaches (no sampling: a quick look)."""
    if state.to_act != seat:
        return -math.inf
    best = -math.inf
    for action in legal_actions(state):
        if action["type"] in _RANDOM_ACTIONS:
            continue
        best = max(best, value(apply(state, action), seat))
    return best


def plan_action(state: GameState, rng: random.Random) -> Action:
    """The planning robot's action for the player to act (``state.to_act``)."""
    actions = legal_actions(state)
    if not actions:
        raise ValueError("no legal action: the game has finished")
    if len(actions) == 1:
        return actions[0]
    seat = state.to_act
    assert seat is not None
    scored: list[tuple[float, int, Action, list[GameState]]] = []
    for index, action in enumerate(actions):
        after = _after(state, action, seat, rng)
        scored.append((_mean_value(after, seat), index, action, after))
    scored.sort(key=lambda item: (-item[0], item[1]))
    best_value, best_action = scored[0][0], scored[0][2]
    for score, _index, action, after in scored[:BEAM]:
        if action["type"] in _RANDOM_ACTIONS:
            continue
        ahead = max(score, _best_follow_up(after[0], seat))
        if ahead > best_value:
            best_value, best_action = ahead, action
    return best_action
