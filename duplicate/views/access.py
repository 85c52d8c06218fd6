"""Who may reach what: each owned object's loader, called on a view's first line, gives the object or raises the
404 of an id that does not exist (for whoever may not know of it) or a 403 (for whoever may read it but not change
it)."""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from ..models import Player, Round, Season, Session, Simultane, Tournament


def get_session_for_organiser(request, pk) -> Session:
    """The session if the member runs it; 403 for someone who may read it (a member of its club, a player);
    404 for anyone else, another club's organiser included, as for an id that does not exist."""
    sessions = Session.objects.visible_to(request.user).select_related("club", "edition", "rule_set")
    session = get_object_or_404(sessions, pk=pk)
    if not session.is_organiser(request.user):
        raise PermissionDenied(_("Seuls les organisateurs de la séance la mènent."))
    return session


def get_player_for_recap(request, pk, player_pk) -> Player:
    """A player of the session whose recap the member may read (his own seat, or any in a session he runs), his
    session loaded; 404 for anyone else, as for an id that does not exist."""
    players = Player.objects.recap_readable_by(request.user).select_related(
        "session", "session__club", "session__edition", "session__rule_set"
    )
    player = get_object_or_404(players, pk=player_pk)
    if player.session_id != pk:  # compared here: an id beyond the column would reach the database's integer
        raise Http404
    return player


def get_player_by_key(key) -> tuple[Player, Round | None]:
    """A player's own page is reached through his personal link (or from his account): the player, his session
    loaded, and the move being played."""
    found = Player.objects.by_key(key)
    if found is None:
        raise Http404
    return found


def get_tournament_for_organiser(request, pk) -> Tournament:
    """The tournament if the member runs it; 403 for someone who may know of it; 404 for anyone else."""
    tournament = get_object_or_404(Tournament.objects.visible_to(request.user).select_related("club"), pk=pk)
    if not Tournament.objects.organised_by(request.user).filter(pk=tournament.pk).exists():
        raise PermissionDenied(_("Seuls les organisateurs du tournoi le consultent."))
    return tournament


def get_season_for_member(request, pk) -> Season:
    """The season if the member belongs to its club; 404 for anyone else, as for an id that does not exist."""
    return get_object_or_404(Season.objects.visible_to(request.user).select_related("club"), pk=pk)


def get_season_for_organiser(request, pk) -> Season:
    """The season if the member runs its club; 403 for the club's other members; 404 for anyone else."""
    season = get_season_for_member(request, pk)
    if not season.club.is_organiser(request.user):
        raise PermissionDenied(_("Seuls les organisateurs du club gèrent ses saisons."))
    return season


def get_simultane_for_member(request, pk) -> Simultane:
    """A simultané the member may see; anyone else gets the 404 of an unknown id."""
    visible = Simultane.objects.visible_to(request.user).select_related("body", "edition", "rule_set")
    return get_object_or_404(visible, pk=pk)


def get_simultane_for_organiser(request, pk) -> Simultane:
    """A simultané of a body the member organises; 404 for anyone else."""
    simultane = get_simultane_for_member(request, pk)
    if not simultane.is_organiser(request.user):
        raise Http404
    return simultane
