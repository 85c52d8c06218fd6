"""The service worker (issue 25): served at the site's root, with the pages and static files it keeps for a visit
without the network and the version that names them, which changes with the site's files and with the rows its
pages show, the same in every process. The browser tests (tests/e2e/test_offline.py) cut the network."""

import json
import os
import re
import subprocess
import sys

import pytest
from django.urls import reverse

from clubsite import offline
from scoring.models import EditionLetter

pytestmark = pytest.mark.django_db


def kept(response) -> dict:
    """What the worker is told to keep: the object put before its source."""
    return json.loads(re.match(r"self\.OFFLINE = (.*?);\n", response.content.decode())[1])


def test_the_worker_is_served_at_the_root_with_what_it_keeps(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    assert response["Service-Worker-Allowed"] == "/"
    what = kept(response)
    assert response["ETag"] == f'"{what["version"]}"'
    assert what["pages"] == [
        "/",
        "/grille/",
        "/parties/locale/",
        "/aide/",
        "/aide/points/",
        "/aide/feuille/",
        "/aide/lettres/",
    ]
    assert {"/static/css/site.css", "/static/js/counter_page.js", "/static/js/word_list.js"} <= set(what["assets"])
    assert "/static/js/service_worker.js" not in what["assets"]
    assert (what["staticUrl"], what["immutableStatic"]) == ("/static/", False)
    assert 'self.addEventListener("fetch"' in response.content.decode()


def test_a_revalidation_of_the_same_version_is_a_304(client):
    first = client.get("/sw.js")
    again = client.get("/sw.js", headers={"If-None-Match": first["ETag"]})
    assert (again.status_code, again.content, again["ETag"]) == (304, b"", first["ETag"])
    head = client.head("/sw.js")
    assert (head.status_code, head.content, head["ETag"]) == (200, b"", first["ETag"])


def test_every_offline_page_is_open_to_a_visitor(client):
    """The worker keeps them as a visitor sees them: one the server refused would stop it from keeping any."""
    for name in offline.OFFLINE_PAGES:
        response = client.get(reverse(name))
        assert response.status_code == 200, name
        assert 'data-worker="/sw.js"' in response.content.decode(), name


def test_a_static_file_changed_makes_a_new_version(client, settings, tmp_path):
    """A deployment with another static file, or runserver's files changed (read again under DEBUG)."""
    settings.DEBUG = True
    settings.STATICFILES_DIRS = [*settings.STATICFILES_DIRS, tmp_path]
    before = kept(client.get("/sw.js"))
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "new.js").write_text("// a new file\n")
    after = kept(client.get("/sw.js"))
    assert after["version"] != before["version"]
    assert "/static/js/new.js" in after["assets"]
    (tmp_path / "js" / "new.js").write_text("// changed\n")
    assert kept(client.get("/sw.js"))["version"] != after["version"]


def test_a_letter_value_changed_in_the_admin_makes_a_new_version(client):
    """The kept pages embed the editions' figures: an offline count must not take the old value of a letter."""
    before = kept(client.get("/sw.js"))["version"]
    letter = EditionLetter.objects.get(edition__code="fr", letter="K")
    letter.value = 12
    letter.save()
    assert kept(client.get("/sw.js"))["version"] != before


def test_every_process_computes_the_same_files_digest(settings, tmp_path):
    """Nothing in the version is one process's own (no time, no random): another web process gives the same. Both
    read the same folders of their own, which no other test writes meanwhile."""
    folders = {name: tmp_path / name for name in ("static", "templates", "locale")}
    for name, folder in folders.items():
        (folder / "sub").mkdir(parents=True)
        (folder / "sub" / f"{name}.txt").write_text(f"{name}\n")
        (folder / "a.txt").write_text("a\n")
    settings.STATICFILES_DIRS = [folders["static"]]
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [folders["templates"]]}]
    settings.LOCALE_PATHS = [folders["locale"]]
    code = (
        "import django; django.setup(); from django.conf import settings; "
        f"settings.STATICFILES_DIRS = [{str(folders['static'])!r}]; "
        f"settings.TEMPLATES[0]['DIRS'] = [{str(folders['templates'])!r}]; "
        f"settings.LOCALE_PATHS = [{str(folders['locale'])!r}]; "
        "from clubsite import offline; print(offline._digest_of_files())"
    )
    other = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "clubsite.settings"},
    )
    assert other.stdout.strip() == offline._digest_of_files()


def test_the_policy_lets_the_worker_run(client):
    assert "worker-src 'self'" in client.get("/")["Content-Security-Policy"]
