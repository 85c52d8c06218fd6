"""Exports of large sessions, built by a worker: started by a POST only, a finished file reused while the session
has not changed, old files deleted by a periodic task."""

import datetime
from html import unescape

import pytest
from django.db import InterfaceError
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from clubsite.celery import app
from duplicate.models import ExportJob
from duplicate.services.results import result_set
from duplicate.services.rounds import round_add
from duplicate.tasks import export_mark_stuck, export_purge, export_session

from .conftest import make_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def large(settings, alice, lyon):
    """A session above the size exported at once (three players, the threshold lowered to two)."""
    settings.DUPLICATE_EXPORT_INLINE_MAX_PLAYERS = 2
    session = make_session(alice, lyon, players=("Anne", "Bruno", "Chloé"))
    round_ = round_add(session=session, draw_text="VAGUEST", top_text="H4 VAGUE")
    for player, score in zip(session.players.all(), (20, 26, 18), strict=True):
        result_set(round_=round_, player=player, score=score)
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
    result_set(round_=large.rounds.get(), player=large.players.first(), score=22)
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


def test_a_stuck_export_is_marked_failed_and_offered_again(client, large, export, settings):
    """Issue 13: a worker killed mid-task left its job "running" forever on the organiser's page. A job that has
    not moved for DUPLICATE_EXPORT_STUCK_SECONDS is marked failed with its reason, and the page offers to start it
    again."""
    settings.DUPLICATE_EXPORT_STUCK_SECONDS = 300
    first = export(large)
    ExportJob.objects.update(status=ExportJob.Status.RUNNING, progress=40)
    assert export(large) == first  # still under way
    ExportJob.objects.update(updated_at=timezone.now() - datetime.timedelta(seconds=290))
    assert "En cours" in client.get(first).content.decode()
    ExportJob.objects.update(updated_at=timezone.now() - datetime.timedelta(seconds=301))
    html = unescape(client.get(first).content.decode())
    assert (
        "L'export a échoué : la préparation s'est arrêtée sans finir (le service qui prépare les fichiers a été "
        "interrompu)." in html
    )
    assert "Relancer la préparation (Fichier fédéral)" in html
    job = ExportJob.objects.get()
    assert (job.status, job.finished_at is not None) == ("failed", True)
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
    schedule = app.conf.beat_schedule["duplicate-export-mark-stuck"]
    assert schedule["task"] == export_mark_stuck.name == "duplicate.tasks.export_mark_stuck"


def test_a_periodic_task_marks_the_stuck_jobs_failed(settings, large, alice):
    settings.DUPLICATE_EXPORT_STUCK_SECONDS = 300
    stuck, moving, done = (
        ExportJob.objects.create(session=large, kind="csv", requested_by=alice, status=status)
        for status in (ExportJob.Status.PENDING, ExportJob.Status.RUNNING, ExportJob.Status.DONE)
    )
    long_ago = timezone.now() - datetime.timedelta(seconds=400)
    ExportJob.objects.filter(pk__in=(stuck.pk, done.pk)).update(updated_at=long_ago)
    assert export_mark_stuck.delay().get() == 1
    assert dict(ExportJob.objects.values_list("pk", "status")) == {
        stuck.pk: "failed",
        moving.pk: "running",
        done.pk: "done",
    }


def test_the_export_task_is_safe_to_run_twice(large, export):
    """Issue 13: tasks are acknowledged when they finish, so a worker killed mid-task leaves its task to another:
    a job already built is left as it is, one started before is built again, one deleted meanwhile is skipped."""
    location = export(large)
    job = ExportJob.objects.get()
    finished = job.finished_at
    export_session.delay(job.pk)
    job.refresh_from_db()
    assert (job.status, job.finished_at) == ("done", finished)
    ExportJob.objects.update(status=ExportJob.Status.RUNNING, progress=60, content=b"")
    export_session.delay(job.pk)
    job.refresh_from_db()
    assert (job.status, job.progress) == ("done", 100)
    assert bytes(job.content).decode("iso-8859-1").splitlines()[0] == '"1","Anne","20"'
    assert location.endswith(f"/{job.pk}/")
    job.delete()
    export_session.delay(job.pk)  # nothing to do, no error
    assert app.conf.task_acks_late and app.conf.task_reject_on_worker_lost
    assert app.conf.worker_prefetch_multiplier == 1


@pytest.fixture
def broker_down(monkeypatch):
    """The broker cannot be reached: queuing a task raises what kombu raises then (the real Redis is stopped by
    the fault tests of .ci/run)."""
    monkeypatch.setattr(app.conf, "task_always_eager", False)

    def refuse(*args, **kwargs):
        raise KombuOperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(export_session, "apply_async", refuse)


def test_with_the_broker_down_a_session_small_enough_is_exported_in_the_request(client, large, alice, broker_down):
    """Issue 13: with Redis down, the export request hung 19 s, answered 500, and left its job "pending" forever."""
    client.force_login(alice)
    response = client.post(f"/duplicate/{large.pk}/export/federation/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="2026-11-24-mardi-soir-federation.csv"'
    assert response.content.decode("iso-8859-1").splitlines()[0] == '"1","Anne","20"'
    assert not ExportJob.objects.exists()


def test_with_the_broker_down_a_large_session_says_the_exports_are_unavailable(
    client, large, alice, broker_down, settings
):
    settings.DUPLICATE_EXPORT_FALLBACK_MAX_PLAYERS = 2
    client.force_login(alice)
    response = client.post(f"/duplicate/{large.pk}/export/xlsx/")
    assert response.status_code == 503
    html = unescape(response.content.decode())
    assert (
        "Les exports sont momentanément indisponibles : le service qui prépare les fichiers ne répond pas. "
        "Réessayez dans quelques minutes." in html
    )
    assert "Relancer la préparation (XLSX)" in html
    assert not ExportJob.objects.exists()


def test_an_export_whose_database_connection_drops_is_tried_again(large, export, monkeypatch):
    """The worker's connection dropped mid-export (PostgreSQL restarting): the task is tried again, on a new
    connection, instead of leaving the job failed."""
    from django.db import OperationalError

    from duplicate import exports

    real_build = exports.build
    calls = []

    def build(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real_build(*args, **kwargs)

    monkeypatch.setattr(exports, "build", build)
    export(large)
    job = ExportJob.objects.get()
    assert (job.status, job.error, len(calls)) == ("done", "", 2)
    assert export_session.autoretry_for == (OperationalError, InterfaceError)
