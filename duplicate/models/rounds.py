"""A session's moves and the players' results on them. The session and its players come from
`duplicate.models.sessions`, which builds on this module: here they are named by their keys."""

from django.db import connections, models
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from clubsite.models import Membership
from clubsite.sql import columns, instances
from scoring.engine.ranking import above_top
from scoring.models import RuleSet


class RoundQuerySet(models.QuerySet):
    def writable_by(self, user, session_pk: int, number: int) -> "Round | None":
        """Move `number` of the session, with the session and its rule set loaded, if `user` runs it (as
        `Session.objects.organised_by`) and it is not sealed from him (`Session.objects.sealed_from`); None
        otherwise, or when there is no such move. One query written in SQL (clubsite.sql): every bulletin sent
        through the API asks; a simultané's room takes a second one, for its seal."""
        if not user.is_authenticated or not (0 < session_pk < 2**63 and 0 < number < 2**15):
            return None  # an id beyond its column names no move (the ORM says so itself; raw SQL would overflow)
        # The session's model through the move's key: `sessions` builds on this module, which does not import it.
        session_model = self.model._meta.get_field("session").related_model
        organising = Membership.Role.organising()
        sql = (
            f"SELECT {columns(Round, 'r')}, {columns(session_model, 's')}, {columns(RuleSet, 'rs')} "
            "FROM duplicate_round r JOIN duplicate_session s ON s.id = r.session_id "
            f"JOIN {RuleSet._meta.db_table} rs ON rs.id = s.rule_set_id WHERE r.session_id = %s AND r.number = %s "
            f"AND ((s.club_id IS NULL AND s.creator_id = %s) OR EXISTS (SELECT 1 FROM {Membership._meta.db_table} m "
            f"WHERE m.club_id = s.club_id AND m.user_id = %s AND m.role IN ({', '.join(['%s'] * len(organising))})))"
        )
        with connections[self.db].cursor() as cursor:
            cursor.execute(sql, [session_pk, number, user.pk, user.pk, *organising])
            row = cursor.fetchone()
        if row is None:
            return None
        round_, session, rule_set = instances(self.db, row, Round, session_model, RuleSet)
        if session.simultane_id is not None and session_model.objects.sealed_from(user).filter(pk=session.pk).exists():
            return None
        session.rule_set = rule_set  # its figures bound every bulletin (max_move_points)
        round_.session = session
        return round_

    def with_result_of(self, player) -> "list[tuple[Round, Result | None]]":
        """The moves of the player's session, in order, each with his result on it (None where none). One query
        written in SQL (clubsite.sql): each of the 500 phones of a room reads it with its page."""
        sql = (
            f"SELECT {columns(Round, 'r')}, {columns(Result, 'x')} FROM duplicate_round r "
            "LEFT JOIN duplicate_result x ON x.round_id = r.id AND x.player_id = %s "
            "WHERE r.session_id = %s ORDER BY r.number"
        )
        with connections[self.db].cursor() as cursor:
            cursor.execute(sql, [player.pk, player.session_id])
            rows = cursor.fetchall()
        return [tuple(instances(self.db, row, Round, Result)) for row in rows]


class Round(models.Model):
    """One move of the session: its draw (club notation) and its top, placed on the board for the next move."""

    session = models.ForeignKey("Session", on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    draw = models.CharField(_("tirage"), max_length=40)
    rejets = models.PositiveSmallIntegerField(default=0)
    drawn_by_server = models.BooleanField(default=False)
    top = models.CharField(_("top"), max_length=40, blank=True)
    top_score = models.PositiveIntegerField(null=True, blank=True)
    # The best moves the top finder sees for the draw, best first: [{"move": "H4 VAGUE", "score": 26}, ...]
    suggestions = models.JSONField(default=list, blank=True)
    # False when the search stopped at its time limit: the moves found until then, the best maybe missing.
    suggestions_complete = models.BooleanField(default=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        verbose_name = _("coup")
        verbose_name_plural = _("coups")
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["session", "number"], name="one_round_per_number")]

    def __str__(self):
        return f"{self.session} #{self.number}"

    @property
    def draw_parts(self) -> tuple[bool, str, str]:
        """(after a rejet, letters kept, letters drawn) from the club notation: `-EAUIOZT`, `EU+ACC?N`."""
        text = self.draw
        rejet = text.startswith("-")
        text = text.removeprefix("-")
        kept, plus, new = text.partition("+")
        return (rejet, kept, new) if plus else (rejet, "", kept)

    @property
    def top_square(self) -> str:
        """The top's reference, "H4" (across) or "4H" (down), as the recap prints it beside the word."""
        return self.top.partition(" ")[0]

    @property
    def top_word(self) -> str:
        return self.top.partition(" ")[2]

    @property
    def top_below_best(self) -> bool:
        """Whether the placed top is worth less than the best move the top finder saw: the arbiter may have
        missed it. The page only warns, since the finder's word list is a free one, not the ODS."""
        return bool(self.top and self.suggestions and above_top(self.suggestions[0]["score"], self.top_score))


ZERO_REASON = gettext_noop("Zéro donné par l'arbitre")  # translated when written and when read


class ResultQuerySet(models.QuerySet):
    def zero_marks(self):
        """The results the arbiter gave a zero (`Result.is_zero_mark`), which the recap and the files mark."""
        return self.filter(score=0, reason=gettext(ZERO_REASON))


class Result(models.Model):
    """A player's result on a move; one per player and move, enforced by the database."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey("Player", on_delete=models.CASCADE, related_name="results")
    # None while the arbiter has only marked the player (a warning, a penalty) and no bulletin came in.
    score = models.PositiveIntegerField(_("score"), null=True, blank=True, default=None)
    move = models.CharField(_("coup joué"), max_length=40, blank=True)
    reason = models.CharField(_("motif"), max_length=300, blank=True)
    warning = models.BooleanField(_("avertissement"), default=False)
    penalty = models.PositiveSmallIntegerField(_("pénalité"), default=0)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ResultQuerySet.as_manager()

    class Meta:
        verbose_name = _("résultat")
        verbose_name_plural = _("résultats")
        constraints = [models.UniqueConstraint(fields=["round", "player"], name="one_result_per_player_and_move")]

    def __str__(self):
        return f"{self.player}: {self.score}"

    @property
    def is_zero_mark(self) -> bool:
        """Whether the arbiter gave this result a zero (a "0" button shown pressed)."""
        return self.score == 0 and self.reason == gettext(ZERO_REASON)
