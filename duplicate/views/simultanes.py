"""The simultanés' pages: a federation body prepares one, clubs register their rooms, everyone concerned follows the
combined ranking live (duplicate.services.simultanes, combined_ranking)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from clubsite.invitations import invitation_refusal
from clubsite.models import Club
from clubsite.throttling import answered

from .. import exports
from ..errors import DuplicateError
from ..forms import RoomForm, SimultaneEditForm, SimultaneForm
from ..models import Session, Simultane
from ..player_lines import invited_names, parse_player_lines
from ..services import combined_ranking, simultanes
from .access import get_simultane_for_member, get_simultane_for_organiser
from .exports import EXPORT_LABELS, export_asked


@login_required
@require_safe
def simultane_list(request):
    simultanes_seen = Simultane.objects.visible_to(request.user).select_related("body")[:100]
    prepares = Club.objects.organised_by(request.user).bodies().exists()
    return render(request, "duplicate/simultanes.html", {"simultanes": simultanes_seen, "prepares": prepares})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def simultane_new(request):
    form = SimultaneForm(request.user, request.POST or None, request.FILES or None)
    if not form.fields["body"].queryset.exists():
        messages.error(request, _("Seuls les organisateurs d'une fédération ou d'un comité préparent un simultané."))
        return redirect("duplicate:simultanes")
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            simultane = simultanes.simultane_create(
                body=data["body"],
                creator=request.user,
                name=data["name"],
                starts_at=data["starts_at"],
                **form.game_setup(),
            )
        except DuplicateError as error:
            form.add_error("game_file", str(error))
        else:
            messages.success(
                request,
                _("Simultané « %(name)s » prêt : %(moves)d coups, scellés jusqu'à ce que chaque salle y arrive.")
                % {"name": simultane.name, "moves": len(simultane.game)},
            )
            return redirect("duplicate:simultane", pk=simultane.pk)
    return render(request, "duplicate/simultane_new.html", {"form": form}, status=400 if form.errors else 200)


@login_required
@require_safe
def simultane_detail(request, pk):
    simultane = get_simultane_for_member(request, pk)
    return render(request, "duplicate/simultane.html", _detail_context(request, simultane))


def _detail_context(request, simultane, form=None, edit_form=None):
    ranking = combined_ranking.live_ranking(simultane)
    form = form or RoomForm(request.user, simultane)
    is_organiser = simultane.is_organiser(request.user)
    started = any(room.drawn for room in ranking.rooms)
    open_ = not simultane.is_over and timezone.now() < simultane.starts_at
    readable = set(Session.objects.visible_to(request.user).filter(simultane=simultane).values_list("pk", flat=True))
    rooms = []
    for room in ranking.rooms:
        runs = room.session.is_organiser(request.user)
        rooms.append((room, _room_link(room.session, runs, readable), is_organiser or runs))
    return {
        "simultane": simultane,
        "ranking": ranking,
        "rooms": rooms,  # (room, the address it opens at or "", may withdraw it)
        "game_readable": simultane.game_readable_by(request.user),
        "form": form,
        "registers": open_ and form.fields["club"].queryset.exists(),
        "registration_open": open_,
        "is_organiser": is_organiser,
        "started": started,
        "edit_form": edit_form
        or SimultaneEditForm(
            simultane,
            initial={
                "name": simultane.name,
                "starts_at": timezone.localtime(simultane.starts_at),
                "move_seconds": simultane.move_seconds,
            },
        ),
        "moves": len(simultane.game),
        "still_playing": _still_playing(ranking),
        "top_pending": any(room.top_pending for room in ranking.rooms),
    }


def _still_playing(ranking) -> str:
    """The rooms not finished and where each stands, as closing the ranking would stop them: "« Salle » (coup 5,
    son top pas encore révélé), « Autre » (pas commencée)"."""
    said = []
    for room in ranking.still_playing:
        if not room.drawn:
            where = _("pas commencée")
        elif room.top_pending:
            where = _("coup %(number)d, son top pas encore révélé") % {"number": room.drawn}
        else:
            where = _("coup %(number)d, son top révélé") % {"number": room.drawn}
        said.append(_("« %(room)s » (%(where)s)") % {"room": room.label, "where": where})
    return ", ".join(said)


