"""The tile set: what each variant holds, and that it is all derived from one data table."""

import json
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.mathesso.rules import (
    EXTENSION_NAMES,
    FACES,
    VARIANT_NAMES,
    build_tiles,
    catalogue,
    data,
    is_pair,
    owned_faces,
)
from games.mathesso.rules.tiles import look

# The spec's table (section 3) and the extensions' additions, counted by hand.
SPEC_PAIRS = {
    "atto": 11,
    "femto": 15,
    "pico": 29,
    "nano": 42,
    "mikro": 59,
    "mili": 84,
    "standart": 99,
}
FACTORIALS_ADDED = 5  # fact:1 .. fact:5, whole in every variant (docs decision 10)
CJV_ADDED = 8  # 4 CJV pairs + zero:12a, zero:12b, zero:37, zero:73


def allowed_setups():
    """Factorial from Femto up, CJV from Pico up (spec section 3)."""
    femto, pico = VARIANT_NAMES.index("femto"), VARIANT_NAMES.index("pico")
    for level, variant in enumerate(VARIANT_NAMES):
        for size in range(len(EXTENSION_NAMES) + 1):
            for exts in combinations(EXTENSION_NAMES, size):
                if ("factorial" in exts and level < femto) or ("cjv" in exts and level < pico):
                    continue
                yield variant, exts


SETUPS = list(allowed_setups())


def test_the_allowed_setups_are_the_ones_the_spec_names():
    assert len(SETUPS) == 1 + 2 + 4 * 5


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_variant_has_the_pair_count_of_the_spec_table(variant):
    assert len(build_tiles(variant)) == 2 * SPEC_PAIRS[variant]


@pytest.mark.parametrize(("variant", "extensions"), SETUPS)
def test_extensions_add_the_pairs_the_spec_lists(variant, extensions):
    expected = SPEC_PAIRS[variant]
    if "factorial" in extensions:
        expected += FACTORIALS_ADDED
    if "cjv" in extensions:
        expected += CJV_ADDED
    assert len(build_tiles(variant, extensions)) == 2 * expected


@pytest.mark.parametrize(("variant", "extensions"), SETUPS)
def test_every_variants_tiles_pair_up(variant, extensions):
    faces = Counter(t.face for t in build_tiles(variant, extensions))
    assert set(faces.values()) == {2}


@pytest.mark.parametrize(("variant", "extensions"), SETUPS)
def test_tiles_have_the_face_fields_of_the_api(variant, extensions):
    for t in build_tiles(variant, extensions):
        assert t.face.split(":")[0] == t.group
        assert isinstance(t.value, int)
        assert isinstance(t.bw, int) or t.bw == "!"


@pytest.mark.parametrize(("variant", "extensions"), SETUPS)
def test_a_variant_keeps_only_values_up_to_its_maximum(variant, extensions):
    top = next(v.max_value for v in data.VARIANTS if v.name == variant)
    for t in build_tiles(variant, extensions):
        if t.group not in {"zero", "cjv", "fact"}:
            assert t.value <= top


@pytest.mark.parametrize("variant", [v for v in VARIANT_NAMES if v != "atto"])
def test_the_factorial_extension_adds_its_tiles_whole_like_cjv(variant):
    # Seed 000, both extensions alike: "Přidáme žetony Faktoriál(výše). Můžeme
    # hrát už od verze Femto." and "Pridáme žetony CJV (výše)."
    added = {t.face for t in build_tiles(variant, ["factorial"])} - {
        t.face for t in build_tiles(variant)
    }
    assert added == {f"fact:{n}" for n in range(1, 6)}
    assert {t.value for t in build_tiles(variant, ["factorial"]) if t.group == "fact"} == {
        1,
        2,
        6,
        24,
        120,
    }


def test_extensions_are_order_independent_and_may_repeat():
    assert build_tiles("pico", ["cjv", "factorial"]) == build_tiles("pico", ("factorial", "cjv"))
    assert build_tiles("pico", ["cjv", "cjv"]) == build_tiles("pico", ["cjv"])


@pytest.mark.parametrize(
    ("variant", "extensions"),
    [("atto", ["factorial"]), ("atto", ["cjv"]), ("femto", ["cjv"]), ("pico", ["dice"])],
)
def test_an_extension_not_allowed_for_the_variant_raises(variant, extensions):
    with pytest.raises(ValueError):
        build_tiles(variant, extensions)


@pytest.mark.parametrize("variant", ["", "Atto", "giga", None])
def test_an_unknown_variant_raises(variant):
    with pytest.raises(ValueError):
        build_tiles(variant)


def test_extensions_given_as_a_bare_string_raise():
    with pytest.raises(ValueError):
        build_tiles("pico", "cjv")


