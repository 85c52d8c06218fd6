"""Replaying a finished session alone against its tops: started, its entries checked without an arbiter, and where
its total would have ranked in the room."""

from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine.ranking import above_top

from ..errors import DuplicateError
from ..models import Round, Session
from .rankings import ranking
from .results import score_move
from .rounds import refuse_if_sealed, replayed_round, scripted_round
from .sessions import session_create


def session_replay(*, source: Session, creator) -> Session:
    """ "Rejouer cette séance": a personal automatic game on a finished session's draws, alone against its tops, with
    its time per move. Each move's draw and top are the session's own (in duplicate every board is the tops', so
    the draws follow whatever the player plays); at the end, `replay_standing` says where his total would have
    ranked in the room."""
    if source.finished_at is None:
        raise DuplicateError(_("Une séance se rejoue une fois terminée."))
    if not source.rounds.exclude(top="").exists():
        raise DuplicateError(_("Cette séance n'a aucun coup à rejouer."))
    refuse_if_sealed(source.pk, creator)
    replay = session_create(
        creator=creator,
        club=None,
        name=(_("Rejeu : %(name)s") % {"name": source.name})[:120],
        date=timezone.localdate(),
        edition=source.edition,
        rule_set=source.rule_set,
        move_seconds=source.move_seconds,
        automatic=True,
        replay_of=source,
    )
    return replay


def automatic_entry_check(round_: Round, *, score: int | None, move: str) -> None:
    """A game played alone has no arbiter to correct a slip once its top is shown: a move that cannot be played
    is refused with its reason, to be corrected while the move is open (the arbiter's bulletin would score it 0,
    FISF §5.4), and so is a score above the move's top."""
    if move:
        score, _notation, reason = score_move(round_, move)
        if reason:
            raise DuplicateError(reason)
    top = _upcoming_top_score(round_)
    if above_top(score, top):
        if move:
            raise DuplicateError(
                _(
                    "Ce coup vaut %(score)d points, plus que le top (%(top)d) : un de ses mots manque à la liste "
                    "de mots."
                )
                % {"score": score, "top": top}
            )
        raise DuplicateError(_("Score supérieur au top : faute de frappe ?"))


def _upcoming_top_score(round_: Round) -> int | None:
    """The score of the top an automatic game will reveal: the replayed session's, else the top finder's best."""
    if round_.top_score is not None:
        return round_.top_score
    scripted = scripted_round(round_.session, round_.number)
    if scripted is not None:
        return scripted.top_score
    return round_.suggestions[0]["score"] if round_.suggestions else None


def replay_is_over(replay: Session) -> bool:
    """Every move of the replayed session has been drawn in the replay."""
    return replayed_round(replay, replay.rounds.count() + 1) is None


@dataclass(frozen=True)
class ReplayStanding:
    total: int
    tops_total: int
    percent: float
    place: int  # among the room's players and him, ties sharing the place
    players: int  # the room's, and him
    winner: int  # the room's best total
    tied: bool  # someone of the room has the same total

    @property
    def ordinal(self) -> str:
        """The place as French writes it: 1er, 2e, 3e…, "ex aequo" when shared."""
        place = _("1er") if self.place == 1 else _("%(place)de") % {"place": self.place}
        return _("%(place)s ex aequo") % {"place": place} if self.tied else place


def replay_standing(replay: Session) -> ReplayStanding | None:
    """Where the replay's total would have ranked in the room of the session it replays, by its final ranking
    (whose totals count the room's solos, which a player alone cannot make: said on the page); None until the
    replay is finished, or when the session it replays is gone."""
    source = replay.replay_of
    if source is None or replay.finished_at is None:
        return None
    (mine,), tops_total = ranking(replay)
    room, _room_tops = ranking(source)
    totals = [named.row.total for named in room if not named.player.absent]
    if not totals:
        return None
    total = mine.row.total
    return ReplayStanding(
        total=total,
        tops_total=tops_total,
        percent=mine.row.percent,
        place=1 + sum(other > total for other in totals),
        players=len(totals) + 1,
        winner=max(totals),
        tied=total in totals,
    )
