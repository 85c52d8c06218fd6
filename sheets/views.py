from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import models
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect
from ninja.errors import Throttled

from clubsite.actions import object_action
from clubsite.invitations import invitation_refusal
from clubsite.throttling import Refusal, answered, count
from clubsite.throttling import refusal as throttle_refusal
from scoring.engine.endgame import end_of_game
from scoring.views import counter_page, grid_page

from . import local, services
from .boards import GameBoardStore
from .forms import ImportForm, NewGameForm
from .gcg_files import game_from_gcg, game_to_gcg
from .models import Game, Line
from .review import build_review, find_tops
from .sheet import build_sheet


def _get_game_for_player(request, pk) -> Game:
    """The game if the member owns it or plays in it (a player linked to him); 404 for anyone else."""
    game = get_object_or_404(Game.objects.select_related("edition", "rule_set", "owner"), pk=pk)
    if not game.is_visible_to(request.user):
        raise Http404
    return game


def _get_game_for_owner(request, pk) -> Game:
    """Only the member who keeps the sheet writes on it; linked players read it (403)."""
    game = _get_game_for_player(request, pk)
    if game.owner_id != request.user.pk:
        raise PermissionDenied(_("Seul le membre qui tient la feuille peut la modifier."))
    return game


def _get_line_for_rack(request, pk, line_pk) -> tuple[Game, Line]:
    """A turn of a game the member may read, whose rack he may type (`Line.rack_editable_by`); 403 otherwise."""
    game = _get_game_for_player(request, pk)
    line = get_object_or_404(game.lines.select_related("player"), pk=line_pk)
    line.game = game
    if not line.rack_editable_by(request.user):
        raise PermissionDenied(_("Seul le membre qui tient la feuille, ou le joueur de ce coup, saisit son tirage."))
    return game, line


def _refused(request, game, message, status=400):
    """A refused action: the sheet again with the reason, nothing written."""
    return render(request, "sheets/game.html", _sheet_context(request, game, error=message), status=status)


def _sheet_context(request, game, **extra):
    sheet = build_sheet(game)
    rules = game.engine_rules()
    return {
        "game": game,
        "sheet": sheet,
        "rules": rules,
        "can_write": game.owner_id == request.user.pk,
        "limits": {"penalty": services.PENALTY_MAX_POINTS, "challenge_words": services.CHALLENGE_MAX_WORDS},
        **extra,
    }


@login_required
def history(request):
    games = (
        Game.objects.for_user(request.user)
        .newest_first()
        .select_related("edition", "rule_set", "owner")
        .prefetch_related("players__member", "lines")
    )
    end_rules = {}  # rule set code → its end-of-game rule: one lookup per rule set, not per game
    summaries = []
    for game in games:
        if game.is_finished and game.rule_set.code not in end_rules:
            end_rules[game.rule_set.code] = game.engine_rules().end_of_game
        summaries.append((game, _summary(game, end_rules.get(game.rule_set.code))))
    return render(request, "sheets/history.html", {"games": summaries})


def _summary(game, end_rule):
    """Each player's total, best first; once finished, the final score and place, from the prefetched rows."""
    players = list(game.players.all())
    totals = {player.pk: 0 for player in players}
    for line in game.lines.all():
        totals[line.player_id] += line.points
    scores = [totals[player.pk] for player in players]
    if game.is_finished:
        finals = end_of_game(scores, [player.rack_value for player in players], end_rule)
        return sorted(((p, f.final, f.place) for p, f in zip(players, finals, strict=True)), key=lambda row: row[2])
    return sorted(((p, total, None) for p, total in zip(players, scores, strict=True)), key=lambda row: -row[1])


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_new(request):
    form = NewGameForm(request.POST or None)
    refused = None
    if request.method == "POST" and form.is_valid():
        refused = invitation_refusal(request, form.cleaned_data["named"])
        if refused:
            form.add_error(None, str(refused))
    if request.method == "POST" and form.is_valid():
        game, switched = services.game_create(
            owner=request.user,
            players=form.cleaned_data["players"],
            edition=form.cleaned_data["edition"],
            rule_set=form.cleaned_data["rule_set"],
            timer_seconds=form.cleaned_data["timer_seconds"],
        )
        if switched:
            messages.info(request, services.fallback_note(form.cleaned_data["rule_set"]))
        if any(member != request.user for member in form.cleaned_data["invited"]):
            messages.info(request, services.INVITED)
        return redirect("sheets:game", pk=game.pk)
    context = {"form": form, "fallback_notes": services.fallback_notes()}
    return answered(render(request, "sheets/new.html", context, status=400 if form.errors else 200), refused)


@login_required
def game_detail(request, pk):
    game = _get_game_for_player(request, pk)
    return render(request, "sheets/game.html", _sheet_context(request, game))


