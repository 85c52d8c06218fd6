"""Issue 23: under `make run` (DEBUG, mail printed to the console) a sign-up's link copied from the terminal
works. Django's own console backend printed the mail quoted-printable, its long link cut by a "=" that the copy
kept, and the site refused it ("Ce lien n'est plus valable")."""

import email
import email.policy
import io
import os
import re
import subprocess
import sys

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse
from django.utils.module_loading import import_string

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def development_backend() -> str:
    """The mail backend of `make run`: the settings read in a fresh interpreter with no DJANGO_* variable."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("DJANGO_")}
    env["DJANGO_SETTINGS_MODULE"] = "clubsite.settings"
    code = (
        "import django; django.setup(); from django.conf import settings; print(settings.MAILERS['default']['BACKEND'])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_console_prints_the_sign_up_link_whole_and_it_works(client):
    data = {"username": "dave", "email": "dave@example.org", "password1": PASSWORD, "password2": PASSWORD}
    client.post(reverse("signup"), data)
    [message] = mail.outbox
    stream = io.StringIO()

    import_string(development_backend())(stream=stream).send_messages([message])

    printed = stream.getvalue()
    sent = re.search(r"^http://testserver/compte/inscription/confirmer/\S+/$", message.body, re.M).group()
    copied = re.search(r"http://testserver/\S+", printed).group()
    assert len(sent) > 78  # longer than a mail's line: Django's console printed it cut
    assert copied == sent
    assert f"Subject: {message.subject}\n" in printed
    page = client.get(copied.removeprefix("http://testserver"))
    assert page.status_code == 200
    assert "Activer mon compte" in page.text
    # What SMTP sends is unchanged: short lines (quoted-printable), which read back as written.
    raw = message.message(policy=email.policy.SMTP).as_bytes()
    assert max(len(line) for line in raw.split(b"\r\n")) <= 78
    read_back = email.message_from_bytes(raw, policy=email.policy.default).get_content()
    assert read_back.splitlines() == message.body.splitlines()
