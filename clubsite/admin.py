from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from .models import Club, Invitation, Membership


class ClubMembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    fields = ["user", "role", "joined_at"]
    readonly_fields = ["joined_at"]
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "member_count", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [ClubMembershipInline]

    @admin.display(description=_("membres"), ordering="member_count")
    def member_count(self, club):
        return club.member_count

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(member_count=Count("memberships"))


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "joined_at"]
    list_filter = ["role", "club"]
    list_select_related = ["user", "club"]
    search_fields = ["user__username", "user__email", "user__first_name", "user__last_name", "club__name"]
    autocomplete_fields = ["club", "user"]


class UserMembershipInline(admin.TabularInline):
    """A user's clubs on their admin page, so one screen shows everything about a member."""

    model = Membership
    extra = 0
    fields = ["club", "role", "joined_at"]
    readonly_fields = ["joined_at"]
    autocomplete_fields = ["club"]


admin.site.unregister(User)


@admin.register(User)
class MemberAdmin(UserAdmin):
    inlines = [*UserAdmin.inlines, UserMembershipInline]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["invitee", "inviter", "status", "created_at", "answered_at"]
    list_filter = ["status"]
    list_select_related = ["invitee", "inviter"]
    search_fields = ["invitee__username", "inviter__username"]
    readonly_fields = ["invitee", "inviter", "target_type", "target_id", "created_at", "answered_at"]
