from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.forms.models import BaseInlineFormSet, ModelForm
from django.utils.translation import gettext_lazy as _

from .forms import MemberChangeForm, MemberCreationForm
from .models import Club, Invitation, Membership, Profile
from .services import LAST_ADMIN


def _last_admin_refusals(memberships) -> list[str]:
    """One line per club that `memberships` going would leave without an admin, for the admin's pages."""
    return [
        _("%(club)s : %(rule)s") % {"club": m.club, "rule": str(LAST_ADMIN)[:1].lower() + str(LAST_ADMIN)[1:]}
        for m in memberships.leaving_clubs_without_admin().select_related("club").order_by("club__name")
    ]


class LastAdminFormSet(BaseInlineFormSet):
    """The membership rows of a club's or a user's admin page: a row deleted, demoted or moved to another club
    may not leave its club without an admin, unless the same page names another one there."""

    def clean(self):
        super().clean()
        leaving, admins_after = [], set()
        for form in self.initial_forms + self.extra_forms:
            if not form.has_changed() and form not in self.initial_forms:
                continue
            deleted = self.can_delete and self._should_delete_form(form)
            before = form.initial.get("role"), form.initial.get("club", form.instance.club_id)
            after = form.cleaned_data.get("role"), form.instance.club_id
            if not deleted and after[0] == Membership.Role.ADMIN:
                admins_after.add(after[1])
            if form.instance.pk and before[0] == Membership.Role.ADMIN and (deleted or after != before):
                leaving.append(form.instance.pk)
        refused = Membership.objects.filter(pk__in=leaving).exclude(club__in=admins_after)
        if refusals := _last_admin_refusals(refused):
            raise ValidationError(refusals)


class MembershipInline(admin.TabularInline):
    """Membership rows inside another admin page, each kept from leaving its club without an admin."""

    model = Membership
    formset = LastAdminFormSet
    extra = 0
    readonly_fields = ["joined_at"]


class ClubMembershipInline(MembershipInline):
    """A club's members on its admin page."""

    fields = ["user", "role", "joined_at"]
    autocomplete_fields = ["user"]


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "licence"]
    search_fields = ["user__username", "licence"]


class WithoutAdminFilter(admin.SimpleListFilter):
    """The clubs whose last admin left (a member may always leave, issue 23): the site's staff names the next."""

    title = _("administrateur")
    parameter_name = "admin"

    def lookups(self, request, model_admin):
        return [("aucun", _("Sans administrateur"))]

    def queryset(self, request, queryset):
        if self.value() == "aucun":
            return queryset.exclude(memberships__role=Membership.Role.ADMIN)
        return queryset


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "kind", "member_count", "created_at"]
    list_filter = ["kind", WithoutAdminFilter]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [ClubMembershipInline]

    @admin.display(description=_("membres"), ordering="member_count")
    def member_count(self, club):
        return club.member_count

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(member_count=Count("memberships"))

    def get_deleted_objects(self, objs, request):
        """What a club's deletion takes: the apps refuse it (as protected objects) while it holds what its
        members share, such as sessions with results; the page then says why."""
        deleted = super().get_deleted_objects(objs, request)
        if deleted[3]:
            self.message_user(
                request,
                _(
                    "Ce club a joué des séances dont les résultats appartiennent à leurs joueurs : il ne peut pas "
                    "être supprimé avec elles (ci-dessous)."
                ),
                messages.ERROR,
            )
        return deleted


class MembershipForm(ModelForm):
    """A membership edited on its own admin page: demoting the club's last admin, or moving him to another
    club, is refused as on the club's page."""

    def clean(self):
        cleaned = super().clean()
        before = self.initial.get("role"), self.initial.get("club")
        after = cleaned.get("role"), getattr(cleaned.get("club"), "pk", None)
        if not (self.instance.pk and before[0] == Membership.Role.ADMIN and after != before):
            return cleaned
        if refusals := _last_admin_refusals(Membership.objects.filter(pk=self.instance.pk)):
            raise ValidationError(refusals)
        return cleaned


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    form = MembershipForm
    list_display = ["user", "club", "role", "joined_at"]
    list_filter = ["role", "club"]
    list_select_related = ["user", "club"]
    search_fields = ["user__username", "user__email", "user__first_name", "user__last_name", "club__name"]
    autocomplete_fields = ["club", "user"]

    def get_deleted_objects(self, objs, request):
        """Deleting memberships (one, or a selection) keeps an admin in every club."""
        pks = [membership.pk for membership in objs]
        return _refuse_last_admins(self, request, super().get_deleted_objects(objs, request), pks)


class UserMembershipInline(MembershipInline):
    """A user's clubs on their admin page, so one screen shows everything about a member."""

    fields = ["club", "role", "joined_at"]
    autocomplete_fields = ["club"]


admin.site.unregister(User)


@admin.register(User)
class MemberAdmin(UserAdmin):
    form = MemberChangeForm
    add_form = MemberCreationForm
    inlines = [*UserAdmin.inlines, UserMembershipInline]

    def get_deleted_objects(self, objs, request):
        """Deleting a member (or a selection) who is the last admin of a club is refused: another admin first.
        What he shares with others (games, sessions, their history) stays: see each app's on_delete rules."""
        pks = Membership.objects.filter(user__in=list(objs)).values_list("pk", flat=True)
        return _refuse_last_admins(self, request, super().get_deleted_objects(objs, request), list(pks))


def _refuse_last_admins(model_admin, request, deleted, membership_pks):
    """`get_deleted_objects`'s answer with the clubs left without an admin added to what blocks the deletion
    (the admin's confirmation page then lists them and deletes nothing)."""
    to_delete, model_count, perms_needed, protected = deleted
    refusals = _last_admin_refusals(Membership.objects.filter(pk__in=membership_pks))
    if refusals:
        model_admin.message_user(
            request, _("Nommez d'abord un autre administrateur dans ces clubs, ou supprimez le club."), messages.ERROR
        )
    return to_delete, model_count, perms_needed, [*protected, *refusals]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["invitee", "inviter", "status", "created_at", "answered_at"]
    list_filter = ["status"]
    list_select_related = ["invitee", "inviter"]
    search_fields = ["invitee__username", "inviter__username"]
    readonly_fields = ["invitee", "inviter", "target_type", "target_id", "created_at", "answered_at"]
