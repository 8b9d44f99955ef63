"""The poker coach: legal, deterministic decisions on every table, jokers used
and kept, the value of a position, and refused input."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.poker.rules import JOKER, TABLE_NAMES, PokerGame, coach_rollout, score_board, seeded_deck
from games.poker.rules.coach import (
    QUICK,
    ROLLOUT,
    STRONG,
    Search,
    choose_cell,
    choose_joker,
    evaluate,
    evaluate_lines,
    line_keys,
)
from games.poker.rules.coach import _remaining as coach_remaining
from games.poker.rules.coach import model_for as coach_model
from games.poker.rules.scoring import LINES, _line_points

JOKER_TABLES = [name for name in TABLE_NAMES if name != "matematico"]


def play(seed: int, table: str) -> PokerGame:
    """A whole game led by the coach through the rules engine, which refuses
    every illegal move."""
    game = PokerGame.new(table=table, deck=seeded_deck(seed, table), now=0.0)
    while not game.over:
        seen = game.sequence[: game.handled]
        if game.kept_jokers:
            decision = choose_joker(game.cells, table=table, seen=seen, kept=game.kept_jokers - 1)
            if decision["action"] == "use":
                game.place_kept_joker(decision["cell"], decision["value"], now=0.0)
                continue
        if game.hand == JOKER:
            decision = choose_joker(game.cells, table=table, seen=seen, kept=game.kept_jokers)
            if decision["action"] == "use":
                game.use_joker(decision["cell"], decision["value"], now=0.0)
            else:
                assert decision == {"action": "keep"}
                game.keep_joker(now=0.0)
        else:
            cell = choose_cell(game.cells, game.hand, table=table, seen=seen)
            assert game.cells[cell] is None
            game.place(cell, now=0.0)
    return game


@pytest.mark.parametrize("table", TABLE_NAMES)
def test_the_coach_fills_the_whole_board_legally_on_every_table(table):
    game = play(7, table)
    assert game.completed
    assert game.score().total == score_board(game.cells, table).total


def test_a_joker_game_sees_jokers_kept_and_used():
    kept = used = 0
    for seed in range(12):
        game = play(seed, "contiguous")
        assert game.completed
        kept += sum(1 for card in game.sequence[: game.handled] if card == JOKER)
        used += len(game.joker_cells)
    assert kept > 0 and used > 0


@pytest.mark.parametrize("table", TABLE_NAMES)
def test_decisions_are_deterministic(table):
    deck = [card for card in seeded_deck(3, table) if card != JOKER]
    cells: list[int | None] = [None] * 25
    for cell, value in zip((0, 6, 7, 12, 19, 24, 3), deck, strict=False):
        cells[cell] = value
    seen, card = deck[:7], deck[7]
    first = choose_cell(list(cells), card, table=table, seen=list(seen))
    assert all(
        choose_cell(list(cells), card, table=table, seen=list(seen)) == first for _ in range(3)
    )
    assert evaluate(cells, table=table, seen=seen) == evaluate(cells, table=table, seen=seen)
    if table in JOKER_TABLES:
        decisions = {repr(choose_joker(cells, table=table, seen=seen, kept=0)) for _ in range(3)}
        assert len(decisions) == 1


def _strong_game(deck: list[int], table: str, steps: int, search: Search = STRONG) -> list[tuple]:
    """The first ``steps`` decisions of a game led by ``search``, each as
    (cells, card, seen, decision); the rules engine plays every move."""
    game = PokerGame.new(table=table, deck=deck, now=0.0)
    decisions = []
    while not game.over and game.handled < steps:
        seen = game.sequence[: game.handled]
        if game.kept_jokers:
            kept = game.kept_jokers - 1
            choice = choose_joker(game.cells, table=table, seen=seen, kept=kept, search=search)
            decisions.append((list(game.cells), None, list(seen), repr(choice)))
            if choice["action"] == "use":
                game.place_kept_joker(choice["cell"], choice["value"], now=0.0)
                continue
        if game.hand == JOKER:
            choice = choose_joker(
                game.cells, table=table, seen=seen, kept=game.kept_jokers, search=search
            )
            decisions.append((list(game.cells), JOKER, list(seen), repr(choice)))
            if choice["action"] == "use":
                game.use_joker(choice["cell"], choice["value"], now=0.0)
            else:
                game.keep_joker(now=0.0)
        else:
            cell = choose_cell(game.cells, game.hand, table=table, seen=seen, search=search)
            decisions.append((list(game.cells), game.hand, list(seen), cell))
            game.place(cell, now=0.0)
    return decisions


#: The rollout coach's code path at a tenth of its budget (the tests stay cheap).
SMALL_ROLLOUT = Search(cells=3, rollouts=150)
#: ... judging only the middle of the game (the look-ahead before and at the end).
SMALL_LATE = Search(cells=3, rollouts=150, rollout_from=20, rollout_to=2)


@pytest.mark.parametrize(
    ("table", "search"),
    [("matematico", STRONG), ("contiguous", STRONG), ("matematico", SMALL_ROLLOUT)]
    + [("school", SMALL_ROLLOUT), ("contiguous", SMALL_LATE)],
)
def test_the_strong_search_never_peeks_at_undrawn_cards(table, search):
    """Issue 42: the search looks ahead over (or samples its rollouts from) the
    cards still unseen, never the deck's order. The same game with the undrawn
    part of the deck reordered (shuffled after 4 cards, reversed after 10) gets
    exactly the same decisions up to that point; jokers included on the joker
    tables."""
    deck = seeded_deck(11 if table == "matematico" else 3, table)
    original = _strong_game(deck, table, steps=10, search=search)
    for cut, reorder in (
        (4, random.Random(4).sample(deck[4:], k=len(deck) - 4)),
        (10, deck[10:][::-1]),
    ):
        assert reorder != deck[cut:]
        other = _strong_game([*deck[:cut], *reorder], table, steps=cut, search=search)
        played = [d for d in original if len(d[2]) < cut]
        assert other[: len(played)] == played


@pytest.mark.parametrize(("search", "steps"), [(STRONG, 12), (SMALL_ROLLOUT, 14)])
def test_the_strong_searches_are_deterministic_and_look_further(search, steps):
    """The strong search and the rollout coach give the same answer every time,
    and each decides differently from the quick coach somewhere (it is really used)."""
    table = "matematico"
    deck = seeded_deck(0, table)
    cells: list[int | None] = [None] * 25
    differ = 0
    for step, card in enumerate(deck[:steps]):
        seen = deck[:step]
        chosen = choose_cell(cells, card, table=table, seen=seen, search=search)
        if step % 5 == 0:
            assert choose_cell(cells, card, table=table, seen=seen, search=search) == chosen
        differ += chosen != choose_cell(cells, card, table=table, seen=seen, search=QUICK)
        cells[chosen] = card
    assert differ > 0
    assert ROLLOUT.rollouts > SMALL_ROLLOUT.rollouts
    with pytest.raises(ValueError):
        choose_cell([None] * 25, 5, table=table, seen=[], search=3)  # type: ignore[arg-type]


def test_rollouts_judge_only_inside_their_window():
    """``rollout_from`` / ``rollout_to``: outside the window of empty cells left
    after the number the look-ahead decides (the quick coach's cell), inside it
    the rollouts do (and differ from the look-ahead somewhere)."""
    table = "matematico"
    deck = seeded_deck(0, table)
    cells: list[int | None] = [None] * 25
    differ = 0
    for step, card in enumerate(deck[:24]):
        seen = deck[:step]
        chosen = choose_cell(cells, card, table=table, seen=seen, search=SMALL_LATE)
        quick = choose_cell(cells, card, table=table, seen=seen, search=QUICK)
        if not 2 <= 24 - step <= 20:
            assert chosen == quick, step
        differ += chosen != quick
        cells[chosen] = card
    assert differ > 0


def rollout_start(table: str, seed: int):
    """A board with 7 numbers of ``seeded_deck(seed)`` on it, for a rollout."""
    model = coach_model(table)
    deck = [card for card in seeded_deck(seed, table) if card != JOKER]
    cells: list[int | None] = [None] * 25
    for cell, value in zip((0, 6, 7, 12, 19, 24, 3), deck, strict=False):
        cells[cell] = value
    return model, deck, cells, coach_remaining(table, deck[:7])


@pytest.mark.parametrize("table", TABLE_NAMES)
def test_a_rollout_ends_in_a_full_board_scored_exactly(table):
    """Both rollout players (lines as sorted values, lines in cell order) put
    every card of the future on the board and return its exact score."""
    model, deck, cells, remaining = rollout_start(table, 21)
    board = list(cells)
    ordered = coach_rollout._play_ordered(model, board, list(remaining), deck[7:25], 18)
    assert None not in board and sorted(v for v in board if v is not None) == sorted(deck[:25])
    assert ordered == score_board(board, table).total
    if table != "contiguous":
        free = coach_rollout._play_free(model, list(cells), list(remaining), deck[7:25], 18)
        assert free == ordered


def test_the_last_empty_cell_is_the_only_choice():
    deck = [card for card in seeded_deck(11, "matematico")]
    cells: list[int | None] = list(deck[:25])
    cells[17] = None
    assert choose_cell(cells, 5, table="matematico", seen=deck[:24]) == 17


def test_the_coach_completes_four_of_a_kind():
    # Row 0 holds 7 7 7 _ 5; the last 7 in hand makes four of a kind (160).
    cells: list[int | None] = [7, 7, 7, None, 5] + [None] * 20
    assert choose_cell(cells, 7, table="matematico", seen=[7, 7, 7, 5]) == 3


def test_a_joker_early_in_the_game_is_kept():
    assert choose_joker([None] * 25, table="contiguous", seen=[], kept=0) == {"action": "keep"}


def test_a_joker_waits_for_the_five_of_a_kind_and_then_makes_it():
    # 9 9 _ 9 9 and no 9 left in the deck: only a joker turns 70 into 125.
    # Early on the coach keeps the joker for it (keeping is free) and keeps
    # numbers out of that cell; when no cell can be spared, the joker goes there.
    cells: list[int | None] = [9, 9, None, 9, 9] + [None] * 20
    seen = [9, 9, 9, 9, 5]
    assert choose_joker(cells, table="school", seen=seen, kept=0) == {"action": "keep"}
    assert choose_cell(cells, 5, table="school", seen=seen[:4]) != 2
    others = [v for v in range(1, 14) if v != 9] * 2
    late: list[int | None] = [9, 9, None, 9, 9] + others[:20]
    seen = [9, 9, 9, 9, *others[:20]]
    assert choose_joker(late, table="school", seen=seen, kept=0) == {
        "action": "use",
        "cell": 2,
        "value": 9,
    }


@pytest.mark.parametrize("table", JOKER_TABLES)
def test_a_joker_is_used_when_no_cell_can_be_spared(table):
    deck = [card for card in seeded_deck(5, table) if card != JOKER]
    cells: list[int | None] = list(deck[:25])
    cells[4] = cells[20] = None
    # Two free cells and one joker already kept: this one must go now.
    decision = choose_joker(cells, table=table, seen=deck[:23] + [JOKER], kept=1)
    assert decision["action"] == "use"
    assert decision["cell"] in (4, 20)
    assert 1 <= decision["value"] <= 13


def test_evaluate_is_exact_on_a_full_board_and_plausible_on_an_empty_one():
    for table in TABLE_NAMES:
        deck = [card for card in seeded_deck(9, table) if card != JOKER]
        full = deck[:25]
        assert evaluate(full, table=table, seen=deck[:25]) == score_board(full, table).total
    empty = evaluate([None] * 25, table="matematico", seen=[])
    assert 200 < empty < 450


def test_evaluate_lines_splits_evaluate_by_line():
    seen = [7, 7, 7, 2, 12]
    cells = [7, 7, 7, None, None, None, 12, None, None, None] + [2] + [None] * 14
    lines = evaluate_lines(cells, table="matematico", seen=seen)
    assert len(lines) == 12
    assert sum(lines) == pytest.approx(evaluate(cells, table="matematico", seen=seen))
    # Row 0 (three 7s) expects more than the empty row 4.
    assert lines[0] > lines[4]


def test_evaluate_values_a_four_of_a_kind_above_a_spoiled_row():
    seen = [7, 7, 7, 7, 2]
    four = [7, 7, 7, 7, None] + [None] * 20
    spoiled = [7, 7, 7, 2, None] + [None] * 20
    assert evaluate(four, table="matematico", seen=seen) > evaluate(
        spoiled, table="matematico", seen=seen
    )


@pytest.mark.parametrize(
    ("cells", "card", "table", "seen"),
    [
        ([None] * 24, 5, "matematico", []),  # 24 cells
        ([None] * 25, 0, "matematico", []),  # a joker is not a number card
        ([None] * 25, 14, "matematico", []),
        ([None] * 25, True, "matematico", []),
        ([None] * 25, 5, "poker", []),  # unknown table
        ([None] * 24 + [14], 5, "matematico", []),  # value outside 1..13
        (list(range(1, 14)) + list(range(1, 13)), 5, "matematico", []),  # full board
        ([None] * 25, 5, "matematico", [JOKER]),  # matematico has no jokers
        ([None] * 25, 5, "matematico", [15]),
        ([None] * 25, 5, "matematico", "12"),
    ],
)
def test_choose_cell_refuses_invalid_input(cells, card, table, seen):
    with pytest.raises(ValueError):
        choose_cell(cells, card, table=table, seen=seen)


def test_choose_joker_and_evaluate_refuse_invalid_input():
    with pytest.raises(ValueError):
        choose_joker([None] * 25, table="matematico", seen=[], kept=0)  # no jokers there
    with pytest.raises(ValueError):
        choose_joker([None] * 25, table="contiguous", seen=[], kept=-1)
    with pytest.raises(ValueError):
        choose_joker([None] * 25, table="contiguous", seen=[], kept="1")
    with pytest.raises(ValueError):
        choose_joker([1] * 25, table="contiguous", seen=[], kept=0)
    with pytest.raises(ValueError):
        evaluate([None] * 26, table="contiguous", seen=[])
    with pytest.raises(ValueError):
        evaluate([None] * 25, table="nope", seen=[])


# --- properties ------------------------------------------------------------------


@st.composite
def positions(draw, table_names=TABLE_NAMES):
    """A board as a real game makes it: the first cards of a shuffled deck in
    random empty cells; returns (table, cells, seen, next card)."""
    table = draw(st.sampled_from(table_names))
    seed = draw(st.integers(0, 2**32 - 1))
    deck = seeded_deck(seed, table)
    placed = draw(st.integers(0, 24))
    order = draw(st.permutations(range(25)))
    cells: list[int | None] = [None] * 25
    values = draw(st.lists(st.integers(1, 13), min_size=placed, max_size=placed))
    numbers = [card for card in deck if card != JOKER]
    for i, cell in enumerate(order[:placed]):
        card = deck[i]
        cells[cell] = values[i] if card == JOKER else card
    return table, cells, deck[:placed], numbers[placed], deck


@settings(max_examples=60, deadline=None)
@given(positions())
def test_choose_cell_always_picks_an_empty_cell(position):
    table, cells, seen, card, _ = position
    before = list(cells)
    cell = choose_cell(cells, card, table=table, seen=seen)
    assert type(cell) is int and 0 <= cell < 25
    assert cells[cell] is None
    assert cells == before  # the input is not changed


@settings(max_examples=40, deadline=None)
@given(positions(JOKER_TABLES), st.integers(0, 2))
def test_choose_joker_uses_an_empty_cell_and_a_value_1_to_13(position, kept):
    table, cells, seen, _, _ = position
    free = cells.count(None)
    decision = choose_joker(cells, table=table, seen=seen, kept=kept)
    if decision["action"] == "use":
        assert set(decision) == {"action", "cell", "value"}
        assert cells[decision["cell"]] is None
        assert type(decision["value"]) is int and 1 <= decision["value"] <= 13
    else:
        assert decision == {"action": "keep"}
        assert free > kept + 1  # keeping never strands a joker


@settings(max_examples=40, deadline=None)
@given(positions())
def test_evaluate_is_a_finite_non_negative_number(position):
    table, cells, seen, _, _ = position
    value = evaluate(cells, table=table, seen=seen)
    assert isinstance(value, float)
    assert 0 <= value < 12 * 210


@pytest.mark.parametrize("table", TABLE_NAMES)
def test_the_rollouts_memo_replays_a_gain_only_where_the_line_values_agree(table):
    """The rollouts memoise a line's gain by its content, the card, the stage
    and only what the learned values read of the unseen counts (each capped at
    the line's empty cells, or whether one is unseen). A key missing something
    they read would replay a stale gain: many unseen counts for the same lines
    and cards, every gain the memo answers equals the learned values' own."""
    model = coach_model(table)
    model.rollout_memo.clear()
    ordered = table == "contiguous"
    rng = random.Random(5)
    copies = coach_remaining(table, [])
    checked = 0
    for _ in range(30):
        filled = rng.randrange(1, 5)
        values = [rng.choice((1, 2, 5, 6, 7, 9, 10, 12, 13)) for _ in range(filled)]
        at = sorted(rng.sample(range(5), filled)) if ordered else list(range(filled))
        code = sum(
            v * coach_rollout._FOURTEEN[a] if ordered else coach_rollout._SIX[v]
            for v, a in zip(values, at, strict=True)
        )
        free_at = next(a for a in range(5) if a not in at)
        for card in (values[0], rng.randrange(1, 14)):
            diagonal, empty = rng.randrange(2), rng.randrange(4, 20)
            shift = card * 16 + (empty >> 2) * 2 + diagonal
            tail = (empty >> 2) * 2 + diagonal
            if ordered:
                key = -((code * 5 + free_at) * 224 + shift)
                grown = code + card * coach_rollout._FOURTEEN[free_at]
                old = coach_rollout._ordered_line(code)
                new = coach_rollout._ordered_line(grown)
                keys = (-(code * 16 + tail) - 16, -(grown * 16 + tail) - 16)
            else:
                key = code * 224 + shift
                grown = code + coach_rollout._SIX[card]
                old = coach_rollout._free_line(code)
                new = coach_rollout._free_line(grown)
                keys = (code * 16 + tail, grown * 16 + tail)
            for _ in range(40):
                remaining = [rng.choice((0, 1, 2, n)) for n in copies]
                counts = coach_rollout._all_counts(remaining)
                entry = model.rollout_memo.get(key)
                replayed = entry and entry[2].get(entry[0](counts[entry[1]]))
                index = 10 if diagonal else 0
                gain = model.line_value(index, new, remaining, empty) - model.line_value(
                    index, old, remaining, empty
                )
                if replayed is None and ordered:
                    coach_rollout._gain(model, key, old, new, remaining, counts, empty, keys)
                elif replayed is None:
                    coach_rollout._gain_free(
                        model, key, code, grown, remaining, counts, empty, tail
                    )
                else:
                    checked += 1
                    assert replayed == gain, (old, new, remaining)
    assert checked > 500


def test_a_candidate_clearly_behind_is_dropped_and_a_close_one_kept():
    leader = [300.0, 320.0, 280.0, 310.0, 295.0, 305.0]
    assert coach_rollout._behind(leader, [s - 40 + (i % 2) for i, s in enumerate(leader)])
    assert not coach_rollout._behind(
        leader, [s + (5 if i % 2 else -6) for i, s in enumerate(leader)]
    )
    assert not coach_rollout._behind(leader, list(leader))


@pytest.mark.parametrize("table", TABLE_NAMES)
def test_a_line_value_is_memoised_by_the_unseen_counts_its_abstraction_reads(table):
    """``Model.line_value`` keys its memo by the unseen counts as the line's
    abstraction reads them (capped at the line's empty cells, or whether one is
    unseen), not by the raw counts: positions that differ only beyond the cap
    share one entry, and every answer equals the learned value of the line's
    own abstraction (``line_keys``), memo or not."""
    model = coach_model(table)
    rng = random.Random(11)
    copies = coach_remaining(table, [])
    for line in [(1, 1, 12, None, None), (5, 6, None, 8, None), (13, 13, None, 1, 9)]:
        model._cache.clear()
        model._shared.clear()
        for _ in range(80):
            remaining = [rng.randrange(0, n + 1) for n in copies]
            empty = rng.randrange(4, 20)
            fine, coarse = line_keys(table, line, remaining, empty)
            found = model.fine.get(fine) or model.coarse.get(coarse)
            if found is not None:
                assert model.line_value(0, line, remaining, empty) == found[0]
        # Every count at or above the line's empty cells, one stage: one entry.
        model._cache.clear()
        model._shared.clear()
        for _ in range(20):
            remaining = [rng.randrange(3, n + 1) if n > 2 else n for n in copies]
            model.line_value(0, line, remaining, 5)
        assert len(model._shared) == 1, line


@pytest.mark.parametrize("table", ["matematico", "school"])
def test_the_tuple_abstraction_values_every_line_as_the_string_keys_do(table):
    """``coach_keys.Lines`` (the abstraction as tuples, what the rollouts'
    misses use) gives exactly the value of ``line_keys``' strings looked up in
    the learned values, on random lines, unseen counts and stages."""
    model = coach_model(table)
    rng = random.Random(11)
    for _ in range(3000):
        k = rng.randint(0, 4)
        values = [rng.choice((1, 1, 13, 13, 10, 11, 12, *range(1, 14))) for _ in range(k)]
        line = [*values, *[None] * (5 - k)]
        rng.shuffle(line)
        remaining = [0] + [rng.choice((0, 1, 2, 3, 4, 4)) for _ in range(13)]
        empty, index = rng.randint(0, 24), rng.choice((0, 7, 10, 11))
        fine, coarse = line_keys(table, line, remaining, empty)
        found = model.fine.get(fine) or model.coarse.get(coarse)
        bonus = model.compiled.diagonal_bonus if index in (10, 11) else 0
        expected = found[0] + bonus * found[1] if found else evaluate_partial(model, line, bonus)
        got = model.lines.value(index in (10, 11), tuple(line), remaining, empty)
        assert got == expected, (line, remaining, empty, fine)


def evaluate_partial(model, line, bonus):
    points = _line_points(model.compiled, *line)
    return float(points + bonus) if points else 0.0


@pytest.mark.parametrize("table", TABLE_NAMES)
def test_a_rollout_cut_at_its_horizon_counts_the_boards_learned_value(table):
    """A rollout whose future is shorter than the empty cells (``Search.horizon``)
    places those cards as a whole rollout would and returns the learned value of
    the board it reached (each line's value with the cards left unseen)."""
    model, deck, cells, remaining = rollout_start(table, 23)
    board = list(cells)
    cut = coach_rollout._play_ordered(model, board, list(remaining), deck[7:15], 18)
    assert sum(v is None for v in board) == 10
    left = coach_remaining(table, deck[:15])
    lines = [tuple(board[c] for c in line) for line in LINES]
    learned = sum(model.line_value(i, line, left, 10) for i, line in enumerate(lines))
    assert cut == pytest.approx(learned)
    if table != "contiguous":
        free = coach_rollout._play_free(model, list(cells), list(remaining), deck[7:15], 18)
        assert free == pytest.approx(learned)
