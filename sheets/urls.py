from django.urls import path

from . import views

app_name = "sheets"

urlpatterns = [
    path("", views.history, name="history"),
    path("nouvelle/", views.game_new, name="new"),
    path("importer/", views.game_import, name="import"),
    path("locale/", views.local_sheet, name="local"),
    path("<int:pk>/", views.game_detail, name="game"),
    path("<int:pk>/revoir/", views.game_review, name="review"),
    path("<int:pk>/revoir/tirage/<int:line_pk>/", views.line_rack, name="review_rack"),
    path("<int:pk>/compter/", views.game_counter, name="counter"),
    path("<int:pk>/grille/", views.game_grid, name="grid"),
    path("<int:pk>/lignes/", views.line_add, name="line_add"),
    path("<int:pk>/lignes/annuler/", views.line_undo, name="line_undo"),
    path("<int:pk>/lignes/<int:line_pk>/", views.line_edit, name="line_edit"),
    path("<int:pk>/lignes/<int:line_pk>/supprimer/", views.line_delete, name="line_delete"),
    path("<int:pk>/penalite/", views.penalty_add, name="penalty"),
    path("<int:pk>/contestation/", views.challenge_add, name="challenge"),
    path("<int:pk>/terminer/", views.game_finish, name="finish"),
    path("<int:pk>/rouvrir/", views.game_reopen, name="reopen"),
    path("<int:pk>/nouvelle-partie/", views.game_again, name="again"),
    path("<int:pk>/supprimer/", views.game_delete, name="delete"),
    path("<int:pk>/partie.gcg", views.game_export, name="export"),
]
