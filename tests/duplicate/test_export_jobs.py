"""Exports of large sessions, built by a worker: started by a POST only, a finished file reused while the session
has not changed, old files deleted by a periodic task."""

import datetime

import pytest
from django.utils import timezone

from clubsite.celery import app
from duplicate import services
from duplicate.models import ExportJob
from duplicate.tasks import export_purge

from .conftest import make_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def large(settings, alice, lyon):
    """A session above the size exported at once (three players, the threshold lowered to two)."""
    settings.DUPLICATE_EXPORT_INLINE_MAX_PLAYERS = 2
    session = make_session(alice, lyon, players=("Anne", "Bruno", "Chloé"))
    round_ = services.round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    for player, score in zip(session.players.all(), (20, 26, 18), strict=True):
        services.result_set(round_=round_, player=player, score=score)
    return session


@pytest.fixture
def export(client, alice, django_capture_on_commit_callbacks):
    """POST "Préparer le fichier" for a kind (tasks run eagerly without a broker); the redirect's address."""
    client.force_login(alice)

    def post(session, kind="federation"):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(f"/duplicate/{session.pk}/export/{kind}/")
        assert response.status_code == 302
        return response["Location"]

    return post


def test_a_large_session_is_exported_by_a_worker_with_progress(client, large, export):
    location = export(large)
    job = large.export_jobs.get()
    assert location == f"/duplicate/{large.pk}/exports/{job.pk}/"
    assert "Le fichier est prêt." in client.get(location).content.decode()
    download = client.get(f"/duplicate/{large.pk}/exports/{job.pk}/fichier/")
    assert download.content.decode("iso-8859-1").splitlines() == [
        '"1","Anne","20"',
        '"2","Bruno","26"',
        '"3","Chloé","18"',
    ]
    job.refresh_from_db()
    assert (job.status, job.progress) == ("done", 100)


def test_a_get_shows_the_button_and_starts_nothing(client, large, alice):
    """Issue 12: each GET of the export address created a new job (a crawler, a prefetch, a reload)."""
    client.force_login(alice)
    url = f"/duplicate/{large.pk}/export/xlsx/"
    for _ in range(3):
        response = client.get(url)
        assert response.status_code == 200
    html = response.content.decode()
    assert f'<form method="post" action="{url}"' in html
    assert "Préparer le fichier" in html
    assert not ExportJob.objects.exists()
    assert f'action="/duplicate/{large.pk}/export/xlsx/"' in client.get(f"/duplicate/{large.pk}/").content.decode()


def test_a_finished_file_is_reused_until_the_session_changes(client, large, export):
    first = export(large)
    assert export(large) == first  # the same results: the same file
    assert ExportJob.objects.count() == 1
    assert export(large, "csv") != first  # another kind: its own file
    services.result_set(round_=large.rounds.get(), player=large.players.first(), score=22)
    fresh = export(large)
    assert fresh != first
    assert ExportJob.objects.filter(kind="federation").count() == 2
    assert '"1","Anne","22"' in client.get(f"{fresh}fichier/").content.decode("iso-8859-1")
    html = client.get(first).content.decode()
    assert "Les résultats ont changé depuis ce fichier." in html


def test_a_failed_export_is_not_reused(large, export):
    first = export(large)
    ExportJob.objects.update(status=ExportJob.Status.FAILED)
    assert export(large) != first


def test_a_stuck_export_is_not_reused(client, large, export):
    """A job still waiting long after it was asked for (its worker died) would have blocked a new one for a day."""
    first = export(large)
    ExportJob.objects.update(status=ExportJob.Status.PENDING)
    assert export(large) == first  # still under way
    ExportJob.objects.update(created_at=timezone.now() - datetime.timedelta(minutes=11))
    assert "La préparation semble bloquée : relancez-la." in client.get(first).content.decode()
    assert export(large) != first


def test_old_export_files_are_deleted_by_a_periodic_task(settings, large, alice):
    settings.DUPLICATE_EXPORT_RETENTION_HOURS = 24
    old, recent = (
        ExportJob.objects.create(session=large, kind="csv", requested_by=alice, status=ExportJob.Status.DONE)
        for _ in range(2)
    )
    ExportJob.objects.filter(pk=old.pk).update(created_at=timezone.now() - datetime.timedelta(hours=25))
    assert export_purge.delay().get() == 1
    assert list(ExportJob.objects.all()) == [recent]
    schedule = app.conf.beat_schedule["duplicate-export-purge"]
    assert schedule["task"] == export_purge.name == "duplicate.tasks.export_purge"
