"""French typography: after a colon, a sentence goes on in lowercase (trial of issue 11: "Coup 2 : Score …")."""

import pytest

from scoring.engine.errors import clause


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Aucun joueur à la table 21.", "aucun joueur à la table 21."),
        ("À la table 3 personne.", "à la table 3 personne."),
        ("H4 VAGUE ne se joue pas.", "H4 VAGUE ne se joue pas."),  # a square and a word played keep capitals
        ("ODS absent.", "ODS absent."),
        ("« 3x » : un score en chiffres.", "« 3x » : un score en chiffres."),
        ("", ""),
    ],
)
def test_clause(text, expected):
    assert clause(text) == expected
