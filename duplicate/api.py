"""The duplicate API for clubs' scripts and federation tools. Token (`Authorization: Bearer`) or a logged-in
session; only a session's organisers write, and a token sees only what its member may see."""

import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Router, Status
from ninja.errors import HttpError

from clubsite.api_auth import MEMBER
from clubsite.models import Club
from scoring.models import Edition, RuleSet
from scoring.schemas import ErrorOut

from . import games, services, simultanes
from .exports import build, filename
from .forms import future_start
from .models import Player, Round, Season, Session, Simultane
from .recap import player_recap
from .schemas import (
    GameOut,
    HistoryOut,
    PlayerRecapOut,
    RankingOut,
    ResultOut,
    ResultPatch,
    ResultsOut,
    RoundIn,
    RoundOut,
    RoundTopIn,
    ScoresIn,
    ScoresOut,
    SeasonRankingOut,
    SessionIn,
    SessionOut,
    SimultaneIn,
    SimultaneOut,
    SimultaneRankingOut,
    StateOut,
    player_line,
)

router = Router(tags=["Duplicate"], auth=MEMBER)
ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 413: ErrorOut, 422: ErrorOut}


def _session_for(request, pk, *, write=False) -> Session:
    """Organisers read and write; the club's members and the session's players read (403 on a write). Anyone
    else, another club's organiser included, gets the 404 of an unknown id: nobody can probe which ids exist."""
    sessions = Session.objects.visible_to(request.user).select_related("club", "edition", "rule_set")
    session = sessions.filter(pk=pk).first()
    if session is None:
        raise HttpError(404, _("Séance introuvable."))
    if write and not session.is_organiser(request.user):
        raise HttpError(403, _("Seuls les organisateurs de la séance peuvent la modifier."))
    return session


def _round_for_organiser(request, pk, number) -> Round:
    """Move `number` of a session the caller runs, with its session, in one query (the path every score sent
    takes); otherwise the refusals of `_session_for` (404, 403), then a 404 for a move that does not exist."""
    round_ = Round.objects.writable_by(request.user, pk, number)
    if round_ is None:
        session = _session_for(request, pk, write=True)
        round_ = Round.objects.filter(session=session, number=number).first()
        if round_ is None:
            raise HttpError(404, _("Le coup %(number)d n'est pas tiré dans cette séance.") % {"number": number})
    return round_


def _refused(error: services.DuplicateError):
    """422 for a refused value; a finished session's 409 (nothing may change until it is reopened)."""
    raise HttpError(error.status if error.status != 400 else 422, str(error))


def _room_mismatch(payload: SessionIn, simultane: Simultane, edition, rule_set) -> str:
    """A room plays its simultané's edition, rules and time per move: one given otherwise is refused rather than
    quietly replaced (those left out take the simultané's)."""
    given = payload.model_fields_set
    if "edition" in given and edition.pk != simultane.edition_id:
        return _("Ce simultané se joue avec l'édition « %(code)s » : une salle prend la sienne.") % {
            "code": simultane.edition.code
        }
    if "rules" in given and rule_set.pk != simultane.rule_set_id:
        return _("Ce simultané se joue avec les règles « %(code)s » : une salle prend les siennes.") % {
            "code": simultane.rule_set.code
        }
    if "move_seconds" in given and payload.move_seconds != simultane.move_seconds:
        return _("Ce simultané se joue en %(seconds)d secondes par coup : une salle prend son temps.") % {
            "seconds": simultane.move_seconds
        }
    return ""