def _room_link(session, runs: bool, readable: set) -> str:
    """Where a room of the table opens: its console for its club's organisers, its recap (read only) for whoever
    else reads it (the body's organisers, the club's members, its players), nowhere for the others, nor for
    anyone while the room is sealed from him (`SessionQuerySet.sealed_from`), its own organisers included."""
    if session.pk not in readable:
        return ""
    if runs:
        return reverse("duplicate:session", args=[session.pk])
    return reverse("duplicate:recap", args=[session.pk])


def _refused_page(request, simultane, error):
    """The simultané's page again, with the reason an action was refused."""
    context = _detail_context(request, simultane)
    context["error"] = str(error)
    return render(request, "duplicate/simultane.html", context, status=error.status)


def _simultane_action(request, simultane, action):
    """A body organiser's action on his simultané: done (its message shown, None returned), or the page again with
    the refusal."""
    try:
        message = action(simultane)
    except DuplicateError as error:
        return _refused_page(request, simultane, error)
    messages.success(request, message)
    return None


@login_required
@require_POST
def simultane_edit(request, pk):
    simultane = get_simultane_for_organiser(request, pk)
    form = SimultaneEditForm(simultane, request.POST)
    if not form.is_valid():
        context = _detail_context(request, simultane, edit_form=form)
        return render(request, "duplicate/simultane.html", context, status=400)
    data = form.cleaned_data

    def edit(simultane):
        simultanes.simultane_update(
            simultane=simultane, name=data["name"], starts_at=data["starts_at"], move_seconds=data["move_seconds"]
        )
        return _("Simultané modifié : « %(name)s », le %(when)s.") % {
            "name": simultane.name,
            "when": simultane.when(),
        }

    return _simultane_action(request, simultane, edit) or redirect("duplicate:simultane", pk=pk)


@login_required
@require_POST
def simultane_delete(request, pk):
    def delete(simultane):
        simultanes.simultane_delete(simultane=simultane)
        return _("Le simultané « %(name)s » est supprimé, avec ses salles.") % {"name": simultane.name}

    return _simultane_action(request, get_simultane_for_organiser(request, pk), delete) or redirect(
        "duplicate:simultanes"
    )


@login_required
@require_POST
def simultane_close(request, pk):
    """ "Arrêter le classement" (final, the whole game counted, no room drawing again) or "Rouvrir le classement"
    (no longer said final)."""
    closing = request.POST.get("action") != "reopen"
    dropping = request.POST.get("action") == "close_dropping"

    def close(simultane):
        simultanes.simultane_close(simultane=simultane, closed=closing, drop_pending=dropping, by=request.user)
        if closing:
            return _("Classement arrêté : il compte toute la partie, et aucune salle ne tire plus.")
        return _("Classement rouvert : il compte toujours toute la partie, et aucune salle ne tire de nouveau.")

    return _simultane_action(request, get_simultane_for_organiser(request, pk), close) or redirect(
        "duplicate:simultane", pk=pk
    )


