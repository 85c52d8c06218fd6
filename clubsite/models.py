"""Clubs and their members. Accounts are Django's own `auth.User`; a membership gives a user a role in a club."""

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.fields import GenericForeignKey, GenericRelation
from django.contrib.contenttypes.models import ContentType
from django.core.validators import RegexValidator
from django.db import connections, models
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubsite.sql import columns, instances

# Club pages live under clubs/<slug>/, beside fixed paths such as clubs/nouveau/: no club may take those slugs.
RESERVED_SLUGS = {"nouveau"}


class ClubQuerySet(models.QuerySet):
    def for_user(self, user):
        """The clubs `user` belongs to, whatever the role; none for an anonymous visitor."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(memberships__user=user)

    def organised_by(self, user):
        """The clubs where `user` may run things: organisers and club admins alike."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(memberships__user=user, memberships__role__in=Membership.Role.organising())

    def bodies(self):
        """The federation bodies (federation, districts), which prepare simultanés."""
        return self.exclude(kind=Club.Kind.CLUB)

    def free_slug(self, name: str) -> str:
        """A slug for a new club called `name`, numbered when another club or a fixed path already has it."""
        base = slugify(name)[:50] or "club"
        slug, number = base, 1
        while slug in RESERVED_SLUGS or self.filter(slug=slug).exists():
            number += 1
            slug = f"{base}-{number}"
        return slug


class Club(models.Model):
    class Kind(models.TextChoices):
        CLUB = "club", _("Club")
        DISTRICT = "district", _("Comité (district)")
        FEDERATION = "federation", _("Fédération")

    name = models.CharField(_("nom"), max_length=100)
    slug = models.SlugField(_("adresse"), max_length=60, unique=True)
    # A federation body prepares simultanés for the clubs (duplicate.Simultane); set in the admin.
    kind = models.CharField(_("type"), max_length=10, choices=Kind.choices, default=Kind.CLUB)
    created_at = models.DateTimeField(_("créé le"), auto_now_add=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self):
        return self.name

    @property
    def is_body(self) -> bool:
        """A federation or a district: it prepares simultanés that clubs play."""
        return self.kind != self.Kind.CLUB

    def role_of(self, user) -> "Membership.Role | None":
        """The user's role in this club, or None for anyone who is not a member (anonymous visitors included)."""
        if not user.is_authenticated:
            return None
        role = self.memberships.filter(user=user).order_by().values_list("role", flat=True)[:1]
        return Membership.Role(role[0]) if role else None

    def is_organiser(self, user) -> bool:
        """Whether `user` may run the club's sessions; a club admin counts as an organiser."""
        return self.role_of(user) in Membership.Role.organising()

    def is_admin(self, user) -> bool:
        """Whether `user` may add and remove members and change their roles."""
        return self.role_of(user) == Membership.Role.ADMIN


class MembershipQuerySet(models.QuerySet):
    def admins(self):
        return self.filter(role=Membership.Role.ADMIN)

    def organisers(self):
        """Organisers and club admins: everyone who may run the club's sessions."""
        return self.filter(role__in=Membership.Role.organising())

    def leaving_clubs_without_admin(self):
        """Those of these memberships whose removal (or demotion) would leave their club without an admin: the
        club's admins are all among them."""
        others = Membership.objects.admins().exclude(pk__in=self.values("pk"))
        return self.admins().exclude(club__in=others.values("club"))

    def by_rank(self):
        """Admins first, then organisers, then members, each group by name: the order a club page lists them."""
        rank = models.Case(
            models.When(role=Membership.Role.ADMIN, then=0),
            models.When(role=Membership.Role.ORGANISER, then=1),
            default=2,
        )
        return self.order_by(rank, "user__last_name", "user__first_name", "user__username")


class Membership(models.Model):
    class Role(models.TextChoices):
        MEMBER = "member", _("Membre")
        ORGANISER = "organiser", _("Organisateur")
        ADMIN = "admin", _("Administrateur du club")

        @classmethod
        def organising(cls):
            return (cls.ORGANISER, cls.ADMIN)

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("membre")
    )
    role = models.CharField(_("rôle"), max_length=16, choices=Role, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("membre depuis"), auto_now_add=True)

    objects = MembershipQuerySet.as_manager()

    class Meta:
        verbose_name = _("adhésion")
        verbose_name_plural = _("adhésions")
        ordering = ["club__name", "user__username"]
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club_and_user")]

    def __str__(self):
        return f"{self.user} · {self.club} ({self.get_role_display()})"

    def is_last_admin(self) -> bool:
        """Whether removing or demoting this member would leave the club with nobody to manage its members."""
        return self.role == self.Role.ADMIN and not self.club.memberships.admins().exclude(pk=self.pk).exists()


