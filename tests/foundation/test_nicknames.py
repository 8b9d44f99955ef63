import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts import nicknames
from accounts.nicknames import NicknameError


@pytest.mark.parametrize(
    "raw,expected",
    [("  Rýchla   Sova ", "Rýchla Sova"), ("Ab", "Ab"), ("x_y-z.1", "x_y-z.1")],
)
def test_valid_nicknames_are_normalised(raw, expected):
    nickname = nicknames.normalise(raw)
    nicknames.check_characters(nickname)
    assert nickname == expected


@pytest.mark.parametrize(
    "raw,code",
    [
        ("a", "too_short"),
        ("x" * 25, "too_long"),
        ("Sova<script>", "bad_characters"),
        ("ahoj@svet", "bad_characters"),
        ("---", "no_letters"),
        ("Kurva 1", "not_allowed"),
        ("fuckface", "not_allowed"),
        ("Píča", "not_allowed"),
        ("K0k0t", "not_allowed"),
    ],
)
def test_rejections_have_stable_codes_and_messages(raw, code):
    with pytest.raises(NicknameError) as error:
        nicknames.check_characters(nicknames.normalise(raw))
    assert error.value.code == code
    assert error.value.message


@pytest.mark.parametrize("innocent", ["Peacock", "Scunthorpe Fan", "Analytik", "Sextant 3"])
def test_innocent_words_containing_short_bad_words_pass(innocent):
    nicknames.check_characters(innocent)


@given(st.integers(min_value=0, max_value=10_000), st.sampled_from(["cs", "sk", "en", "de"]))
def test_generated_nicknames_always_pass_the_rules(seed, language):
    nickname = nicknames.generate(random.Random(seed), language=language)
    nicknames.check_characters(nickname)
    assert nicknames.normalise(nickname) == nickname


@given(st.text(max_size=40))
def test_any_text_is_either_accepted_within_the_rules_or_refused_with_a_code(text):
    nickname = nicknames.normalise(text)
    try:
        nicknames.check_characters(nickname)
    except NicknameError as error:
        assert error.code in {
            "too_short",
            "too_long",
            "bad_characters",
            "no_letters",
            "mixed_scripts",
            "not_allowed",
        }
    else:
        assert 2 <= len(nickname) <= 24
        assert all(ch.isalnum() or ch in " -_." for ch in nickname)


@pytest.mark.parametrize("raw", ["Aª", "Paº", "Ｍaruška"])
def test_compatibility_forms_count_as_the_letters_they_stand_for(raw):
    # 'ª' (feminine ordinal) and full-width letters are Latin letters in another
    # form: they do not make a Latin nickname "mixed".
    nicknames.check_characters(raw)


def test_a_real_second_alphabet_is_still_mixed():
    with pytest.raises(NicknameError) as refused:
        nicknames.check_characters("Pe\u0442r")
    assert refused.value.code == "mixed_scripts"
