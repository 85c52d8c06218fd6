import gzip

import pytest

from scoring.engine.editions import BUILTIN_EDITIONS
from scoring.engine.lexicon import (
    FRENCH_WORDLIST,
    Lexicon,
    WordListError,
    default_french_lexicon,
    normalise_word,
    read_word_list,
)


@pytest.fixture(scope="module")
def french():
    return default_french_lexicon()


@pytest.mark.parametrize("word", ["QI", "WU", "KIWI", "ZEBRE", "JOUEZ", "MOUTONS"])
def test_the_free_french_list_has_the_words_of_facts_6(french, word):
    assert word in french


@pytest.mark.parametrize("word", ["AA", "KA", "FAQIR", "YD", "KM"])
def test_the_free_french_list_lacks_symbols_and_ods_only_words(french, word):
    assert word not in french


def test_the_free_french_list_has_400344_words(french):
    assert len(french) == 400_344


def test_it_loads_the_french_list_once_per_process(french):
    assert default_french_lexicon() is french


def test_french_membership_ignores_case_and_accents(french):
    assert "zèbre" in french
    assert "Moutons" in french
    assert "cœur" in french
    assert "ŒUVRE" in french
    assert "zebrex" not in french


@pytest.mark.parametrize(
    ("text", "word"),
    [("zèbre", "ZEBRE"), ("Œuvre", "OEUVRE"), ("cæcum", "CAECUM"), ("  naïf\n", "NAIF"), ("çà", "CA"), ("QI", "QI")],
)
def test_normalise_word(text, word):
    assert normalise_word(text) == word


def test_from_words_normalises_and_drops_duplicates_and_blanks():
    lexicon = Lexicon.from_words(["zèbre", "ZEBRE", "Cœur", " kiwi ", "", "  "])
    assert len(lexicon) == 3
    assert "ZEBRE" in lexicon and "COEUR" in lexicon and "KIWI" in lexicon
    assert "ZEBR" not in lexicon and "ZEBRES" not in lexicon


def test_every_word_is_found_across_index_blocks():
    words = [f"W{number:03d}" for number in range(0, 200, 2)]
    lexicon = Lexicon.from_words(reversed(words))
    assert len(lexicon) == 100
    assert all(word in lexicon for word in words)
    assert not any(f"W{number:03d}" in lexicon for number in range(1, 200, 2))
    assert "A" not in lexicon and "W" not in lexicon and "Z" not in lexicon and "W0000" not in lexicon


def test_it_rejects_what_is_not_one_word():
    lexicon = Lexicon.from_words(["KIWI", "QI"])
    assert "KIWI\nQI" not in lexicon
    assert "" not in lexicon
    assert None not in lexicon
    assert "KIW" not in lexicon and "IWI" not in lexicon


def test_from_words_rejects_a_word_spanning_lines():
    with pytest.raises(ValueError, match="several lines"):
        Lexicon.from_words(["KIWI", "KIWI\nQI"])


def test_an_empty_lexicon_has_no_word():
    lexicon = Lexicon.from_words([])
    assert len(lexicon) == 0
    assert "QI" not in lexicon


LIST_FILE = "# A free list\n\nzèbre\nKIWI\n  # an indented comment\nqi\nKiwi\n"


def test_it_loads_a_plain_file(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text(LIST_FILE, encoding="utf-8")
    lexicon = Lexicon.load(path)
    assert len(lexicon) == 3
    assert "ZEBRE" in lexicon and "KIWI" in lexicon and "QI" in lexicon
    assert "# A FREE LIST" not in lexicon and "# AN INDENTED COMMENT" not in lexicon


def test_it_loads_a_gzipped_file(tmp_path):
    path = tmp_path / "words.txt.gz"
    path.write_bytes(gzip.compress(LIST_FILE.encode()))
    lexicon = Lexicon.load(str(path))
    assert len(lexicon) == 3
    assert "zebre" in lexicon and "KIWI" in lexicon and "QI" in lexicon


def test_the_free_french_list_reads_as_a_list_of_the_french_edition():
    text = gzip.decompress(FRENCH_WORDLIST.read_bytes()).decode()
    assert len(read_word_list(text, BUILTIN_EDITIONS["fr"])) == 400_344


@pytest.mark.parametrize(
    ("text", "edition", "words"),
    [
        ("# liste\n\nzèbre\r\nœuf\rqi\n", "fr", ["zèbre", "œuf", "qi"]),  # any line ending, comments skipped
        ("CHURRO\nLLAMA\n", "es", ["CHURRO", "LLAMA"]),
        ("COL·LEGI\n", "ca", ["COL·LEGI"]),
        ("CHCHCHCHCHCHCHCHCHCHCHCHCHCHCH\n", "es", ["CHCHCHCHCHCHCHCHCHCHCHCHCHCHCH"]),  # 15 tiles of CH
    ],
)
def test_read_word_list_reads_the_editions_tiles(text, edition, words):
    assert read_word_list(text, BUILTIN_EDITIONS[edition]) == words


@pytest.mark.parametrize(
    ("text", "edition", "message"),
    [
        ("QI\n\x00", "fr", "Ligne 2 : ce fichier n'est pas du texte (caractère de contrôle U+0000)."),
        ("QI\nKIWI QI", "fr", "Ligne 2 (« KIWI QI ») : un seul mot par ligne."),
        ("ΩMEGA", "fr", "Ligne 1 (« ΩMEGA ») : l'édition « Français » n'a pas la lettre « Ω »."),
        ("COL·LEGI", "es", "Ligne 1 (« COL·LEGI ») : l'édition « Espagnol » n'a pas la lettre « · »."),
        ("L·", "ca", "Ligne 1 (« L· ») : ce mot ne s'écrit pas avec les lettres de l'édition « Catalan »."),
        ("A" * 16, "fr", f"Ligne 1 (« {'A' * 16} ») : le mot compte 16 lettres : 15 au plus."),
    ],
)
def test_read_word_list_names_the_first_wrong_line(text, edition, message):
    with pytest.raises(WordListError) as refused:
        read_word_list(text, BUILTIN_EDITIONS[edition])
    assert refused.value.message == message
