"""What every change to a session goes through: a finished session refuses it, and the change is kept in the
session's history (`Change`), credited to the member who made it."""

from django.utils.translation import gettext as _

from ..errors import SessionClosed
from ..models import Change, Session


def refuse_if_finished(session: Session):
    if session.finished_at:
        raise SessionClosed(_("La séance est terminée : rouvrez-la pour la modifier."))


def actor(by):
    """The member a change is credited to; None for a player's own page (or an anonymous request)."""
    return by if by is not None and by.is_authenticated else None


def record(session: Session, by, field: str, old="", new="", *, round_number=None, player=None) -> Change:
    """Keep one change for the session's history. `by` is the member who made it, None for a player's own page."""
    change = new_change(session, by, field, old, new, round_number=round_number, player=player)
    change.save()
    return change


def new_change(session: Session, by, field: str, old="", new="", *, round_number=None, player=None) -> Change:
    """One change for the session's history, not yet saved (several are saved at once with `bulk_create`)."""
    return Change(
        session=session,
        user=actor(by),
        round_number=round_number,
        player=player,
        field=field,
        old=str(old)[:80],
        new=str(new)[:80],
    )


def entered(score, move) -> str:
    """A bulletin as the history shows it: "18 4G AVIONS", "22", nothing for no score."""
    return f"{'' if score is None else score} {move}".strip()
