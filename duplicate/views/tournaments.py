"""Tournaments: sessions an organiser ranks together, on a page and in a file."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from .. import exports
from ..errors import DuplicateError
from ..forms import TournamentForm
from ..models import Tournament
from ..services import tournaments as tournament_services
from .access import get_tournament_for_organiser
from .exports import export_asked


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_list(request):
    form = TournamentForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_services.tournament_create(
                name=form.cleaned_data["name"], creator=request.user, sessions=form.cleaned_data["sessions"]
            )
        except DuplicateError as error:
            form.add_error("sessions", str(error))
        else:
            return redirect("duplicate:tournament", pk=tournament.pk)
    context = {"form": form, "tournaments": Tournament.objects.organised_by(request.user)}
    return render(request, "duplicate/tournaments.html", context, status=400 if form.errors else 200)


@login_required
@require_safe
def tournament_detail(request, pk):
    tournament = get_tournament_for_organiser(request, pk)
    ranking = tournament_services.tournament_ranking(tournament, reader=request.user)
    kind = export_asked(request)
    if kind:
        content = exports.tournament_build(ranking, kind, tournament.name)
        return exports.download(content, kind, exports.tournament_filename(tournament, kind))
    return render(request, "duplicate/tournament.html", {"tournament": tournament, "ranking": ranking})
