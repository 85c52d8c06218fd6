"""Editions and rule sets in the database: loaded by migrations, validated in the admin, rebuilt after a save."""

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from scoring.engine.editions import BUILTIN_EDITIONS
from scoring.engine.movegen import MAX_RACK
from scoring.engine.rules import BUILTIN_RULE_SETS
from scoring.models import Edition, EditionLetter, RuleSet, UnknownChoice
from scoring.schemas import TopIn, WordsIn

pytestmark = pytest.mark.django_db


def test_migrations_load_the_nine_editions_and_both_rule_sets():
    assert Edition.objects.count() == 9
    assert Edition.objects.default().code == "fr"
    for code, edition in BUILTIN_EDITIONS.items():
        assert Edition.objects.engine(code) == edition
    assert {rules.code for rules in RuleSet.objects.all()} == {"tournoi", "boite"}
    for code, rules in BUILTIN_RULE_SETS.items():
        assert RuleSet.objects.engine(code) == rules
    assert RuleSet.objects.engine().code == "tournoi"


def test_unknown_codes_name_the_choices():
    with pytest.raises(UnknownChoice) as caught:
        RuleSet.objects.engine("partie-libre")
    assert caught.value.message == "Jeu de règles inconnu : « partie-libre ». Jeux disponibles : boite, tournoi."


def test_a_saved_letter_refreshes_the_engine_edition():
    assert Edition.objects.engine("fr").values["Z"] == 10
    letter = EditionLetter.objects.get(edition__code="fr", letter="Z")
    letter.value = 12
    letter.save()
    assert Edition.objects.engine("fr").values["Z"] == 12


def test_a_saved_rule_set_refreshes_the_engine_rules():
    assert RuleSet.objects.engine("tournoi").bingo_bonus == 50
    RuleSet.objects.filter(code="tournoi").update(bingo_bonus=55)  # another process's save: no signal here
    rules = RuleSet.objects.get(code="tournoi")
    rules.save()
    assert RuleSet.objects.engine("tournoi").bingo_bonus == 55


def test_letter_validation():
    french = Edition.objects.get(code="fr")
    with pytest.raises(ValidationError) as caught:
        EditionLetter(edition=french, letter="1", count=1, value=1).full_clean()
    assert "letter" in caught.value.message_dict
    with pytest.raises(ValidationError) as caught:
        EditionLetter(edition=french, letter="?", count=2, value=3).full_clean()
    assert caught.value.message_dict["value"] == ["Le joker vaut toujours 0."]
    with pytest.raises(ValidationError) as caught:
        EditionLetter(edition=french, letter="A", count=-1, value=1).full_clean()
    assert "count" in caught.value.message_dict
    with pytest.raises(ValidationError) as caught:
        EditionLetter(edition=french, letter="E", count=1, value=1).full_clean()
    assert caught.value.messages == ["Un objet Lettre avec ces champs Edition et Lettre existe déjà."]
    EditionLetter(edition=french, letter="L·L", count=1, value=10).full_clean()


def test_rule_set_validation():
    rules = RuleSet.objects.get(code="boite")
    rules.max_players = 1
    rules.move_seconds_choices = "60,trois"
    with pytest.raises(ValidationError) as caught:
        rules.full_clean()
    assert set(caught.value.message_dict) == {"max_players", "move_seconds_choices"}


@pytest.fixture
def admin_client(client):
    client.force_login(User.objects.create_superuser("arbitre", "arbitre@example.org", "x"))
    return client


def inline_data(edition, **changes):
    """The admin change form's POST data for an edition, its letters as they are, then `changes`."""
    letters = list(edition.letters.all())
    data = {
        "code": edition.code,
        "name": edition.name,
        "is_default": "on" if edition.is_default else "",
        "letters-TOTAL_FORMS": str(len(letters)),
        "letters-INITIAL_FORMS": str(len(letters)),
        "letters-MIN_NUM_FORMS": "0",
        "letters-MAX_NUM_FORMS": "1000",
    }
    for i, letter in enumerate(letters):
        data.update(
            {
                f"letters-{i}-id": str(letter.pk),
                f"letters-{i}-edition": str(edition.pk),
                f"letters-{i}-position": str(letter.position),
                f"letters-{i}-letter": letter.letter,
                f"letters-{i}-count": str(letter.count),
                f"letters-{i}-value": str(letter.value),
                f"letters-{i}-is_vowel": "on" if letter.is_vowel else "",
                f"letters-{i}-is_consonant": "on" if letter.is_consonant else "",
            }
        )
    data.update(changes)
    return data


def test_admin_edits_a_letter_and_the_engine_follows(admin_client):
    french = Edition.objects.get(code="fr")
    z_row = [letter.letter for letter in french.letters.all()].index("Z")
    response = admin_client.post(
        f"/admin/scoring/edition/{french.pk}/change/", inline_data(french, **{f"letters-{z_row}-value": "11"})
    )
    assert response.status_code == 302
    assert Edition.objects.engine("fr").values["Z"] == 11


def test_admin_refuses_a_negative_count_and_a_letter_twice(admin_client):
    french = Edition.objects.get(code="fr")
    url = f"/admin/scoring/edition/{french.pk}/change/"
    response = admin_client.post(url, inline_data(french, **{"letters-0-count": "-3"}))
    assert response.status_code == 200
    assert "Assurez-vous que cette valeur est supérieure ou égale à 0." in response.content.decode()
    response = admin_client.post(url, inline_data(french, **{"letters-1-letter": "A"}))
    assert response.status_code == 200
    assert "Un objet Lettre avec ces champs Edition et Lettre existe déjà." in response.content.decode()
    assert Edition.objects.engine("fr") == BUILTIN_EDITIONS["fr"]


def test_admin_lists_rule_sets(admin_client):
    response = admin_client.get("/admin/scoring/ruleset/")
    assert response.status_code == 200
    assert "Règles de tournoi (FISF)" in response.content.decode()


def test_admin_shows_the_largest_penalty_on_one_move(admin_client):
    rules = RuleSet.objects.get(code="tournoi")
    html = admin_client.get(f"/admin/scoring/ruleset/{rules.pk}/change/").content.decode()
    assert "Pénalité au plus sur un coup" in html
    assert 'name="max_penalty" value="100"' in html
    assert "Le plus de points qu'une pénalité de l'arbitre peut retirer sur un coup, en duplicate." in html


def test_a_rack_holds_as_many_tiles_as_the_top_finder_reads():
    """The admin's bound on a rule set's rack is the engine's (movegen.MAX_RACK), and so are the API's."""
    rules = RuleSet.objects.get(code="boite")
    rules.rack_size = MAX_RACK
    rules.full_clean()
    rules.rack_size = MAX_RACK + 1
    with pytest.raises(ValidationError) as caught:
        rules.full_clean()
    assert caught.value.message_dict == {"rack_size": [f"Un chevalet porte de 1 à {MAX_RACK} jetons."]}
    assert f"{MAX_RACK} jetons au plus" in TopIn.model_fields["rack"].description
    assert f"({MAX_RACK} au plus)" in WordsIn.model_fields["letters"].description
