"""The pasted list of players read line by line (duplicate.player_lines): tables, names, what the federation knows
of each player, and every bad line said with its number. Pure text: no database."""

import pytest

from duplicate.errors import DuplicateError, LinesRefused
from duplicate.player_lines import parse_player_lines

from .test_hidden_characters import HIDDEN, ON_LINE, code


def test_a_superscript_before_a_name_is_no_table_number():
    """Once a 500 (int("²")); in a numbered list it is a table number mistyped, said so."""
    with pytest.raises(DuplicateError, match="^Ligne 1 : « ² » n'est pas un numéro de table.$"):
        parse_player_lines("²;Alice\n3;Bob")
    assert parse_player_lines("²;Alice") == [(None, "² Alice", "", "", "")]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("6;", "Ligne 1 : la table 6 n'a pas de joueur."),
        ("1;Anne\n0;Alice", "Ligne 2 : les tables vont de 1 à 9999."),
        ("123456789012;Alice", "Ligne 1 : les tables vont de 1 à 9999."),
    ],
)
def test_a_pasted_line_that_is_no_player_is_refused(text, message):
    """Trial of issue 10: "6;" became a player named 6, and "0;Alice" a player without a table."""
    with pytest.raises(DuplicateError, match=message):
        parse_player_lines(text)


@pytest.mark.parametrize(
    ("text", "rows"),
    [
        ("1;Anne;123456", [(1, "Anne", "123456", "", "")]),
        (
            "1;Anne;123456;Lyon Bellecour;N1\n2;Bruno;;Paris;B",
            [
                (1, "Anne", "123456", "Lyon Bellecour", "N1"),
                (2, "Bruno", "", "Paris", "B"),
            ],
        ),
        ("12;Claire;Dupont", [(12, "Claire Dupont", "", "", "")]),  # no digit: a name in two fields, as before
        ("12;Claire;Dupont;", [(12, "Claire Dupont", "", "", "")]),  # a trailing separator changes nothing
        ("7;Zoé;ABC;;A", [(7, "Zoé", "ABC", "", "A")]),  # a series given: the third field is the licence
        (
            "Série,LICENCE,Nom,Table\nN1,42,Anne,3\nB,,Bruno,\n",
            [
                (3, "Anne", "42", "", "N1"),
                (None, "Bruno", "", "", "B"),
            ],
        ),
    ],
)
def test_a_line_gives_licence_club_and_series(text, rows):
    assert parse_player_lines(text) == rows


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1;Anne;12-34", "Ligne 1 : la licence « 12-34 » ne compte que des lettres et des chiffres \\(20 au plus\\)."),
        ("1;Anne;" + "1" * 21, "Ligne 1 : la licence « 1{21} » ne compte"),
        ("1;Anne;1\n2;Bruno;2;" + "C" * 81, "Ligne 2 : nom de club trop long \\(80 caractères au plus\\)."),
        ("1;Anne;1;Lyon;ABCDEFGHIJK", "Ligne 1 : série trop longue \\(10 caractères au plus\\)."),
        ("1;Anne;1;Lyon;A;en trop", "Ligne 1 : une ligne compte au plus table, nom, licence, club et série."),
        ("nom;table\nAnne;x", "Ligne 2 : « x » n'est pas un numéro de table."),
        ("table;nom;licence\n1;;42", "Ligne 2 : le joueur n'a pas de nom."),
        # Trial: a five-field line whose licence has no digit became one long name, its series lost.
        (
            "7;Zoé Ü;ABCDEFGHIJKLMNOPQRSTUVWXYZ;;A",
            "Ligne 1 : la licence « ABCDEFGHIJKLMNOPQRSTUVWXYZ » ne compte que des lettres et des chiffres",
        ),
    ],
)
def test_a_bad_line_is_refused_with_its_number(text, message):
    with pytest.raises(DuplicateError, match=message):
        parse_player_lines(text)


def test_in_a_numbered_list_a_line_without_a_table_number_is_refused():
    """Trial of issue 16: "abc;Bob" among numbered lines became a player named "abc Bob" without a table."""
    with pytest.raises(DuplicateError, match="^Ligne 2 : « abc » n'est pas un numéro de table.$"):
        parse_player_lines("1;Anne\nabc;Bob\n3;Claire")
    # A list without numbers reads each line as a name, its fields joined; a lone name in a numbered list has none.
    assert parse_player_lines("Dupont;Claire\nMartin;Paul") == [
        (None, "Dupont Claire", "", "", ""),
        (None, "Martin Paul", "", "", ""),
    ]
    assert parse_player_lines("1;Anne\nBruno") == [(1, "Anne", "", "", ""), (None, "Bruno", "", "", "")]


