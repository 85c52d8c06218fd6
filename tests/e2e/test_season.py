"""A club's season in Chromium: an organiser creates it through its form, reads its ranking and downloads it."""

import datetime
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.duplicate.conftest import AVIONS, VAGUE, played_session

from .conftest import log_in_as

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def autumn_evenings(organiser, club):
    """Two finished evenings of the Club de Lyon (`club`), run by `organiser`: tops 44 then 26."""
    played_session(organiser, club, datetime.date(2026, 9, 15), [VAGUE, AVIONS], {"Anne": (26, 18), "Bruno": (20, 13)})
    played_session(organiser, club, datetime.date(2026, 10, 13), [VAGUE], {"Anne": (13,), "Bruno": (26,)})
    return club


def test_an_organiser_creates_a_season_and_downloads_its_ranking(page, alice, lyon):
    autumn_evenings(log_in_as(page, alice), lyon)
    page.goto("/duplicate/")
    page.get_by_role("link", name="Saisons").click()
    page.get_by_label("Nom de la saison").fill("Saison 2026")
    page.get_by_label("Du", exact=True).fill("2026-09-01")
    page.get_by_label("Au", exact=True).fill("2026-08-31")
    page.get_by_role("button", name="Créer la saison").click()
    expect(page.locator(".error")).to_have_text("La saison finit le jour où elle commence ou après.")

    page.get_by_label("Au", exact=True).fill("2027-06-30")
    page.get_by_label("Les meilleures séances de chaque joueur").check()
    page.get_by_label("Nombre de meilleures séances retenues").fill("1")
    page.get_by_role("button", name="Créer la saison").click()
    expect(page.locator("h1")).to_have_text("Saison 2026")
    # Best session of each: Anne 44/44 (100 %), Bruno 26/26 (100 %): they share the first place.
    rows = page.locator("table.ranking tbody tr")
    expect(rows).to_have_text(
        [re.compile(r"1\s*Anne\s*100,00 %\s*44\s*1/2"), re.compile(r"1\s*Bruno\s*100,00 %\s*26\s*1/2")]
    )
    with page.expect_download() as download:
        page.get_by_role("link", name="CSV", exact=True).click()
    assert download.value.suggested_filename == "saison-2026-saison-2026.csv"
    lines = Path(download.value.path()).read_text(encoding="utf-8-sig").splitlines()
    assert lines[-2:] == ["1;Anne;2;1;44;100,0", "1;Bruno;2;1;26;100,0"]

    page.get_by_role("link", name="Modifier la saison").click()
    page.get_by_label("Total des points").check()
    page.get_by_label("Toutes les séances").check()
    page.get_by_role("button", name="Enregistrer").click()
    # Every session, by total: Bruno 33 + 26, Anne 44 + 13.
    expect(rows).to_have_text([re.compile(r"1\s*Bruno\s*87,50 %\s*59\s*2"), re.compile(r"2\s*Anne\s*75,00 %\s*57\s*2")])