def test_equal_values_of_different_colours_are_different_faces():
    tiles = build_tiles("standart")
    twelve = {t.face for t in tiles if t.value == 12}
    assert {"mult:3x4", "mult:2x6"} <= twelve
    thirteen = {t.face for t in tiles if t.value == 13}
    assert thirteen == {"prime:13", "fib:13"}


def by_face(tiles):
    faces = {}
    for t in tiles:
        faces.setdefault(t.face, []).append(t)
    return faces


def test_each_group_shows_its_bw_sides_as_the_spec_says():
    faces = by_face(build_tiles("standart", ["factorial", "cjv"]))
    assert sorted(t.bw for t in faces["mult:3x7"]) == [3, 7]
    assert {t.value for t in faces["mult:3x7"]} == {21}
    assert [(t.bw, t.value) for t in faces["square:11"]] == [(11, 121)] * 2
    assert [(t.bw, t.value) for t in faces["prime:113"]] == [(113, 113)] * 2
    assert [(t.bw, t.value) for t in faces["fib:89"]] == [(89, 89)] * 2
    assert [(t.bw, t.value) for t in faces["fact:5"]] == [(5, 120), ("!", 120)]
    assert [(t.bw, t.value) for t in faces["zero:21"]] == [(21, 0)] * 2
    assert [(t.bw, t.value) for t in faces["zero:12a"]] == [(12, 0)] * 2
    assert [(t.bw, t.value) for t in faces["cjv:3"]] == [(12, 21), (21, 12)]


def test_the_mult_group_includes_the_one_times_table_but_no_squares():
    faces = {t.face for t in build_tiles("standart")}
    assert {f"mult:1x{b}" for b in range(2, 11)} <= faces
    assert not any(f"mult:{a}x{a}" in faces for a in range(1, 11))
    assert sum(f.startswith("mult:") for f in faces) == 45


def test_unused_black_tiles_are_not_in_the_digital_game():
    for n in (17, 19, 23, 29, 31, 41, 43, 71):
        assert f"zero:{n}" not in FACES


def test_every_variant_has_enough_one_tiles_for_six_players():
    for variant in VARIANT_NAMES:
        assert sum(t.bw == 1 for t in build_tiles(variant)) >= data.MAX_PLAYERS


def test_ruler_keeps_the_seeds_colours_and_ten_distinct_colours():
    ruler = {c.number: c for c in data.RULER}
    assert [c.number for c in data.RULER] == list(range(1, 11))
    assert (ruler[1].name, ruler[2].name, ruler[3].name, ruler[7].name) == (
        "pink",
        "red",
        "orange",
        "light blue",
    )
    assert len({c.hex for c in data.RULER}) == 10


def test_a_product_is_coloured_digit_by_digit_in_its_factors_colours():
    ruler = {c.number: c.hex for c in data.RULER}
    looks = catalogue()["faces"]
    twenty_one = looks["mult:3x7"]["tiles"][0]["digits"]
    assert twenty_one == [
        {"digit": "2", "colours": [ruler[3]]},
        {"digit": "1", "colours": [ruler[7]]},
    ]
    six = looks["mult:2x3"]["tiles"][0]["digits"]
    assert six == [{"digit": "6", "colours": [ruler[2], ruler[3]]}]
    nine = looks["square:3"]["tiles"][0]["digits"]
    assert nine == [{"digit": "9", "colours": [ruler[3]]}]


def test_catalogue_is_json_and_describes_a_game():
    cat = catalogue("pico", ["cjv"])
    assert json.loads(json.dumps(cat)) == cat
    assert cat["counts"]["pairs"] == SPEC_PAIRS["pico"] + CJV_ADDED
    assert cat["counts"]["by_group"]["cjv"] == 4
    assert [v["pairs"] for v in cat["variants"]] == list(SPEC_PAIRS.values())
    assert cat["faces"]["zero:37"]["tiles"][0]["behind"] == 37
    assert cat["faces"]["cjv:1"]["design"] == 1
    assert "fact:3" not in cat["faces"]
    assert catalogue()["faces"]["fact:3"]["tiles"][0]["hint"] == "3!"


@given(st.sampled_from(SETUPS))
def test_catalogue_faces_are_exactly_the_games_faces(setup):
    variant, extensions = setup
    assert set(catalogue(variant, extensions)["faces"]) == {
        t.face for t in build_tiles(variant, extensions)
    }


# --------------------------------------------- what looks the same pairs (seed 000)


def drawing(look: dict) -> str:
    """A tile's coloured side as the client draws it: its look without the b/w side."""
    return json.dumps({k: v for k, v in look.items() if k != "bw"}, sort_keys=True)