@login_required
@require_POST
def room_withdraw(request, pk, room_pk):
    """A room withdrawn by its club's organiser or the simultané's, while it has drawn nothing; one sealed from the
    member (`SessionQuerySet.sealed_from`) is answered as an id that does not exist."""
    simultane = get_simultane_for_member(request, pk)
    rooms = Session.objects.unsealed_for(request.user).select_related("simultane")
    room = get_object_or_404(rooms, pk=room_pk, simultane=simultane)
    if not (room.is_organiser(request.user) or simultane.is_organiser(request.user)):
        raise Http404
    try:
        simultanes.room_withdraw(room=room, by=request.user)
    except DuplicateError as error:
        return _refused_page(request, simultane, error)
    messages.success(request, _("La salle « %(room)s » est retirée du simultané.") % {"room": room.name})
    return redirect("duplicate:simultane", pk=pk)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def simultane_register(request, pk):
    simultane = get_simultane_for_member(request, pk)
    if request.method in ("GET", "HEAD"):  # the form's address, reloaded: its page
        return redirect("duplicate:simultane", pk=pk)
    form = RoomForm(request.user, simultane, request.POST)
    refused = None
    if form.is_valid():
        data = form.cleaned_data
        refusal = simultanes.registration_refusal(simultane, data["club"], request.user)
        try:
            if refusal:
                raise DuplicateError(refusal)
            players = parse_player_lines(data["players"])
            if refused := invitation_refusal(request, invited_names(players)):
                raise DuplicateError(str(refused))
            room = simultanes.room_register(
                simultane=simultane,
                club=data["club"],
                creator=request.user,
                players=players,
                entry=data["entry"],
            )
        except DuplicateError as error:
            for sentence in error.sentences():
                form.add_error("club" if refusal else "players", sentence)
        else:
            messages.success(
                request,
                _("Salle inscrite pour %(club)s : ajoutez vos joueurs, puis tirez le premier coup à l'heure.")
                % {"club": data["club"].name},
            )
            return redirect("duplicate:session", pk=room.pk)
    return answered(
        render(request, "duplicate/simultane.html", _detail_context(request, simultane, form), status=400), refused
    )


@login_required
@require_safe
def simultane_game(request, pk):
    """The whole game as a game file, once the ranking is closed (`Simultane.is_over`), for the body's organisers
    and the rooms'; sealed before (403). Whoever else sees the simultané gets a 404, as for an id that does not
    exist."""
    simultane = get_simultane_for_member(request, pk)
    if not simultane.is_run_by(request.user):
        raise Http404
    if not simultane.is_over:
        raise PermissionDenied(_("La partie reste scellée jusqu'à l'arrêt du classement."))
    return exports.game_download(simultanes.game_document(simultane), exports.simultane_slug(simultane))


@login_required
@require_safe
def simultane_ranking(request, pk):
    """The combined ranking, overall or within one club or one series (?club=, ?serie=), refreshed live."""
    simultane = get_simultane_for_member(request, pk)
    kind = export_asked(request)
    if not kind:
        return _live_page(request, simultane, public=False)
    # Each counted move's score and marks: computed for the file (the live ranking keeps totals only).
    ranking = combined_ranking.ranking(simultane, detail=True)
    club, series = _filters(request, ranking)
    content = exports.simultane_build(simultane, ranking, kind, club=club, series=series)
    return exports.download(content, kind, exports.simultane_filename(simultane, kind))


def _live_page(request, simultane, *, public):
    """The ranking page, or its board for htmx; its poll (`?v=`, the rooms' state it showed) answers 204 while
    no room changed what it shows: the rooms' projectors and phones poll it every 10 s."""
    stamp = combined_ranking.ranking_stamp(simultane)
    if request.htmx and request.GET.get("v") == stamp:
        return HttpResponse(status=204)
    ranking = combined_ranking.live_ranking(simultane, stamp)
    club, series = _filters(request, ranking)
    context = {
        "stamp": stamp,
        "simultane": simultane,
        "ranking": ranking,
        "rows": ranking.within(club=club, series=series),
        "club": club,
        "series": series,
        "export_kinds": EXPORT_LABELS,
        "public": public,
        "poll_url": reverse("duplicate:simultane_public", args=[simultane.public_key])
        if public
        else reverse("duplicate:simultane_ranking", args=[simultane.pk]),
    }
    template = "duplicate/simultane_ranking.html"
    return render(request, f"{template}#board" if request.htmx else template, context)


@require_safe
def simultane_public(request, public_key):
    """The combined ranking by its public link, read only, for the rooms' projectors and the players' phones (who
    have no account): what the rooms show of their players anyway, the names and totals."""
    simultane = get_object_or_404(Simultane.objects.select_related("body"), public_key=public_key)
    return _live_page(request, simultane, public=True)


def _filters(request, ranking) -> tuple[str, str]:
    """The club and the series asked for (`?club=`, `?serie=`), among those of the ranking; "" for all."""
    club = request.GET.get("club", "")[:100]
    series = request.GET.get("serie", "")[:10]
    return (club if club in ranking.clubs else "", series if series in ranking.series else "")
