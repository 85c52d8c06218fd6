"""A member's sessions: his list, a new session, and a session's life past its console (finished, reopened, played
again with the same players) with its history of changes."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Exists, OuterRef
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_safe

from clubsite.invitations import invitation_refusal
from clubsite.models import Club
from clubsite.text import HIDDEN, STACKED
from clubsite.throttling import answered

from ..errors import DuplicateError
from ..forms import AgainForm, SessionForm
from ..models import Player, Session
from ..player_lines import invited_names, parse_player_lines
from ..services import sessions as session_services
from .access import get_session_for_organiser
from .console import organiser_action, rate_refused
from .inputs import query_int


@login_required
@require_safe
def session_list(request):
    # A room of his ahead of another of his rooms in the same simultané is listed without its link (it is sealed).
    sealed = Session.objects.sealed_from(request.user).filter(pk=OuterRef("pk"))
    organised = (
        Session.objects.organised_by(request.user)
        .filter(automatic=False)
        .annotate(sealed=Exists(sealed))
        .select_related("club")
    )
    played = (
        Player.objects.filter(member=request.user, session__automatic=False)
        .select_related("session")
        .order_by("-session__date")
    )
    # His games alone against the tops (automatic games and replays), apart: he neither runs nor joins a room there.
    alone = (
        Player.objects.filter(member=request.user, session__automatic=True)
        .select_related("session__replay_of")
        .order_by("-session__date", "-session__pk")
    )
    # The sessions of his clubs a member may review (their recap), besides those he runs or plays in; the rooms of
    # his federation body's simultanés are listed on their simultané's page.
    clubs = (
        Session.objects.visible_to(request.user)
        .filter(club__in=Club.objects.for_user(request.user))
        .exclude(pk__in=organised.values("pk"))
        .exclude(pk__in=played.values("session"))
        .select_related("club")[:50]
    )
    context = {"organised": organised, "played": played, "alone": alone, "clubs": clubs}
    return render(request, "duplicate/list.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def session_new(request):
    form = SessionForm(request.user, request.POST or None, request.FILES or None)
    refused = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            players = parse_player_lines(data["players"])
            # The players named @username are invited: one paste, one action against the organiser's rate.
            if refused := invitation_refusal(request, invited_names(players)):
                raise DuplicateError(str(refused))
            session = session_services.session_create(
                creator=request.user,
                club=data["club"],
                name=data["name"],
                date=data["date"],
                entry=data["entry"],
                automatic=data["automatic"],
                players=players,
                **form.game_setup(),
            )
        except DuplicateError as error:
            for sentence in error.sentences():
                form.add_error("players", sentence)
        else:
            messages.success(request, _created(session, data["game"]))
            if session.automatic:
                return redirect("duplicate:player", key=session.players.first().key)
            return redirect("duplicate:session", pk=session.pk)
    return answered(render(request, "duplicate/new.html", {"form": form}, status=400 if form.errors else 200), refused)


def _created(session, game) -> str:
    if not game:
        return _("Séance « %(name)s » créée.") % {"name": session.name}
    return ngettext(
        "Séance « %(name)s » créée avec le coup du fichier.",
        "Séance « %(name)s » créée avec les %(count)d coups du fichier.",
        len(game),
    ) % {"name": session.name, "count": len(game)}


@organiser_action
def session_finish(request, session):
    session_services.session_finish(session=session, by=request.user)
    messages.success(request, _("La séance est terminée : rien n'y change plus sans « Rouvrir la séance »."))


@organiser_action
def session_reopen(request, session):
    session_services.session_reopen(session=session, by=request.user)
    messages.success(request, _("La séance est rouverte ; la réouverture est notée dans l'historique."))


@organiser_action
def session_again(request, session):
    form = AgainForm(request.POST)
    if form.has_error("name", HIDDEN) or form.has_error("name", STACKED):
        raise DuplicateError(form.errors["name"][0])
    if not form.is_valid():
        raise DuplicateError(_("Donnez un nom et une date à la nouvelle séance."))
    members = session.players.exclude(member=None).values_list("member__username", flat=True)
    if refused := invitation_refusal(request, members):
        return rate_refused(request, session, refused)
    copy = session_services.session_again(session=session, creator=request.user, **form.cleaned_data)
    messages.success(request, _("Nouvelle séance avec les mêmes joueurs."))
    return redirect("duplicate:session", pk=copy.pk)


@login_required
@require_safe
def session_history(request, pk):
    """Every change of the session, newest first, for one player or one move when asked (?joueur=, ?coup=)."""
    session = get_session_for_organiser(request, pk)
    changes = session.changes.select_related("user", "player")
    player = session.players.filter(pk=query_int(request, "joueur")).first()
    number = query_int(request, "coup")
    if player:
        changes = changes.filter(player=player)
    if number:
        changes = changes.filter(round_number=number)
    context = {"session": session, "changes": changes[:500], "player": player, "number": number}
    return render(request, "duplicate/history.html", context)
