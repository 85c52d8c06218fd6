"""A GCG file is the one form field whose bad values are bytes: "Importer une partie" must refuse a file that is not
text, or whose text holds what no column can keep, with the reason, and leave nothing behind."""

import pytest
from django.urls import reverse

from .test_pages import VALID_GCG, gcg_upload, refusal_message

pytestmark = pytest.mark.django_db

HEAD = b"#player1 ann Ann\n#player2 ben Ben\n"
PLAY = b">ann: AEGUV?? 8D VAGUE +26 26\n"
UTF8 = b"#character-encoding UTF-8\n"

BAD_FILES = {
    "not_utf8_after_its_pragma": b"#character-encoding UTF-8\n" + HEAD + b">ann: AEGUV?? 8D VAGU\xc9 +26 26\n",
    "nul_in_a_name": b"#player1 ann An\x00n\n#player2 ben Ben\n" + PLAY,
    "nul_in_a_nick": b"#player1 a\x00nn Ann\n#player2 ben Ben\n>a\x00nn: AEGUV?? 8D VAGUE +26 26\n",
    "nul_in_a_move": HEAD + b">ann: AEGUV?? 8D VAG\x00UE +26 26\n",
    "nul_in_the_rules_pragma": HEAD + b"#clubsite-rules tour\x00noi\n" + PLAY,
    "nul_in_the_edition_pragma": HEAD + b"#tile-distribution fre\x00nch\n" + PLAY,
    "nul_in_a_member_pragma": HEAD + b"#clubsite-member1 ali\x00ce\n" + PLAY,
    "score_beyond_the_column": HEAD + b">ann: AEGUV?? 8D VAGUE +99999999999 99999999999\n",
    "score_beyond_64_bits": HEAD + b">ann: AEGUV?? 8D VAGUE +" + b"9" * 25 + b" 26\n",
    "penalty_beyond_the_column": HEAD + PLAY + b">ben: - (time) -99999999999 -99999999999\n",
    "superscript_score": HEAD + b">ann: AEGUV?? 8D VAGUE +\xc2\xb2 26\n".replace(b"\xc2\xb2", "²".encode("latin-1")),
    # Issue 23: a name or a move that would lie on the sheet (in UTF-8, or ISO-8859-1's C1 controls).
    "right_to_left_override_in_a_name": UTF8 + b"#player1 ann \xe2\x80\xaeAnn\n#player2 ben Ben\n" + PLAY,
    "zero_width_space_in_a_nick": UTF8 + (HEAD + PLAY).replace(b"ann", b"a\xe2\x80\x8bnn"),
    "byte_order_mark_inside_a_name": UTF8 + b"#player1 ann An\xef\xbb\xbfn\n#player2 ben Ben\n" + PLAY,
    "bell_in_a_move": HEAD + b">ann: AEGUV?? 8D VAG\x07UE +26 26\n",
    "c1_control_in_a_latin1_name": b"#player1 ann O\x92Brien\n#player2 ben Ben\n" + PLAY,
    "random_bytes": bytes(range(256)) * 8,
    "empty": b"",
}


# Readable, if odd: imported, what does not fit a column cut to it (a long name, the reason quoting a long word).
ODD_FILES = {
    "a_long_name": b"#player1 ann " + b"A" * 10_000 + b"\n#player2 ben Ben\n" + PLAY,
    "a_long_word": HEAD + b">ann: AEGUV?? 8D " + b"VAGUE" * 2000 + b" +26 26\n",
    # Three players and one end line: the letters left cannot be told apart, they stay as adjustment lines.
    "a_long_end_rack": HEAD + b"#player3 cat Cat\n" + PLAY + b">ben: (" + b"E" * 10_000 + b") +20 20\n",
}


@pytest.mark.parametrize("name", sorted(ODD_FILES))
def test_import_takes_an_odd_file_without_breaking(name, world, owner_client, isolated):
    url = reverse("sheets:import")
    response, changed, beyond = isolated(
        lambda: owner_client.post(url, {"file": gcg_upload(ODD_FILES[name]), "rule_set": world.game.rule_set_id})
    )
    assert response.status_code in (302, 400)
    assert (response.status_code == 302) == bool(changed)
    assert beyond == []


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_import_refuses_a_bad_file(name, world, owner_client, isolated):
    url = reverse("sheets:import")
    response, changed, _beyond = isolated(
        lambda: owner_client.post(url, {"file": gcg_upload(BAD_FILES[name]), "rule_set": world.game.rule_set_id})
    )
    assert (response.status_code, changed) == (400, [])
    assert refusal_message(response)


def test_the_valid_file_is_imported(world, owner_client, isolated):
    url = reverse("sheets:import")
    response, changed, _beyond = isolated(
        lambda: owner_client.post(url, {"file": gcg_upload(VALID_GCG), "rule_set": world.game.rule_set_id})
    )
    assert response.status_code == 302
    assert "sheets.Game" in changed
