from django.urls import path, register_converter

from .views import (
    bulletins,
    console,
    counter,
    exports,
    phone,
    players,
    room,
    seasons,
    sessions,
    sheet,
    simultanes,
    tournaments,
)


class KeyConverter:
    """A session's or a player's key in a link (`secrets.token_urlsafe`): letters, digits, "-" and "_". Anything
    else, a NUL character among others (PostgreSQL refuses even to compare it), is a page that does not exist."""

    regex = "[A-Za-z0-9_-]+"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(KeyConverter, "key")

app_name = "duplicate"

urlpatterns = [
    path("", sessions.session_list, name="list"),
    path("nouvelle/", sessions.session_new, name="new"),
    path("<int:pk>/", console.session_detail, name="session"),
    path("<int:pk>/partie.json", exports.session_game, name="game"),
    path("<int:pk>/joueurs/", players.players_add, name="players_add"),
    path("<int:pk>/joueurs/<int:player_pk>/", players.player_edit, name="player_edit"),
    path("<int:pk>/joueurs/<int:player_pk>/retirer/", players.player_remove, name="player_remove"),
    path("<int:pk>/coups/", console.round_add, name="round_add"),
    path("<int:pk>/coups/<int:number>/top/", console.round_top, name="round_top"),
    path("<int:pk>/coups/<int:number>/annuler/", console.round_cancel, name="round_cancel"),
    path("<int:pk>/coups/<int:number>/resultats/<int:player_pk>/", bulletins.result_enter, name="result"),
    path("<int:pk>/coups/<int:number>/bulletin/", bulletins.bulletin_enter, name="bulletin"),
    path("<int:pk>/coups/<int:number>/suivi/", bulletins.console_poll, name="console_poll"),
    path("<int:pk>/chrono/", console.timer_start, name="timer"),
    path("<int:pk>/grille/", counter.top_grid, name="top_grid"),
    path("<int:pk>/compteur/", counter.session_counter, name="counter"),
    path("<int:pk>/terminer/", sessions.session_finish, name="finish"),
    path("<int:pk>/rouvrir/", sessions.session_reopen, name="reopen"),
    path("<int:pk>/historique/", sessions.session_history, name="history"),
    path("<int:pk>/feuille/", sheet.session_sheet, name="sheet"),
    path("<int:pk>/feuille/<int:number>/<int:player_pk>/", sheet.sheet_cell, name="sheet_cell"),
    path("<int:pk>/recapitulatif/", sheet.session_recap, name="recap"),
    path("<int:pk>/joueurs/<int:player_pk>/recapitulatif/", sheet.player_recap, name="player_recap"),
    path("<int:pk>/nouvelle-seance/", sessions.session_again, name="again"),
    path("<int:pk>/rejouer/", sheet.session_replay, name="replay"),
    path("simultanes/", simultanes.simultane_list, name="simultanes"),
    path("simultanes/nouveau/", simultanes.simultane_new, name="simultane_new"),
    path("simultanes/<int:pk>/", simultanes.simultane_detail, name="simultane"),
    path("simultanes/<int:pk>/inscrire/", simultanes.simultane_register, name="simultane_register"),
    path("simultanes/<int:pk>/partie.json", simultanes.simultane_game, name="simultane_game"),
    path("simultanes/<int:pk>/classement/", simultanes.simultane_ranking, name="simultane_ranking"),
    path("simultanes/<int:pk>/modifier/", simultanes.simultane_edit, name="simultane_edit"),
    path("simultanes/<int:pk>/supprimer/", simultanes.simultane_delete, name="simultane_delete"),
    path("simultanes/<int:pk>/clore/", simultanes.simultane_close, name="simultane_close"),
    path("simultanes/<int:pk>/salles/<int:room_pk>/retirer/", simultanes.room_withdraw, name="simultane_withdraw"),
    path("tournois/", tournaments.tournament_list, name="tournaments"),
    path("tournois/<int:pk>/", tournaments.tournament_detail, name="tournament"),
    path("saisons/", seasons.season_list, name="seasons"),
    path("saisons/<int:pk>/", seasons.season_detail, name="season"),
    path("saisons/<int:pk>/modifier/", seasons.season_edit, name="season_edit"),
    path("saisons/<int:pk>/supprimer/", seasons.season_delete, name="season_delete"),
    path("<int:pk>/export/<str:kind>/", exports.export, name="export"),
    path("<int:pk>/exports/<int:job_pk>/", exports.export_job, name="export_job"),
    path("<int:pk>/exports/<int:job_pk>/fichier/", exports.export_download, name="export_download"),
    path("classement/<key:public_key>/", room.ranking_live, name="ranking"),
    path("simultanes/classement/<key:public_key>/", simultanes.simultane_public, name="simultane_public"),
    path("salle/<key:public_key>/", room.room, name="room"),
    path("joueur/<key:key>/", phone.player_page, name="player"),
]
