"""The console log: a 403 is one line (issue 12: Django logs PermissionDenied with its whole traceback), a 500
keeps its traceback."""

import io
import logging

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def console():
    """What the site's console handler writes during the test."""
    handler = next(h for h in logging.getLogger("django").handlers if isinstance(h, logging.StreamHandler))
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


def test_a_403_is_logged_in_one_line(client, console, bob, lyon):
    client.force_login(bob)  # a member: only the club's admin adds members
    assert client.post("/clubs/lyon/membres/ajouter/", {"identifier": "charlie"}).status_code == 403
    lines = console.getvalue().splitlines()
    assert [line.split(" ", 2)[2] for line in lines] == [
        "WARNING django.request: Forbidden (Permission denied): /clubs/lyon/membres/ajouter/"
    ]


def test_a_500_keeps_its_traceback(console):
    logger = logging.getLogger("django.request")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        logger.error("Internal Server Error: /", exc_info=True, extra={"status_code": 500})
    assert "Traceback (most recent call last)" in console.getvalue()
    assert "RuntimeError: boom" in console.getvalue()
