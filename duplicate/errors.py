"""The refusals of the duplicate services: a French sentence, and the HTTP status an API or a page answers."""

from django.utils.translation import ngettext

MAX_LINES_SAID = 10  # a list refused says its first bad lines, then how many more


class DuplicateError(ValueError):
    status = 400

    def sentences(self) -> list[str]:
        """The refusal as a form shows it, a sentence an error."""
        return [str(self)]


class SessionClosed(DuplicateError):
    """A finished session: nothing changes in it until an organiser reopens it."""

    status = 409


class Conflict(DuplicateError):
    """An action the session's state forbids: what depends on it must change first."""

    status = 409


class LinesRefused(DuplicateError):
    """A pasted list with bad lines: each said with its number (the first ten, then how many more), so that one
    correction fixes them all."""

    def __init__(self, refusals: list[str]):
        self.refusals = refusals[:MAX_LINES_SAID]
        more = len(refusals) - len(self.refusals)
        if more:
            self.refusals.append(
                ngettext("Et %(count)d autre ligne refusée.", "Et %(count)d autres lignes refusées.", more)
                % {"count": more}
            )
        super().__init__("\n".join(self.refusals))

    def sentences(self) -> list[str]:
        return self.refusals
