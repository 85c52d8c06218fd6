"""The export files of large sessions, built by a worker and kept for their download."""

import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .sessions import Session


class ExportJob(models.Model):
    """An export of a large session, built by a Celery worker; the file waits here for its download."""

    class Status(models.TextChoices):
        PENDING = "pending", _("En attente")
        RUNNING = "running", _("En cours")
        DONE = "done", _("Prêt")
        FAILED = "failed", _("Échec")

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="export_jobs")
    kind = models.CharField(max_length=12)
    # The session's `changes_made()` when the file was built: the same results are not exported twice.
    session_version = models.PositiveIntegerField(default=0)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveSmallIntegerField(default=0)
    content = models.BinaryField(blank=True, default=b"")
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # When the job last moved (queued, started, a step of progress): one that has not moved for
    # DUPLICATE_EXPORT_STUCK_SECONDS has lost its worker.
    updated_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("export")
        verbose_name_plural = _("exports")
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.session} ({self.kind})"

    @staticmethod
    def stuck_before() -> datetime.datetime:
        """A job still waiting or running that has not moved since this is stuck: its worker died or never got
        it (`services.export_jobs.export_mark_stuck` marks it failed)."""
        return timezone.now() - datetime.timedelta(seconds=settings.DUPLICATE_EXPORT_STUCK_SECONDS)

    @property
    def is_waiting_long(self) -> bool:
        """Still waiting for a worker 15 s after it was asked for: the workers are busy, or none is running."""
        return self.status == self.Status.PENDING and timezone.now() - self.created_at > datetime.timedelta(seconds=15)