def catalogue_tiles(variant, extensions):
    """(face id, look) of every tile of a game, as the client receives them."""
    cat = catalogue(variant, extensions)
    return [(face, look) for face, entry in cat["faces"].items() for look in entry["tiles"]]


@pytest.mark.parametrize(("variant", "extensions"), SETUPS)
def test_tiles_drawn_alike_pair_and_tiles_that_do_not_pair_are_drawn_differently(
    variant, extensions
):
    # Seed 000: „Úkolem hráčů je … nalézt dvě kartičky, které jsou na barevné
    # straně identické." Checked for every two tiles of the game, on the very
    # looks the board and the rules page draw.
    tiles = build_tiles(variant, extensions)
    sent = {(face, lk["bw"]): lk for face, lk in catalogue_tiles(variant, extensions)}
    looks = {t: sent[(t.face, t.bw)] for t in tiles}
    for a, b in combinations(tiles, 2):
        same = drawing(looks[a]) == drawing(looks[b])
        if same:
            assert is_pair(a, b), (a.face, a.bw, b.face, b.bw)
        if not is_pair(a, b):
            assert not same, (a.face, a.bw, b.face, b.bw)
        if is_pair(a, b) and not same:
            # The one exception the seed names: „CJV jsou jediné kombinace, kdy
            # čísla na barevné straně přidružených kartiček nejsou úplně identická."
            assert a.group == b.group == "cjv"
            assert looks[a]["design"] == looks[b]["design"]
            assert {looks[a]["value"], looks[b]["value"]} == {12, 21}


@pytest.mark.parametrize(("variant", "extensions"), SETUPS)
def test_every_look_comes_in_whole_pairs(variant, extensions):
    tiles = build_tiles(variant, extensions)
    by_motif = Counter(t.picture.motif for t in tiles)
    assert all(n % 2 == 0 for n in by_motif.values())
    # ... and a look with more than one pair is only ever a CJV design.
    assert all(m.design is not None for m, n in by_motif.items() if n > 2)


def test_cjv_tiles_of_one_design_pair_whichever_pair_of_the_box_they_came_from():
    # Seed 000: „Jako další kartičku hráč otočí číslo 21, aby na barevné straně
    # nalezl graficky stejně zpracované číslo 12."
    faces = by_face(build_tiles("pico", ["cjv"]))
    twelve_1, twenty_one_1 = faces["cjv:1"]
    twelve_2, twenty_one_2 = faces["cjv:2"]
    assert drawing(look(twelve_1)) == drawing(look(twelve_2))
    assert drawing(look(twenty_one_1)) == drawing(look(twenty_one_2))
    assert is_pair(twelve_1, twenty_one_2) and is_pair(twelve_2, twenty_one_1)
    design_2 = faces["cjv:3"]
    assert not any(is_pair(a, b) for a in faces["cjv:1"] for b in design_2)
    assert all(drawing(look(a)) != drawing(look(b)) for a in faces["cjv:1"] for b in design_2)


def test_the_two_black_twelves_are_drawn_differently_and_do_not_pair():
    # Seed 000: „Následující černé kartičky 12 jsou různé, nejedná se tedy o pár".
    faces = by_face(build_tiles("pico", ["cjv"]))
    a, b = faces["zero:12a"][0], faces["zero:12b"][0]
    assert not is_pair(a, b)
    assert drawing(look(a)) != drawing(look(b))
    assert (look(a)["dots"], look(b)["dots"]) == (1, 2)
    assert look(a)["behind"] == look(b)["behind"] == 12


def test_both_tiles_of_a_factorial_pair_carry_the_n_factorial_hint():
    n_tile, mark_tile = by_face(build_tiles("pico", ["factorial"]))["fact:5"]
    assert (n_tile.bw, mark_tile.bw) == (5, "!")
    assert look(n_tile)["hint"] == look(mark_tile)["hint"] == "5!"
    assert drawing(look(n_tile)) == drawing(look(mark_tile))


def test_a_pair_of_tiles_from_two_faces_of_one_look_is_credited_to_distinct_faces():
    faces = by_face(build_tiles("pico", ["cjv"]))
    (t1, u1), (t2, u2) = faces["cjv:1"], faces["cjv:2"]
    assert owned_faces([(t1, u2)]) == ["cjv:1"]
    assert owned_faces([(t1, u2), (t2, u1)]) == ["cjv:1", "cjv:2"]
    assert owned_faces([(t2, u2), (t1, u1)]) == ["cjv:2", "cjv:1"]
    with pytest.raises(ValueError):
        owned_faces([(t1, faces["cjv:3"][1])])
