"""Sending a task to the workers without holding a request on a broker that does not answer.

The broker's timeouts (settings, "Queuing a task") bound the attempt to about two seconds; past them the caller
gets `QueueUnavailable` and says so to the user, or does the work itself when it is small enough. Without a broker
(`make run`, the tests) the task runs here and now, and its own errors are its caller's.
"""

import logging

from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)


class QueueUnavailable(Exception):
    """The broker could not be reached: the task was not queued."""


def send(task, *args) -> None:
    if task.app.conf.task_always_eager:
        # Not thrown from inside the run, so that a task's own retries (autoretry_for) happen here too; a task that
        # fails for good raises its error.
        task.apply(args=args, throw=False).get()
        return
    try:
        task.apply_async(args=args)
    except (OperationalError, OSError) as error:
        logger.warning("Broker unavailable, task %s%r not queued: %s", task.name, args, error)
        raise QueueUnavailable(str(error)) from error
