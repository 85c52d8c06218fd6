"""A club's seasons: the ranking of its sessions over a period, read by its members, managed by its organisers."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from clubsite.models import Club

from .. import exports
from ..forms import SeasonForm
from ..models import Season
from ..services import seasons as season_services
from .access import get_season_for_member, get_season_for_organiser
from .exports import export_asked


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_list(request):
    """The seasons of the member's clubs, and a new one's form for the clubs he organises."""
    organises = Club.objects.organised_by(request.user).exists()
    form = SeasonForm(request.user, request.POST or None) if organises else None
    if request.method == "POST":
        if form is None:
            raise PermissionDenied(_("Seuls les organisateurs d'un club créent ses saisons."))
        if form.is_valid():
            return redirect("duplicate:season", pk=form.save().pk)
    seasons = Season.objects.visible_to(request.user).select_related("club")
    status = 400 if form is not None and form.errors else 200
    return render(request, "duplicate/seasons.html", {"form": form, "seasons": seasons}, status=status)


@login_required
@require_safe
def season_detail(request, pk):
    season = get_season_for_member(request, pk)
    standing = season_services.season_ranking(season, reader=request.user)
    kind = export_asked(request, exports.SEASON_KINDS)
    if kind:
        content = exports.season_build(season, standing, kind)
        return exports.download(content, kind, exports.season_filename(season, kind))
    context = {"season": season, "standing": standing, "organiser": season.club.is_organiser(request.user)}
    return render(request, "duplicate/season.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_edit(request, pk):
    season = get_season_for_organiser(request, pk)
    form = SeasonForm(request.user, request.POST or None, instance=season)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Saison enregistrée."))
        return redirect("duplicate:season", pk=season.pk)
    context = {"season": season, "form": form}
    return render(request, "duplicate/season_edit.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_delete(request, pk):
    """Deleting a season deletes only its ranking: its sessions stay."""
    season = get_season_for_organiser(request, pk)
    if request.method in ("GET", "HEAD"):
        return redirect("duplicate:season_edit", pk=season.pk)
    season.delete()
    messages.success(request, _("Saison « %(name)s » supprimée.") % {"name": season.name})
    return redirect("duplicate:seasons")
