"""The free word list in the counter and the API: a verdict per word, the move counted either way."""

import gzip
import html
import json
import random
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


def upload_list(admin_client, content: bytes, edition="fr", url="/admin/scoring/lexicon/add/"):
    """Post the admin's "Ajouter liste de mots" form with `content` as the file; the page's text, unescaped."""
    upload = SimpleUploadedFile("liste.txt", content)
    data = {"name": "Liste du club", "edition": Edition.objects.get(code=edition).pk, "licence": "", "upload": upload}
    response = admin_client.post(url, data)
    return response.status_code, html.unescape(response.content.decode())


@pytest.mark.parametrize(
    ("content", "edition", "message"),
    [
        (b"KIWI\nQI\n\x00\x01\x02", "fr", "Ligne 3 : ce fichier n'est pas du texte (caractère de contrôle U+0000)."),
        ("KIWI\nZÈBRE\nbon jour\n".encode(), "fr", "Ligne 3 (« bon jour ») : un seul mot par ligne."),
        (b"QI\nA1\n", "fr", "Ligne 2 (« A1 ») : l'édition « Français » n'a pas la lettre « 1 »."),
        (b"PIZZA\nJAZZ\n", "it", "Ligne 2 (« JAZZ ») : l'édition « Italien » n'a pas la lettre « J »."),
        (b"ANTICONSTITUTIONNELLEMENT", "fr", "Ligne 1 (« ANTICONSTITUTIONNELLEMENT ») : le mot compte 25 lettres : 15"),
        (gzip.compress(b"KIWI\nQI\n", mtime=0), "fr", "Ligne 1 : ce fichier n'est pas du texte"),
    ],
)
def test_an_upload_that_is_not_one_word_a_line_is_refused_with_its_line(admin_client, content, edition, message):
    status, page = upload_list(admin_client, content, edition)
    assert status == 200  # the admin's form again, with the reason
    assert message in page
    assert Lexicon.objects.count() == 1  # only the free list shipped with the site


def test_random_bytes_are_refused(admin_client):
    """Issue 12: 60 KB of random bytes were stored as 5,873 "words" with NUL bytes, and indexed."""
    status, page = upload_list(admin_client, random.Random(12).randbytes(60_000))
    assert re.search(r"Ligne \d+ : ce fichier n'est pas du texte \(caractère de contrôle U\+[0-9A-F]{4}\)\.", page)
    assert Lexicon.objects.count() == 1


def test_a_latin1_list_and_spanish_tiles_are_read(admin_client):
    status, _page = upload_list(admin_client, "zèbre\r\nça\r\nœil\r\n".encode())
    assert status == 302
    status, _page = upload_list(admin_client, "zèbre\nça\n".encode("iso-8859-1"))
    assert status == 302
    assert Lexicon.objects.get(name="Liste du club", word_count=2).build().words() == ["CA", "ZEBRE"]
    status, _page = upload_list(admin_client, "CHURRO\nÑANDÚ\nLLAMA\n".encode(), "es")
    assert status == 302


def test_a_refused_upload_leaves_the_list_as_it_was(admin_client):
    lexicon = Lexicon.objects.create(name="Liste du club", edition=Edition.objects.get(code="fr"))
    lexicon.set_words(["KIWI", "QI"])
    lexicon.save()
    status, page = upload_list(
        admin_client, b"KIWI\n\xff\xfe\x00\x00", url=f"/admin/scoring/lexicon/{lexicon.pk}/change/"
    )
    assert "Ligne 2 : ce fichier n'est pas du texte" in page
    lexicon.refresh_from_db()
    assert (lexicon.name, lexicon.word_count, lexicon.build().words()) == ("Liste du club", 2, ["KIWI", "QI"])


@pytest.mark.django_db(
    transaction=True, serialized_rollback=True
)  # queued when the admin's transaction commits, in the request
@pytest.mark.parametrize("failure", ["kombu", "socket"])
def test_with_the_broker_down_the_upload_is_saved_and_the_admin_told(admin_client, monkeypatch, caplog, failure):
    """Issue 13: the index's task could not be queued (Redis down): the list is saved all the same, the admin
    learns that the first search will build the index, and nothing answers 500. Issue 24: the refusal may come
    from the socket itself (an OSError, which answered 500) as well as from kombu, and it is logged, as every task
    sent through `clubsite.queue` is."""
    from kombu.exceptions import OperationalError

    from clubsite.celery import app
    from scoring.tasks import rebuild_move_index

    def refuse(*args, **kwargs):
        message = "Error 111 connecting to 127.0.0.1:6379. Connection refused."
        raise OperationalError(message) if failure == "kombu" else ConnectionRefusedError(message)

    monkeypatch.setattr(app.conf, "task_always_eager", False)
    monkeypatch.setattr(rebuild_move_index, "apply_async", refuse)
    upload = SimpleUploadedFile("liste.txt", b"zebre\nkiwi\n")
    french = Edition.objects.get(code="fr")
    response = admin_client.post(
        "/admin/scoring/lexicon/add/",
        {"name": "Liste du club", "edition": french.pk, "licence": "", "upload": upload},
        follow=True,
    )
    assert response.status_code == 200
    assert Lexicon.objects.filter(name="Liste du club").exists()
    assert (
        "L'index du chercheur de tops n'a pas pu être confié aux tâches de fond (service indisponible) : la "
        "première recherche le construira." in html.unescape(response.content.decode())
    )
    lexicon_id = Lexicon.objects.get(name="Liste du club").pk
    logged = [record.getMessage() for record in caplog.records if record.name == "clubsite.queue"]
    assert logged == [
        f"Broker unavailable, task scoring.tasks.rebuild_move_index({lexicon_id},) not queued: "
        "Error 111 connecting to 127.0.0.1:6379. Connection refused."
    ]