@router.post("/duplicate/sessions", response={201: SessionOut, **ERRORS}, summary="Créer une séance")
def session_create(request, payload: SessionIn):
    club = None
    if payload.club is not None:
        club = Club.objects.for_user(request.user).filter(pk=payload.club).first()
        if club is None:
            raise HttpError(404, _("Club introuvable."))
        if not club.is_organiser(request.user):
            raise HttpError(403, _("Seuls les organisateurs du club créent ses séances."))
    edition = Edition.objects.named(payload.edition).first()
    rule_set = RuleSet.objects.named(payload.rules).first()
    if edition is None or rule_set is None:
        raise HttpError(422, _("Édition ou jeu de règles inconnu."))
    simultane = date = None
    if payload.simultane is not None:
        simultane = Simultane.objects.visible_to(request.user).filter(pk=payload.simultane).first()
        if simultane is None:
            raise HttpError(404, _("Simultané introuvable."))
        refusal = simultanes.registration_refusal(simultane, club, request.user) or _room_mismatch(
            payload, simultane, edition, rule_set
        )
        if refusal:
            raise HttpError(422, refusal)
    else:
        try:
            date = datetime.date.fromisoformat(payload.date) if payload.date else datetime.date.today()
        except ValueError:
            raise HttpError(422, _("Date illisible : AAAA-MM-JJ attendu.")) from None
    try:
        # Each item is one player's fields already: nothing to split, unlike the lines pasted on the pages.
        players = [player_line(item) for item in payload.players]
        if simultane is not None:
            session = simultanes.room_register(
                simultane=simultane,
                club=club,
                creator=request.user,
                players=players,
                name=payload.name,
                entry=payload.entry,
            )
        else:
            session = services.session_create(
                creator=request.user,
                club=club,
                name=payload.name,
                date=date,
                edition=edition,
                rule_set=rule_set,
                move_seconds=payload.move_seconds,
                entry=payload.entry,
                players=players,
            )
    except services.DuplicateError as error:
        _refused(error)
    players = session.players.order_by("pk")
    return Status(201, {"id": session.pk, "players": [{"id": p.pk, "name": p.name} for p in players]})


@router.post("/duplicate/sessions/{pk}/rounds", response={201: RoundOut, **ERRORS}, summary="Tirer un coup")
def round_create(request, pk: int, payload: RoundIn):
    """The next move's draw, typed or drawn by the server; `{}` in a session playing a game (a simultané's room, a
    game file, a replay) draws the game's next move. A draw never reveals its top: the game's comes with
    `PUT …/rounds/{n}/top` and `{}` once the move is played, and a `top` sent with a game's draw is refused (422).
    A session that plays no game takes a draw and its top together (a game played on paper)."""
    session = _session_for(request, pk, write=True)
    try:
        round_ = services.round_add(
            session=session, draw_text=payload.draw or None, top_text=payload.top or None, by=request.user
        )
    except services.DuplicateError as error:
        _refused(error)
    return Status(
        201, {"number": round_.number, "draw": round_.draw, "top": round_.top or None, "top_score": round_.top_score}
    )


@router.put(
    "/duplicate/sessions/{pk}/rounds/{number}/scores", response={200: ScoresOut, **ERRORS}, summary="Saisir des scores"
)
def scores_put(request, pk: int, number: int, payload: ScoresIn):
    """One score per player and move; sending it again replaces it. A refused score changes nothing in the request."""
    round_ = _round_for_organiser(request, pk, number)
    entries = [services.Entry(entry.player, entry.score, entry.move or "") for entry in payload.scores]
    try:
        written = services.results_set(round_=round_, entries=entries, by=request.user)
    except services.DuplicateError as error:
        _refused(error)
    return Status(200, {"saved": len(written)})


def _ranking(session):
    rows, tops_total = services.ranking(session)
    return {
        "tops_total": tops_total,
        "rows": [
            {
                "player": named.player.pk,
                "name": named.player.name,
                "place": named.row.place,
                "total": named.row.total,
                "gap": named.row.gap,
                "percent": named.row.percent,
                "solos": named.row.solos,
            }
            for named in rows
        ],
    }


@router.get("/duplicate/sessions/{pk}/game", response={200: GameOut, **ERRORS}, summary="Fichier de partie")
def session_game(request, pk: int):
    """The session's game as a game file (README, "Fichier de partie"): the moves whose top is placed."""
    return services.game_document(_session_for(request, pk))


