"""The free word list in the counter and the API: a verdict per word, the move counted either way."""

import json
import re

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from scoring.models import Edition, Lexicon

pytestmark = pytest.mark.django_db


def verdicts(html):
    return re.findall(r'<span class="verdict (?:in|out)">(.*?)</span>', html)


def test_the_free_french_list_is_the_french_default():
    lexicon = Lexicon.objects.engine_for("fr")
    assert len(lexicon) == 400_344
    assert "KIWI" in lexicon and "ZEBRE" in lexicon
    assert "FAQIR" not in lexicon
    assert Lexicon.objects.engine_for("en") is None


def test_api_returns_in_list_only_when_asked(client):
    body = {"board": ["H4 VAGUE"], "move": "4G AVIONS", "check_words": True}
    response = client.post("/api/score", json.dumps(body), content_type="application/json")
    assert response.json()["words"] == [
        {"word": "AVIONS", "score": 18, "calculation": "(1 + 4 + 1 + 1 + 1 + 1) × 2 = 18", "in_list": True}
    ]
    body = {"move": "H8 KA", "check_words": True}
    response = client.post("/api/score", json.dumps(body), content_type="application/json")
    assert (response.json()["score"], response.json()["words"][0]["in_list"]) == (22, False)
    body = {"move": "H8 KA"}
    response = client.post("/api/score", json.dumps(body), content_type="application/json")
    assert "in_list" not in response.json()["words"][0]


def test_api_check_words_without_a_list_is_a_422(client):
    body = {"edition": "en", "move": "H8 QI", "check_words": True}
    response = client.post("/api/score", json.dumps(body), content_type="application/json")
    assert (response.status_code, response.json()) == (
        422,
        {"detail": "Aucune liste de mots n'est définie pour l'édition « en »."},
    )


def test_typed_counter_verdicts_and_the_note(client):
    data = {"words": "2", "w0": "ZÈBRE", "w1": "FAQIR", "check": "1"}
    html = client.post("/", data).content.decode()
    assert verdicts(html) == ["Dans la liste", "Absent de la liste"]
    assert "Liste libre (Grammalecte), pas l'ODS : un repère sans valeur officielle." in html
    assert re.search(r'id="total">(\d+)<', html)[1] == "31"  # ZEBRE 16 + FAQIR 15: counted either way


def test_unchecked_by_default(client):
    html = client.post("/", {"w0": "ZEBRE"}).content.decode()
    assert verdicts(html) == []
    assert 'name="check" value="1">' in html


def test_grid_verdicts(client):
    html = client.post("/grille/", {"start": "H7", "letters": "KA", "check": "1"}).content.decode()
    assert verdicts(html) == ["Absent de la liste"]
    html = client.post("/grille/", {"start": "H7", "letters": "QI", "check": "1"}).content.decode()
    assert verdicts(html) == ["Dans la liste"]


@pytest.fixture
def admin_client(client):
    client.force_login(User.objects.create_superuser("arbitre", "arbitre@example.org", "x"))
    return client


def test_a_club_uploads_its_own_list_and_makes_it_the_default(
    admin_client, django_capture_on_commit_callbacks, tmp_path, monkeypatch
):
    monkeypatch.setenv("CLUBSITE_CACHE_DIR", str(tmp_path))
    Lexicon.objects.filter(edition__code="fr").update(is_default=False)
    upload = SimpleUploadedFile("liste.txt", "# ma liste\nzèbre\nKIWI\n\nfaqir\n".encode())
    french = Edition.objects.get(code="fr")
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            "/admin/scoring/lexicon/add/",
            {"name": "Liste du club", "edition": french.pk, "is_default": "on", "licence": "", "upload": upload},
        )
    assert response.status_code == 302
    assert len(list(tmp_path.glob("gaddag-*.bin"))) == 1  # the top finder's index was rebuilt by the task
    lexicon = Lexicon.objects.engine_for("fr")
    assert len(lexicon) == 3
    assert "FAQIR" in lexicon and "ZEBRE" in lexicon


def test_an_upload_without_words_is_refused(admin_client):
    french = Edition.objects.get(code="fr")
    upload = SimpleUploadedFile("vide.txt", b"# rien\n\n")
    response = admin_client.post(
        "/admin/scoring/lexicon/add/", {"name": "Vide", "edition": french.pk, "upload": upload}
    )
    assert response.status_code == 200
    assert "Ce fichier ne contient aucun mot." in response.content.decode()
    assert Lexicon.objects.count() == 1
