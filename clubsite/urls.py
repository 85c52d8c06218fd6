from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from clubsite.api import api
from clubsite.views import accounts, clubs, invitations, offline, progress, tokens
from scoring import help as scoring_help
from scoring import views as scoring_views
from sheets import help as sheets_help

# A database error outside any view (a session saved after the page) is answered as one inside: 503.
handler500 = "clubsite.views.errors.server_error"
# A request Django refuses while reading it (too big, too many fields, a host not allowed): the site's page.
handler400 = "clubsite.views.errors.bad_request"

urlpatterns = [
    path("", scoring_views.counter, name="counter"),
    path("grille/", scoring_views.grid, name="grid"),
    path("mots/", scoring_views.word_finder, name="words"),
    path("mots/liste/<slug:edition>/<slug:version>.txt.gz", scoring_views.word_list, name="word_list"),
    path("aide/", scoring_help.help_index, name="help"),
    path("aide/points/", scoring_help.points_guide, name="help_points"),
    path("aide/feuille/", sheets_help.sheet_faq, name="help_sheet"),
    path("aide/lettres/", scoring_help.letter_values, name="help_letters"),
    path("parties/", include("sheets.urls")),
    path("duplicate/", include("duplicate.urls")),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("compte/", accounts.profile, name="profile"),
    path("compte/progres/", progress.progress, name="progress"),
    path("compte/jetons/", tokens.api_token_create, name="api_token_create"),
    path("compte/jetons/<int:pk>/supprimer/", tokens.api_token_delete, name="api_token_delete"),
    path("compte/adresse/<str:token>/", accounts.email_confirm, name="email_confirm"),
    path("compte/invitations/<int:pk>/accepter/", invitations.invitation_accept, name="invitation_accept"),
    path("compte/invitations/<int:pk>/refuser/", invitations.invitation_decline, name="invitation_decline"),
    path("compte/invitations/tout-refuser/", invitations.invitations_decline_all, name="invitations_decline_all"),
    path("compte/inscription/", accounts.signup, name="signup"),
    path("compte/inscription/envoyee/", accounts.signup_sent, name="signup_sent"),
    path("compte/inscription/confirmer/<str:token>/", accounts.signup_confirm, name="signup_confirm"),
    path("compte/connexion/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("compte/deconnexion/", auth_views.LogoutView.as_view(), name="logout"),
    path("compte/mot-de-passe/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("compte/mot-de-passe/modifie/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("compte/mot-de-passe/oubli/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path("compte/mot-de-passe/oubli/envoye/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "compte/mot-de-passe/nouveau/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "compte/mot-de-passe/nouveau/enregistre/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("clubs/", clubs.clubs, name="clubs"),
    path("clubs/nouveau/", clubs.club_create, name="club_create"),
    path("clubs/<slug:slug>/", clubs.club_detail, name="club_detail"),
    path("clubs/<slug:slug>/membres/ajouter/", clubs.club_member_add, name="club_member_add"),
    path("clubs/<slug:slug>/membres/<int:membership_id>/role/", clubs.club_member_role, name="club_member_role"),
    path(
        "clubs/<slug:slug>/membres/<int:membership_id>/retirer/",
        clubs.club_member_remove,
        name="club_member_remove",
    ),
    path(
        "clubs/<slug:slug>/invitations/<int:offer_id>/retirer/", clubs.club_offer_withdraw, name="club_offer_withdraw"
    ),
    path("clubs/<slug:slug>/quitter/", clubs.club_leave, name="club_leave"),
]