@router.post("/duplicate/simultanes", response={201: SimultaneOut, **ERRORS}, summary="Préparer un simultané")
def simultane_create(request, payload: SimultaneIn):
    """For the organisers of a federation or a district. Without `game` the server draws it now, the best move of
    each draw as its top; with one, every move is checked on the board. The game stays sealed."""
    bodies = Club.objects.organised_by(request.user).bodies()
    body = bodies.filter(pk=payload.body).first() if payload.body is not None else None
    if payload.body is None and bodies.count() == 1:
        body = bodies.first()
    if body is None:
        raise HttpError(403, _("Seuls les organisateurs d'une fédération ou d'un comité préparent un simultané."))
    edition = Edition.objects.named(payload.edition).first()
    rule_set = RuleSet.objects.named(payload.rules).first()
    if edition is None or rule_set is None:
        raise HttpError(422, _("Édition ou jeu de règles inconnu."))
    try:
        starts_at = datetime.datetime.fromisoformat(payload.starts_at)
    except ValueError:
        raise HttpError(422, _("Début illisible : date et heure ISO 8601 attendues (2026-12-12T14:00).")) from None
    if timezone.is_naive(starts_at):
        starts_at = timezone.make_aware(starts_at)
    try:
        future_start(starts_at)
    except ValidationError as error:
        raise HttpError(422, error.messages[0]) from None
    game = None
    if payload.game is not None:
        if payload.game.edition and payload.game.edition != edition.code:
            raise HttpError(
                422,
                _("La partie est en édition %(game)s, le simultané en %(edition)s.")
                % {"game": payload.game.edition, "edition": edition.code},
            )
        game = [games.GameRound(r.number, r.draw, r.top, r.top_score) for r in payload.game.rounds]
        for expected, game_round in enumerate(game, start=1):
            if game_round.number != expected:
                raise HttpError(422, _("Les coups sont numérotés 1, 2, 3… dans l'ordre."))
    try:
        simultane = simultanes.simultane_create(
            body=body,
            creator=request.user,
            name=payload.name,
            starts_at=starts_at,
            edition=edition,
            rule_set=rule_set,
            move_seconds=payload.move_seconds,
            game=game,
        )
    except services.DuplicateError as error:
        _refused(error)
    return Status(201, {"id": simultane.pk, "moves": len(simultane.game)})


@router.get(
    "/duplicate/simultanes/{pk}/ranking",
    response={200: SimultaneRankingOut, **ERRORS},
    summary="Classement du simultané",
)
def simultane_ranking(request, pk: int, club: str = "", series: str = ""):
    """Every room's players together, live, on the moves every registered room has closed; `club` (its id, address or
    name) or `series` rank one club's rooms or one series among themselves. Ties share the place."""
    simultane = Simultane.objects.visible_to(request.user).filter(pk=pk).first()
    if simultane is None:
        raise HttpError(404, _("Simultané introuvable."))
    combined = simultanes.live_ranking(simultane)
    label = combined.club_named(club[:100]) if club else ""
    said = {"club": club[:100].replace("\x00", ""), "series": series[:10].replace("\x00", "")}  # no NUL echoed
    if label is None:
        raise HttpError(422, _("Aucune salle du club « %(club)s » dans ce simultané.") % said)
    if series and series not in combined.series:
        raise HttpError(422, _("Aucun joueur classé de la série « %(series)s ».") % said)
    rows = combined.within(club=label, series=series)
    return {
        "tops_total": combined.tops_total,
        "moves": combined.moves,
        "rows": [
            {
                "place": row.place,
                "name": row.name,
                "club": row.club,
                "session": row.session,
                "series": row.series,
                "licence": row.licence,
                "total": row.total,
                "gap": row.gap,
                "percent": row.percent,
            }
            for row in rows
        ],
    }


@router.get("/duplicate/sessions/{pk}/ranking", response={200: RankingOut, **ERRORS}, summary="Classement")
def ranking(request, pk: int):
    return _ranking(_session_for(request, pk))