@login_required
@require_safe
def game_review(request, pk):
    """ "Revoir la partie": the board move by move, the scores as a chart, the end of the game, the best moves."""
    game = _get_game_for_player(request, pk)
    return render(request, "sheets/review.html", _review_context(request, game))


@login_required
@require_POST
def line_rack(request, pk, line_pk):
    """The rack a turn was played from, typed on the review; the page again at that turn."""
    game, line = _get_line_for_rack(request, pk, line_pk)
    rack = request.POST.get("rack", "")
    try:
        services.line_set_rack(line=line, rack=rack)
    except services.SheetError as error:
        context = _review_context(request, game, rack_error=(line.pk, str(error), rack[:30]))
        return render(request, "sheets/review.html", context, status=400)
    number = list(game.lines.values_list("pk", flat=True)).index(line.pk) + 1
    return redirect(reverse("sheets:review", args=[game.pk]) + f"#coup-{number}")


def _review_context(request, game, rack_error=None):
    review = build_review(game)
    find_tops(review, game, refusal=lambda: str(throttle_refusal(request, "search") or ""))
    editable = {step.line.pk for step in review.steps if step.line.rack_editable_by(request.user)}
    # A rack refused for a line with no step (typed as points) has no box to be said beside: it goes on top.
    stepless = rack_error and rack_error[0] not in {step.line.pk for step in review.steps}
    return {
        "game": game,
        "review": review,
        "sheet": review.sheet,
        "rack_editable": editable,
        "rack_error": rack_error,
        "error": rack_error[1] if stepless else "",
    }


_owner_action = object_action(
    load=_get_game_for_owner, refusal=services.SheetError, refused=_refused, page="sheets:game"
)


def _int_field(request, name, default=None) -> int:
    try:
        return int(request.POST.get(name, default))
    except (TypeError, ValueError):
        raise services.SheetError(_("Un nombre entier est attendu.")) from None


def _after(request) -> int | None:
    """The last line the form saw (its hidden "after"): the service refuses the form once the sheet has moved on,
    so a form sent twice writes once. A request without it (not from our pages) is taken as it comes."""
    if "after" not in request.POST:
        return None
    return _int_field(request, "after")


def _player(game, request, name="player"):
    position = _int_field(request, name, -1)
    player = game.players.filter(position=position).first()
    if player is None:
        raise services.SheetError(_("Choisissez un joueur de la partie."))
    return player


@_owner_action
def line_add(request, game):
    """Points typed directly, or Passer / Changer / Mot repris for the player whose turn it is."""
    kind = request.POST.get("kind", Line.Kind.PLAY)
    if kind not in (Line.Kind.PLAY, Line.Kind.PASS, Line.Kind.EXCHANGE, Line.Kind.WITHDRAWN):
        raise services.SheetError(_("Action inconnue."))
    if kind == Line.Kind.PLAY and not request.POST.get("points", "").strip():
        raise services.SheetError(_("Tapez d'abord les points du coup."))
    points = _int_field(request, "points", 0) if kind == Line.Kind.PLAY else 0
    services.line_record(game=game, kind=kind, points=points, after=_after(request))


@_owner_action
def game_again(request, game):
    """ "Nouvelle partie avec les mêmes joueurs": a new sheet, the same seats and settings; inviting its members
    again counts against the owner's rate of invitations."""
    members = game.players.exclude(member=None).values_list("member__username", flat=True)
    if refused := invitation_refusal(request, members):
        return answered(_refused(request, game, str(refused), status=429), refused)
    copy = services.game_again(game=game, owner=request.user)
    messages.success(request, _("Nouvelle partie avec les mêmes joueurs."))
    if game.players.exclude(member=None).exclude(member=request.user).exists():
        messages.info(request, services.INVITED)
    return redirect("sheets:game", pk=copy.pk)


@_owner_action
def penalty_add(request, game):
    services.penalty_record(
        game=game, player=_player(game, request), points=_int_field(request, "points"), after=_after(request)
    )


@_owner_action
def challenge_add(request, game):
    services.challenge_record(
        game=game, challenger=_player(game, request), words=_int_field(request, "words", 1), after=_after(request)
    )


@_owner_action
def line_undo(request, game):
    services.line_undo_last(game=game, after=_after(request))


@_owner_action
def line_edit(request, game, line_pk):
    line = get_object_or_404(game.lines, pk=line_pk)
    services.line_update_points(line=line, points=_int_field(request, "points"))


@_owner_action
def line_delete(request, game, line_pk):
    services.line_delete(line=get_object_or_404(game.lines, pk=line_pk))