class ApiTokenQuerySet(models.QuerySet):
    def user_for(self, raw: str):
        """The user a raw `Bearer` token belongs to, or None. Only the token's SHA-256 is stored."""
        # In SQL (clubsite.sql): every call of the API asks, a room's 500 bulletins in a few seconds.
        user_model = get_user_model()
        sql = (
            f"SELECT {columns(user_model, 'u')} FROM {user_model._meta.db_table} u "
            f"JOIN {ApiToken._meta.db_table} t ON t.user_id = u.id WHERE t.digest = %s AND u.is_active"
        )
        with connections[self.db].cursor() as cursor:
            cursor.execute(sql, [ApiToken.digest_of(raw)])
            row = cursor.fetchone()
        return instances(self.db, row, user_model)[0] if row else None


class ApiToken(models.Model):
    """A key for the JSON API (`Authorization: Bearer <token>`), shown once: on "Mon compte" when the member
    creates it, or printed by `create_api_token`."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    label = models.CharField(_("nom"), max_length=60, blank=True, help_text=_("Le programme qui s'en sert."))
    created_at = models.DateTimeField(auto_now_add=True)

    MAX_PER_USER = 5  # a member's keys at once (one per program that calls, and a spare)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        verbose_name = _("jeton d'API")
        verbose_name_plural = _("jetons d'API")

    def __str__(self):
        return f"{self.user} ({self.created_at:%Y-%m-%d})"

    @staticmethod
    def digest_of(raw: str) -> str:
        return hashlib.sha256(raw.encode()).hexdigest()

    @classmethod
    def issue(cls, user, label: str = "") -> str:
        """Create a token for `user` (named `label`, the program that uses it) and return its raw value, which is
        not stored."""
        raw = secrets.token_urlsafe(32)
        cls.objects.create(user=user, digest=cls.digest_of(raw), label=label)
        return raw


class PendingSignupQuerySet(models.QuerySet):
    def expired(self):
        return self.filter(created_at__lt=timezone.now() - timedelta(days=settings.SIGNUP_LINK_DAYS))


class PendingSignup(models.Model):
    """A sign-up waiting for its address to be confirmed. No account exists until then: the form answers the same
    whether or not the address already has one, and an unconfirmed sign-up reserves neither a name nor an address.
    The password is kept hashed, as an account keeps it."""

    username = models.CharField(max_length=150)
    email = models.EmailField()
    first_name = models.CharField(max_length=150, blank=True)
    last_name = models.CharField(max_length=150, blank=True)
    password = models.CharField(max_length=128)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = PendingSignupQuerySet.as_manager()

    class Meta:
        verbose_name = _("inscription en attente")
        verbose_name_plural = _("inscriptions en attente")

    def __str__(self):
        return f"{self.username} <{self.email}>"


class InvitationRefused(Exception):
    """An answer to an invitation that cannot be taken into account; the message says why to the member who
    answered. Raised by a seat's `link_member` (clubsite.invitations.Seat), here so that a seat of clubsite's own,
    `MembershipOffer`, raises it too."""


class InvitationQuerySet(models.QuerySet):
    def pending(self):
        return self.filter(status=Invitation.Status.PENDING)

    def for_seats(self, seats):
        """The invitations to the seats of `seats`, a queryset of one model (a game's or a session's players)."""
        return self.filter(target_type=ContentType.objects.get_for_model(seats.model), target_id__in=seats.values("pk"))


class Invitation(models.Model):
    """A member asked to be linked to a seat in someone else's game or session, or to join a club (a
    `clubsite.invitations.Seat`: a player, a `MembershipOffer`).

    Until he accepts, the seat is only the name typed for him: his name, address and history stay his own. The
    seat is found through the content types framework, so that clubsite knows no app that has seats. At most one
    waits for him from one inviter to one seat."""

    class Status(models.TextChoices):
        PENDING = "pending", _("En attente")
        ACCEPTED = "accepted", _("Acceptée")
        DECLINED = "declined", _("Refusée")

    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("invité")
    )
    # The invitation outlives an inviter whose account is deleted: the seat it names may stay (a member leaves,
    # the games he kept with others may be kept for them).
    inviter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("invité par"),
    )
    target_type = models.ForeignKey(ContentType, on_delete=models.CASCADE)
    target_id = models.PositiveBigIntegerField()
    target = GenericForeignKey("target_type", "target_id")
    status = models.CharField(_("réponse"), max_length=10, choices=Status, default=Status.PENDING)
    created_at = models.DateTimeField(_("envoyée le"), auto_now_add=True)
    answered_at = models.DateTimeField(_("répondue le"), null=True, blank=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["target_type", "target_id"])]
        constraints = [
            # Asked again once answered, a member gets a new invitation; never two waiting for the same place.
            models.UniqueConstraint(
                fields=["inviter", "invitee", "target_type", "target_id"],
                condition=models.Q(status="pending"),
                name="one_pending_invitation_per_inviter_invitee_and_place",
            )
        ]

    def __str__(self):
        return f"{self.inviter} → {self.invitee} ({self.get_status_display()})"


class MembershipOfferQuerySet(models.QuerySet):
    def pending(self):
        """The places nobody has taken yet: not accepted (declined, or offered to an address with no account)."""
        return self.filter(member=None)


class MembershipOffer(models.Model):
    """A place in a club offered by one of its admins ("Inviter au club"): the member it names joins the club, with
    the role offered, only by accepting the invitation of which it is the target (clubsite.invitations.Seat), as a
    seat in a game or a session. Until then the club page shows only the name typed, never his address or full
    name. An address with no account gets its place too, which nobody will take, so that the page says the same
    whether or not an account uses the address; a place declined stays "en attente" for the same reason."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="offers", verbose_name=_("club"))
    name = models.CharField(_("nom saisi"), max_length=150)
    role = models.CharField(_("rôle offert"), max_length=16, choices=Membership.Role, default=Membership.Role.MEMBER)
    # Set once he accepts; the place then leaves the club page's invitations.
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("offerte le"), auto_now_add=True)
    # Withdrawn, the place takes its invitation with it: the invitee no longer reads it.
    invitations = GenericRelation(Invitation, content_type_field="target_type", object_id_field="target_id")

    objects = MembershipOfferQuerySet.as_manager()

    class Meta:
        verbose_name = _("place offerte dans un club")
        verbose_name_plural = _("places offertes dans un club")
        ordering = ["created_at", "pk"]

    def __str__(self):
        return f"{self.name} · {self.club}"

    # The place as clubsite.invitations.Seat.

    def invitation_text(self) -> str:
        return gettext(
            "Rejoindre le club « %(club)s » comme %(role)s. Ses membres verront votre nom et votre nom d'utilisateur."
        ) % {"club": self.club.name, "role": self.get_role_display()}

    def link_member(self, user) -> None:
        if self.club.memberships.filter(user=user).exists():
            raise InvitationRefused(gettext("Vous êtes déjà membre de ce club."))
        self.club.memberships.create(user=user, role=self.role)
        self.member = user
        self.save(update_fields=["member"])

    def linked_url(self) -> str:
        return reverse("club_detail", args=[self.club.slug])

    def accepted_text(self) -> str:
        return gettext("Invitation acceptée : vous êtes membre du club « %(club)s ».") % {"club": self.club.name}


