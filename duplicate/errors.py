"""The refusals of the duplicate services: a French sentence, and the HTTP status an API or a page answers."""


class DuplicateError(ValueError):
    status = 400


class SessionClosed(DuplicateError):
    """A finished session: nothing changes in it until an organiser reopens it."""

    status = 409


class Conflict(DuplicateError):
    """An action the session's state forbids: what depends on it must change first."""

    status = 409