@router.get("/duplicate/sessions/{pk}/ranking.csv", summary="Classement en CSV", response={200: None, **ERRORS})
def ranking_csv(request, pk: int):
    session = _session_for(request, pk)
    response = HttpResponse(build(session, "csv"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename(session, "csv")}"'
    return response


@router.post("/duplicate/sessions/{pk}/finish", response={200: StateOut, **ERRORS}, summary="Terminer la séance")
def session_finish(request, pk: int):
    """A finished session answers 409 to every write until it is reopened."""
    return _change_state(request, pk, services.session_finish)


@router.post("/duplicate/sessions/{pk}/reopen", response={200: StateOut, **ERRORS}, summary="Rouvrir la séance")
def session_reopen(request, pk: int):
    return _change_state(request, pk, services.session_reopen)


def _change_state(request, pk, change):
    session = _session_for(request, pk, write=True)
    try:
        change(session=session, by=request.user)
    except services.DuplicateError as error:
        _refused(error)
    return {"finished": session.finished_at is not None}


@router.get("/duplicate/sessions/{pk}/history", response={200: HistoryOut, **ERRORS}, summary="Historique")
def session_history(request, pk: int):
    """Every change, newest first: who, when, which move and player, old → new. For the session's organisers."""
    session = _session_for(request, pk)
    if not session.is_organiser(request.user):
        raise HttpError(403, _("Seuls les organisateurs de la séance lisent son historique."))
    changes = session.changes.select_related("user")[:5000]
    return {
        "entries": [
            {
                "at": change.at.isoformat(),
                "user": change.user.get_username() if change.user else (change.user_name or None),
                "round": change.round_number,
                "player": change.player_id,
                "field": change.field,
                "old": change.old,
                "new": change.new,
            }
            for change in changes
        ]
    }


@router.put(
    "/duplicate/sessions/{pk}/rounds/{number}/top",
    response={200: RoundOut, **ERRORS},
    summary="Placer ou révéler le top",
)
def round_top(request, pk: int, number: int, payload: RoundTopIn):
    """The top of the last move, placed or corrected (a move drawn without it); `{}` in a session playing a game
    reveals the game's top once the move is played (its draw never does)."""
    round_ = _round_for_organiser(request, pk, number)
    try:
        if payload.top:
            services.round_set_top(round_=round_, top_text=payload.top, by=request.user)
        elif round_.session.plays_a_game:
            round_ = services.round_reveal_top(round_=round_, by=request.user)
        else:
            raise services.DuplicateError(_("Donnez le top en notation (« H4 VAGUE »)."))
    except services.DuplicateError as error:
        _refused(error)
    round_.refresh_from_db()
    return {"number": round_.number, "draw": round_.draw, "top": round_.top or None, "top_score": round_.top_score}


@router.delete(
    "/duplicate/sessions/{pk}/rounds/{number}", response={204: None, **ERRORS}, summary="Annuler le dernier coup"
)
def round_delete(request, pk: int, number: int):
    """The last move only, while it has no result; otherwise 409."""
    session = _session_for(request, pk, write=True)
    round_ = get_object_or_404(Round, session=session, number=number)
    try:
        services.round_cancel(round_=round_, by=request.user)
    except services.SessionClosed as error:
        _refused(error)
    except services.DuplicateError as error:
        raise HttpError(409, str(error)) from error
    return Status(204, None)


def _result_out(result) -> dict | None:
    if result is None:
        return None
    return {
        "score": result.score,
        "move": result.move,
        "reason": result.reason,
        "warning": result.warning,
        "penalty": result.penalty,
    }


@router.get("/duplicate/sessions/{pk}/results", response={200: ResultsOut, **ERRORS}, summary="Tous les résultats")
def results(request, pk: int):
    """The whole game: every move, and for each player his result on each (null where none), in three queries.
    Whoever reads the session's recap reads them: its organisers, its club's members, its players (those of a move
    being played once its top is revealed)."""
    session = _session_for(request, pk)
    rounds = list(session.rounds.all())
    by_key = {(r.player_id, r.round_id): r for r in services.results_readable(session, request.user)}
    return {
        "rounds": [
            {"number": r.number, "draw": r.draw, "top": r.top or None, "top_score": r.top_score} for r in rounds
        ],
        "players": [
            {
                "id": player.pk,
                "name": player.name,
                "table": player.table,
                "absent": player.absent,
                "results": [_result_out(by_key.get((player.pk, r.pk))) for r in rounds],
            }
            for player in session.players.all()
        ],
    }


@router.patch(
    "/duplicate/sessions/{pk}/rounds/{number}/results/{player_id}",
    response={200: ResultOut, **ERRORS},
    summary="Corriger un résultat",
)
def result_patch(request, pk: int, number: int, player_id: int, payload: ResultPatch):
    """Any of score, move, warning, penalty, zero, on any move (not only the last); kept in the history."""
    session = _session_for(request, pk, write=True)
    round_ = get_object_or_404(Round, session=session, number=number)
    player = get_object_or_404(Player, session=session, pk=player_id)
    round_.session = session
    try:
        with transaction.atomic():
            if payload.move:
                services.result_set(
                    round_=round_, player=player, move=payload.move, written=payload.score, by=request.user
                )
            elif payload.score is not None:
                services.result_set(round_=round_, player=player, score=payload.score, by=request.user)
            if payload.warning is not None or payload.penalty is not None or payload.zero:
                services.result_mark(
                    round_=round_,
                    player=player,
                    zero=payload.zero,
                    warning=payload.warning,
                    penalty=payload.penalty,
                    by=request.user,
                )
    except services.DuplicateError as error:
        _refused(error)
    result = round_.results.filter(player=player).first()
    if result is None:  # nothing sent that writes one (`{}`, `"zero": false`)
        raise HttpError(
            422,
            _("Ce joueur n'a pas de résultat sur le coup %(number)d : donnez un score, un coup ou une marque.")
            % {"number": number},
        )
    return _result_out(result)


@router.get(
    "/duplicate/sessions/{pk}/players/{player_id}/recap",
    response={200: PlayerRecapOut, **ERRORS},
    summary="Récapitulatif d'un joueur",
)
def player_recap_get(request, pk: int, player_id: int):
    """One player's moves beside the tops, with his running total and percentage (as the ranking counts them:
    solos, avertissements and penalties included); while the session is played, its moves closed only. Read by
    the session's organisers and by the member linked to that player; 404 for anyone else."""
    players = Player.objects.recap_readable_by(request.user).select_related("session__edition", "session__rule_set")
    player = players.filter(pk=player_id).first()
    if player is None or player.session_id != pk:  # an id beyond the column would reach the database as it is
        raise HttpError(404, _("Joueur introuvable."))
    recap = player_recap(player.session, player)
    return {
        "player": player.pk,
        "name": player.name,
        "place": recap.place,
        "finished": player.session.finished_at is not None,
        "rows": [
            {
                "number": row.round.number,
                "draw": row.round.draw,
                "top": row.round.top,
                "top_score": row.round.top_score,
                "move": row.move or None,
                "score": row.score,
                "gap": row.gap,
                "solo": row.solo,
                "solo_points": row.solo_points,
                "warning": row.warning,
                "penalty": row.penalty_points,
                "total": row.total,
                "tops_total": row.tops_total,
                "percent": row.percent,
            }
            for row in recap.rows
        ],
    }


@router.get(
    "/duplicate/seasons/{pk}/ranking", response={200: SeasonRankingOut, **ERRORS}, summary="Classement de saison"
)
def season_ranking(request, pk: int):
    """A club's season, as its page shows it: read by the club's members; 404 for anyone else."""
    season = Season.objects.visible_to(request.user).filter(pk=pk).first()
    if season is None:
        raise HttpError(404, _("Saison introuvable."))
    standing = services.season_ranking(season, reader=request.user)
    return {
        "name": season.name,
        "start": season.start,
        "end": season.end,
        "ranked_by": season.ranked_by,
        "best": season.best,
        "rows": [
            {
                "place": row.place,
                "name": name,
                "sessions": row.played,
                "counted": row.counted,
                "total": row.total,
                "percent": row.percent,
            }
            for name, row in standing.rows
        ],
    }
