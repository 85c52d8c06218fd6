from django.urls import path, register_converter

from . import counter, simultane_views, views


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
    path("", views.session_list, name="list"),
    path("nouvelle/", views.session_new, name="new"),
    path("<int:pk>/", views.session_detail, name="session"),
    path("<int:pk>/partie.json", views.session_game, name="game"),
    path("<int:pk>/joueurs/", views.players_add, name="players_add"),
    path("<int:pk>/joueurs/<int:player_pk>/", views.player_edit, name="player_edit"),
    path("<int:pk>/joueurs/<int:player_pk>/retirer/", views.player_remove, name="player_remove"),
    path("<int:pk>/coups/", views.round_add, name="round_add"),
    path("<int:pk>/coups/<int:number>/top/", views.round_top, name="round_top"),
    path("<int:pk>/coups/<int:number>/annuler/", views.round_cancel, name="round_cancel"),
    path("<int:pk>/coups/<int:number>/resultats/<int:player_pk>/", views.result_enter, name="result"),
    path("<int:pk>/coups/<int:number>/bulletin/", views.bulletin_enter, name="bulletin"),
    path("<int:pk>/coups/<int:number>/suivi/", views.console_poll, name="console_poll"),
    path("<int:pk>/chrono/", views.timer_start, name="timer"),
    path("<int:pk>/grille/", views.top_grid, name="top_grid"),
    path("<int:pk>/compteur/", counter.session_counter, name="counter"),
    path("<int:pk>/terminer/", views.session_finish, name="finish"),
    path("<int:pk>/rouvrir/", views.session_reopen, name="reopen"),
    path("<int:pk>/historique/", views.session_history, name="history"),
    path("<int:pk>/feuille/", views.session_sheet, name="sheet"),
    path("<int:pk>/feuille/<int:number>/<int:player_pk>/", views.sheet_cell, name="sheet_cell"),
    path("<int:pk>/recapitulatif/", views.session_recap, name="recap"),
    path("<int:pk>/joueurs/<int:player_pk>/recapitulatif/", views.player_recap, name="player_recap"),
    path("<int:pk>/nouvelle-seance/", views.session_again, name="again"),
    path("<int:pk>/rejouer/", views.session_replay, name="replay"),
    path("simultanes/", simultane_views.simultane_list, name="simultanes"),
    path("simultanes/nouveau/", simultane_views.simultane_new, name="simultane_new"),
    path("simultanes/<int:pk>/", simultane_views.simultane_detail, name="simultane"),
    path("simultanes/<int:pk>/inscrire/", simultane_views.simultane_register, name="simultane_register"),
    path("simultanes/<int:pk>/partie.json", simultane_views.simultane_game, name="simultane_game"),
    path("simultanes/<int:pk>/classement/", simultane_views.simultane_ranking, name="simultane_ranking"),
    path("simultanes/<int:pk>/modifier/", simultane_views.simultane_edit, name="simultane_edit"),
    path("simultanes/<int:pk>/supprimer/", simultane_views.simultane_delete, name="simultane_delete"),
    path("simultanes/<int:pk>/clore/", simultane_views.simultane_close, name="simultane_close"),
    path("simultanes/<int:pk>/salles/<int:room_pk>/retirer/", simultane_views.room_withdraw, name="simultane_withdraw"),
    path("tournois/", views.tournament_list, name="tournaments"),
    path("tournois/<int:pk>/", views.tournament_detail, name="tournament"),
    path("saisons/", views.season_list, name="seasons"),
    path("saisons/<int:pk>/", views.season_detail, name="season"),
    path("saisons/<int:pk>/modifier/", views.season_edit, name="season_edit"),
    path("saisons/<int:pk>/supprimer/", views.season_delete, name="season_delete"),
    path("<int:pk>/export/<str:kind>/", views.export, name="export"),
    path("<int:pk>/exports/<int:job_pk>/", views.export_job, name="export_job"),
    path("<int:pk>/exports/<int:job_pk>/fichier/", views.export_download, name="export_download"),
    path("classement/<key:public_key>/", views.ranking_live, name="ranking"),
    path("simultanes/classement/<key:public_key>/", simultane_views.simultane_public, name="simultane_public"),
    path("salle/<key:public_key>/", views.room, name="room"),
    path("joueur/<key:key>/", views.player_page, name="player"),
]
