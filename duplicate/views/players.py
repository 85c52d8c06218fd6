"""A session's players, managed from the console ("Gérer les joueurs"): pasted in, corrected, withdrawn."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubsite.invitations import invitation_refusal

from ..errors import DuplicateError
from ..forms import PlayerForm, PlayersForm
from ..models import Player
from ..player_lines import invited_names, parse_player_lines
from ..services import players as player_services
from .console import console_url, organiser_action, rate_refused
from .inputs import valid_data


@organiser_action
def players_add(request, session):
    rows = parse_player_lines(valid_data(PlayersForm(request.POST))["players"])
    if not rows:
        raise DuplicateError(_("Collez au moins un joueur."))
    if refused := invitation_refusal(request, invited_names(rows)):
        return rate_refused(request, session, refused)
    player_services.players_add(session=session, rows=rows, by=request.user)
    messages.success(
        request, ngettext("%(count)d joueur ajouté.", "%(count)d joueurs ajoutés.", len(rows)) % {"count": len(rows)}
    )


@organiser_action
def player_edit(request, session, player_pk):
    """Rename a player, change his table, declare him absent (forfait), or correct his licence, club and series."""
    player = get_object_or_404(Player, session=session, pk=player_pk)
    player_services.player_update(player=player, **valid_data(PlayerForm(request.POST)), by=request.user)
    messages.success(request, _("%(name)s : modifications enregistrées.") % {"name": player.name})
    return _back_to_managing_players(request, session)


@organiser_action
def player_remove(request, session, player_pk):
    player = get_object_or_404(Player, session=session, pk=player_pk)
    player_services.player_remove(player=player, by=request.user)
    messages.success(request, _("%(name)s est retiré de la séance.") % {"name": player.name})
    return _back_to_managing_players(request, session)


def _back_to_managing_players(request, session):
    """The console at the same page of players with "Gérer les joueurs" kept open (?gerer=joueurs), scrolled to
    it, the message said there: the arbiter corrects one player after another."""
    return redirect(console_url(request, session, managing=True))
