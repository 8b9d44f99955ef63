"""The seeded layout: deterministic, scattered, never overlapping, on the board."""

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from games.mathesso.rules import VARIANT_NAMES, build_tiles, new_game
from games.mathesso.rules.layout import MAX_TURN, bounding_side

seeds = st.one_of(st.integers(), st.text(max_size=20))
setups = st.sampled_from([(v, ()) for v in VARIANT_NAMES] + [("standart", ("factorial", "cjv"))])


def placement(state):
    return [(p.tile.face, p.tile.bw, p.x, p.y, p.rot) for p in state.tiles]


@given(setups, seeds)
def test_the_same_seed_lays_out_the_same_table(setup, seed):
    variant, exts = setup
    a = new_game(["ann", "bob"], variant, exts, seed=seed)
    b = new_game(["ann", "bob"], variant, exts, seed=seed)
    assert placement(a) == placement(b)


def test_different_seeds_lay_out_different_tables():
    layouts = {tuple(placement(new_game(["ann"], "pico", seed=s))) for s in range(20)}
    assert len(layouts) == 20


@given(setups, seeds)
def test_the_table_holds_every_tile_of_the_variant_once(setup, seed):
    variant, exts = setup
    state = new_game(["ann"], variant, exts, seed=seed)
    assert Counter(p.tile for p in state.tiles) == Counter(build_tiles(variant, exts))
    assert [p.id for p in state.tiles] == list(range(len(state.tiles)))


@given(setups, seeds)
def test_tiles_never_overlap_and_stay_on_the_board(setup, seed):
    variant, exts = setup
    state = new_game(["ann"], variant, exts, seed=seed)
    boxes = []
    for p in state.tiles:
        assert abs(p.rot) <= MAX_TURN
        half = bounding_side(p.rot) / 2
        box = (p.x - half, p.y - half, p.x + half, p.y + half)
        assert 0 <= box[0] and box[2] <= state.width
        assert 0 <= box[1] and box[3] <= state.height
        boxes.append(box)
    boxes.sort()
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if b[0] >= a[2]:
                break
            assert b[1] >= a[3] or a[1] >= b[3], (a, b)


def test_the_layout_is_irregular_not_a_grid():
    state = new_game(["ann"], "atto", seed="grid?")
    assert len({p.rot for p in state.tiles}) > len(state.tiles) // 2
    assert len({p.x for p in state.tiles}) == len(state.tiles)


def test_small_variants_fit_a_portrait_phone():
    for variant in ("atto", "femto", "pico"):
        state = new_game(["ann"], variant, seed=1)
        assert state.width < state.height
        # On a 360-pixel-wide screen a tile is still at least 28 pixels.
        assert 360 / state.width >= 28
