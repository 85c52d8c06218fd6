import pytest

from scoring.engine.editions import BUILTIN_EDITIONS
from scoring.engine.errors import NotationError


def test_nine_editions_with_their_tile_counts():
    counts = {code: edition.tile_count for code, edition in BUILTIN_EDITIONS.items()}
    assert counts == {
        "fr": 102,
        "en": 100,
        "es": 100,
        "it": 120,
        "de": 102,
        "pl": 100,
        "nl": 102,
        "ca": 100,
        "pt": 120,
    }


def test_french_set_matches_seed_000(fr):
    assert fr.blanks == 2
    assert sum(spec.count for spec in fr.letters) == 100
    one_point = [spec for spec in fr.letters if spec.value == 1]
    assert "".join(spec.letter for spec in one_point) == "AEILNORSTU"
    assert sum(spec.count for spec in one_point) == 73
    ten_points = {spec.letter: spec.count for spec in fr.letters if spec.value == 10}
    assert ten_points == {"K": 1, "W": 1, "X": 1, "Y": 1, "Z": 1}
    assert len(fr.letters) == 26


def test_german_z_is_worth_three(fr):
    assert BUILTIN_EDITIONS["de"].values["Z"] == 3
    assert fr.values["Z"] == 10


def test_vowel_and_consonant_flags(fr):
    assert fr.is_vowel("A") and not fr.is_consonant("A")
    assert fr.is_consonant("B") and not fr.is_vowel("B")
    assert fr.is_vowel("Y") and fr.is_consonant("Y")


def test_accents_and_ligatures_are_normalised(fr):
    assert fr.split("ÉCOLES") == [("E", False), ("C", False), ("O", False), ("L", False), ("E", False), ("S", False)]
    assert [letter for letter, _ in fr.split("cœur")] == ["C", "O", "E", "U", "R"]
    assert [letter for letter, _ in fr.split("Æ")] == ["A", "E"]
    assert [letter for letter, _ in fr.split("ÇA")] == ["C", "A"]


def test_lowercase_and_parentheses_mark_blanks(fr):
    assert fr.split("ChACUNE")[1] == ("H", True)
    assert fr.split("C(H)ACUNE")[1] == ("H", True)
    assert [blank for _, blank in fr.split("C(H)ACUNE")] == [False, True, False, False, False, False, False]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("VA3UE", "Caractère non accepté : « 3 ». Seules les lettres sont admises."),
        ("VA-GUE", "Caractère non accepté : « - ». Seules les lettres sont admises."),
        ("VA GUE", "Le mot contient un espace : écrivez-le d'un seul tenant."),
        ("ANTICONSTITUTIONNEL", "Le mot compte 19 lettres : 15 au plus."),
        ("", "Le mot est vide."),
        ("C(H", "Une parenthèse n'est pas refermée."),
    ],
)
def test_bad_words_are_refused_with_a_message_naming_the_problem(fr, text, message):
    with pytest.raises(NotationError) as caught:
        fr.split(text)
    assert caught.value.message == message


def test_fifteen_letters_counted_after_normalisation(fr):
    assert len(fr.split("ŒŒŒŒŒŒŒ")) == 14
    with pytest.raises(NotationError):
        fr.split("ŒŒŒŒŒŒŒŒ")


def test_digraphs_are_single_tiles():
    es, ca = BUILTIN_EDITIONS["es"], BUILTIN_EDITIONS["ca"]
    assert es.split("CHORRO") == [("CH", False), ("O", False), ("RR", False), ("O", False)]
    assert es.split("chico")[0] == ("CH", True)
    assert es.split("NIÑO")[2] == ("Ñ", False)
    assert ca.split("COL·LA") == [("C", False), ("O", False), ("L·L", False), ("A", False)]
    assert [letter for letter, _ in ca.split("QUE")] == ["QU", "E"]


def test_letter_the_edition_lacks_is_a_blank():
    es, it = BUILTIN_EDITIONS["es"], BUILTIN_EDITIONS["it"]
    assert es.split("KIWI") == [("K", True), ("I", False), ("W", True), ("I", False)]
    assert [blank for _, blank in it.split("JAZZ")] == [True, False, False, False]


def test_edition_keeps_its_own_accented_tiles():
    assert BUILTIN_EDITIONS["de"].split("BÄR")[1] == ("Ä", False)
    assert BUILTIN_EDITIONS["fr"].split("BÄR")[1] == ("A", False)