def test_every_bad_line_of_a_list_is_said_at_once():
    """Trial of issue 16: only the first bad line was said; the organiser corrected and pasted again for each."""
    text = "1;Anne;12-34\n2;Bruno\n2;Claire\nx;Denis\n3;" + "E" * 81
    with pytest.raises(LinesRefused) as refused:
        parse_player_lines(text)
    assert refused.value.sentences() == [
        "Ligne 1 : la licence « 12-34 » ne compte que des lettres et des chiffres (20 au plus).",
        "Ligne 3 : la table 2 est déjà celle de la ligne 2.",
        "Ligne 4 : « x » n'est pas un numéro de table.",
        "Ligne 5 : nom trop long (80 caractères au plus).",
    ]
    many = "\n".join(f"{n};" for n in range(1, 14))
    with pytest.raises(LinesRefused) as refused:
        parse_player_lines(many)
    assert len(refused.value.sentences()) == 11
    assert refused.value.sentences()[-1] == "Et 3 autres lignes refusées."


@pytest.mark.parametrize("character", HIDDEN.values(), ids=HIDDEN.keys())
def test_a_pasted_line_holding_a_hidden_character_is_refused_with_its_line(character):
    with pytest.raises(LinesRefused) as refused:
        parse_player_lines(f"1;Anne\n2;Bruno\n3;{character}evil\n4;Zoé")
    assert refused.value.sentences() == [f"Ligne 3 : {ON_LINE % code(character)}"]


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("1;\u200b", f"Ligne 1 : {ON_LINE % 'U+200B'}"),  # a player no one could see
        ("\u200b", f"Ligne 1 : {ON_LINE % 'U+200B'}"),
        ("1;Anne;123;Ly\u202eon", f"Ligne 1 : {ON_LINE % 'U+202E'}"),  # his club
        ("1;Anne;123;Lyon;N\u200f1", f"Ligne 1 : {ON_LINE % 'U+200F'}"),  # his series
        ("table;nom\n1;\u202eevil", f"Ligne 2 : {ON_LINE % 'U+202E'}"),  # under a header
        ('1;"An\nne"', f"Ligne 1 : {ON_LINE % 'U+000A'}"),  # a line break quoted in a CSV field
    ],
)
def test_no_field_of_a_line_may_hide_a_character(text, sentence):
    with pytest.raises(LinesRefused) as refused:
        parse_player_lines(text)
    assert refused.value.sentences() == [sentence]


@pytest.mark.parametrize("first", ["-3", "1e3", "1E3", "2.5", "2,5", "+4", "-0", ".5"])
def test_a_first_field_written_as_a_number_that_is_no_table_is_refused(first):
    with pytest.raises(LinesRefused) as refused:
        parse_player_lines(f"{first};Bob")
    assert refused.value.sentences() == [
        f"Ligne 1 : « {first} » n'est pas un numéro de table (un nombre entier de 1 à 9999)."
    ]


def test_a_first_field_that_is_a_name_stays_a_name_beside_a_number_refused():
    with pytest.raises(LinesRefused) as refused:
        parse_player_lines("Bob;Lyon\n-3;Bob")
    assert refused.value.sentences() == [
        "Ligne 2 : « -3 » n'est pas un numéro de table (un nombre entier de 1 à 9999)."
    ]
    assert parse_player_lines("Bob;Lyon\n2Pac;Paris") == [
        (None, "Bob Lyon", "", "", ""),
        (None, "2Pac Paris", "", "", ""),
    ]


def test_a_pasted_file_may_begin_with_its_byte_order_mark_and_nowhere_else():
    assert parse_player_lines("\ufefftable;nom\n12;Claire") == [(12, "Claire", "", "", "")]
    with pytest.raises(LinesRefused) as refused:
        parse_player_lines("\ufefftable;nom\n12;Claire\n\ufeff13;Paul")
    assert refused.value.sentences() == [f"Ligne 3 : {ON_LINE % 'U+FEFF'}"]