@_owner_action
def game_reopen(request, game):
    services.game_reopen(game=game)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_finish(request, pk):
    game = _get_game_for_owner(request, pk)
    if request.method == "POST":
        racks = {player.position: request.POST.get(f"rack{player.position}", "") for player in game.players.all()}
        try:
            services.game_finish(game=game, racks=racks)
        except services.SheetError as error:
            context = _sheet_context(request, game, error=str(error), racks=racks)
            return render(request, "sheets/finish.html", context, status=400)
        return redirect("sheets:game", pk=game.pk)
    return render(request, "sheets/finish.html", _sheet_context(request, game))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_delete(request, pk):
    game = _get_game_for_owner(request, pk)
    if request.method == "POST":
        game.delete()
        messages.success(request, _("La partie est supprimée."))
        return redirect("sheets:history")
    return render(request, "sheets/delete.html", {"game": game})


def _to_counter(request, url):
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_counter(request, pk):
    """The typed counter for this game: "Inscrire pour <joueur>" writes the move's points and clears it."""
    game = _get_game_for_owner(request, pk)
    sheet = build_sheet(game)

    def inscribe(state, result, detail):
        if result is None or isinstance(result, dict) or result.too_many_tiles:
            return _("Rien à inscrire : tapez d'abord un coup complet.")
        try:
            services.line_record(
                game=game,
                kind=Line.Kind.PLAY,
                points=result.score,
                detail=detail.replace("\n", " · "),
                tiles=state.new_tiles(),
                after=_after(request),
            )
        except services.SheetError as error:
            return str(error)
        messages.success(
            request,
            _("%(points)d points inscrits pour %(name)s.") % {"points": result.score, "name": sheet.turn.display_name},
        )
        return _to_counter(request, request.path)

    return counter_page(
        request,
        template_name="sheets/counter.html",
        edition_code=game.edition.code,
        rules_code=game.rule_set.code,
        actions={"inscribe": inscribe},
        extra_context={
            "game": game,
            "sheet": sheet,
            "turn": sheet.turn,
            "grid_url": reverse("sheets:grid", args=[game.pk]),
        },
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_grid(request, pk):
    """The grid counter on the game's board; "Inscrire pour <joueur>" writes the move and keeps it on the board."""
    game = _get_game_for_owner(request, pk)
    try:
        after = _after(request)
    except services.SheetError as error:
        return _refused(request, game, str(error))
    return grid_page(request, GameBoardStore(game, after=after))


@login_required
def game_export(request, pk):
    """The game as a GCG file, for any member who may see it."""
    game = _get_game_for_player(request, pk)
    try:
        text = game_to_gcg(game)
    except services.SheetError as error:
        return _refused(request, game, str(error))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="partie-{game.pk}.gcg"'
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_import(request):
    """ "Importer un fichier GCG": every move re-scored. Each file sent counts against the member's rate of imports
    (DJANGO_RATE_IMPORT_MEMBER): past it, the page again with the French sentence, 429 and Retry-After, nothing
    read."""
    if request.method == "POST" and (refusal := throttle_refusal(request, "import")):
        return refusal.answer(render(request, "sheets/import.html", {"form": ImportForm(), "error": refusal}))
    form = ImportForm(request.POST or None, request.FILES or None)
    refused = None
    if request.method == "POST" and form.is_valid():
        edition = form.cleaned_data["edition"]
        try:
            game, notes = game_from_gcg(
                owner=request.user,
                text=form.cleaned_data["text"],
                rule_set=form.cleaned_data["rule_set"],
                filename=form.cleaned_data["file"].name,
                edition_code_override=edition.code if edition else "",
                before_inviting=lambda: count(request, "invitation"),
            )
        except services.SheetError as error:
            form.add_error("file", str(error))
        except Throttled as stopped:
            refused = Refusal(stopped.wait)
            form.add_error("file", str(refused))
        else:
            _say_import_notes(request, game, notes)
            return redirect("sheets:game", pk=game.pk)
    return answered(render(request, "sheets/import.html", {"form": form}, status=400 if form.errors else 200), refused)


def _say_import_notes(request, game, notes: list[str]):
    """What the imported game's sheet says above it: how many moves the file scored otherwise, then the notes."""
    mismatches = game.lines.exclude(recorded_points=None).exclude(recorded_points=models.F("points")).count()
    if mismatches:
        messages.warning(
            request,
            ngettext(
                "%(count)d coup a un score écrit différent du calcul : il est signalé sur la feuille.",
                "%(count)d coups ont un score écrit différent du calcul : ils sont signalés sur la feuille.",
                mismatches,
            )
            % {"count": mismatches},
        )
    for note in notes:
        messages.warning(request, note)


@require_safe
def local_sheet(request):
    """The score sheet kept in this browser, for visitors and members alike. The page sends nothing to the
    server, except a member's "Enregistrer dans mon compte"."""
    return render(request, "sheets/local.html", {"browser_sheet": local.sheet_context(below_counter=False)})
