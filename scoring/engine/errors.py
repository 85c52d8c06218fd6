"""Errors the engine raises, each carrying a French message template and its parameters.

The templates are marked with `gettext_noop` so `makemessages` collects them; the Django side translates the
template (`django.utils.translation.gettext`) before filling in the parameters, the engine itself stays free of
Django.
"""


def gettext_noop(message: str) -> str:
    return message


def clause(text: str) -> str:
    """A sentence as it reads after a colon, in French: its first letter in lowercase ("Grille, coup 2 : le mot
    …"), unless its first word is in capitals, a word played, a square or an acronym (« H4 », « ODS »)."""
    word = text.split(" ", 1)[0]
    if len(word) > 1 and word.upper() == word:
        return text
    return text[:1].lower() + text[1:]


class ScoringError(ValueError):
    """Base class: `template % params` is the French sentence shown to the user."""

    def __init__(self, template: str, **params):
        self.template = template
        self.params = params
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return self.template % self.params if self.params else self.template

    def translated(self, gettext) -> str:
        """The message in the active language, given a gettext function."""
        template = gettext(self.template)
        return template % self.params if self.params else template


class NotationError(ScoringError):
    """A coordinate or a written word that cannot be read."""


class MoveError(ScoringError):
    """A move that cannot be played on this board."""