# A federation licence number as clubs print it: letters and digits only (a dash or a space typed is refused, so that
# one member's licence is written one way everywhere).
LICENCE_VALIDATOR = RegexValidator(
    r"^[0-9A-Za-z]*\Z", _("Une licence ne compte que des lettres et des chiffres, sans espace.")
)


class Profile(models.Model):
    """What a member keeps about himself beyond Django's account: his federation licence, which a seat he is
    linked to in a duplicate session takes when its line gave none."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    licence = models.CharField(_("licence"), max_length=20, blank=True, validators=[LICENCE_VALIDATOR])

    class Meta:
        verbose_name = _("profil")
        verbose_name_plural = _("profils")

    def __str__(self):
        return self.licence

    @classmethod
    def licence_of(cls, user) -> str:
        """The member's licence, "" when he gave none."""
        return cls.objects.filter(user=user).values_list("licence", flat=True).first() or ""


class RateWindow(models.Model):
    """One rate limit's count of requests for one client (`clubsite.throttling`), when the shared cache is the
    database's: counted by one statement, so that concurrent requests cannot both read the same count (issue 23's
    trial: 40 password resets sent at once passed a limit of 3 by 31). The window ends at `expires`; a request after
    it opens the next one. Windows long over are deleted now and then by the requests themselves."""

    key = models.CharField(max_length=200, primary_key=True)
    expires = models.FloatField()  # seconds since the epoch, as the throttles' clock reads it
    hits = models.PositiveIntegerField()

    class Meta:
        verbose_name = _("compte d'une limite de débit")
        verbose_name_plural = _("comptes des limites de débit")

    def __str__(self):
        return f"{self.key}: {self.hits}"