# ---- The list the counter's page downloads (issue 25): "Seul ce fichier transite". ----


def list_addresses(client, path="/"):
    """The address of each edition's list, as the counter's page gives it to its script."""
    return json.loads(
        re.search(r'<script id="word-lists" type="application/json">(.*?)</script>', client.get(path).content.decode())[
            1
        ]
    )


def test_the_page_gives_the_address_of_each_edition_s_list(client):
    """The French list only (no other edition has one), at an address carrying its version; the grid alike."""
    addresses = list_addresses(client)
    version = Lexicon.objects.get(edition__code="fr").download_version
    assert addresses == {"fr": f"/mots/liste/fr/{version}.txt.gz"}
    assert re.fullmatch(r"[0-9a-f]{16}", version)
    assert list_addresses(client, "/grille/") == addresses


def test_the_shipped_list_is_downloaded_as_it_is_shipped(client):
    """The gzip of the shipped file, which the browser decompresses, kept for good under its address."""
    response = client.get(list_addresses(client)["fr"])
    assert response.status_code == 200
    assert response["Content-Type"] == "application/gzip"
    assert "Content-Encoding" not in response
    assert response.content == Lexicon.BUILTIN_FILES["fr_dicollecte"].read_bytes()
    assert int(response["Content-Length"]) == len(response.content)
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    version = Lexicon.objects.get(edition__code="fr").download_version
    assert response["ETag"] == f'"{version}"'
    words = gzip.decompress(response.content).decode().split("\n")
    assert len(words) == 400_345 and words[-1] == "" and "ZEBRE" in words


def test_a_head_and_a_revalidation_send_no_words(client):
    address = list_addresses(client)["fr"]
    head = client.head(address)
    assert (head.status_code, head["Content-Type"], head.content) == (200, "application/gzip", b"")
    again = client.get(address, headers={"If-None-Match": head["ETag"]})
    assert (again.status_code, again.content) == (304, b"")


def test_a_list_saved_again_moves_to_a_new_address(client):
    """The admin saved the list: the pages give a new address, the old one is gone (it never serves other bytes)."""
    before = list_addresses(client)["fr"]
    lexicon = Lexicon.objects.get(edition__code="fr")
    lexicon.licence += " (relue)"
    lexicon.save()
    after = list_addresses(client)["fr"]
    assert after != before
    assert client.get(before).status_code == 404
    assert client.get(after).status_code == 200


def test_a_new_shipped_file_moves_the_list_to_a_new_address(client, monkeypatch, tmp_path):
    """A deployment that ships another file changes the version, the row unchanged."""
    before = list_addresses(client)["fr"]
    shipped = tmp_path / "fr_dicollecte.txt.gz"
    shipped.write_bytes(gzip.compress(b"KIWI\nZEBRE\n"))
    monkeypatch.setitem(Lexicon.BUILTIN_FILES, "fr_dicollecte", shipped)
    after = list_addresses(client)["fr"]
    assert after != before
    assert gzip.decompress(client.get(after).content) == b"KIWI\nZEBRE\n"


def test_an_uploaded_list_is_downloaded_normalised(client):
    """A club's list for Spanish: its words as the engine stores them, sorted, CH and Ñ as the engine reads them."""
    lexicon = Lexicon.objects.create(name="Lista del club", edition=Edition.objects.get(code="es"), is_default=True)
    lexicon.set_words(["ñandú", "CHURRO", "llama", "# un comentario"])
    lexicon.save()
    address = list_addresses(client)["es"]
    response = client.get(address)
    assert response.status_code == 200
    assert gzip.decompress(response.content).decode() == "CHURRO\nLLAMA\nNANDU"


@pytest.mark.parametrize(
    "path",
    ["/mots/liste/fr/0000000000000000.txt.gz", "/mots/liste/en/0000000000000000.txt.gz", "/mots/liste/xx/1.txt.gz"],
)
def test_an_address_no_list_has_is_a_404(client, path):
    assert client.get(path).status_code == 404


def test_the_download_takes_no_post(client):
    response = client.post(list_addresses(client)["fr"])
    assert response.status_code == 405
