"""Editions and rule sets as rows the admin edits; the engine receives the plain objects they build."""

import functools
import gzip
import hashlib
import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, slug_re
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .engine import editions as engine_editions
from .engine import gaddag as engine_gaddag
from .engine import lexicon as engine_lexicon
from .engine import rules as engine_rules
from .engine.errors import ScoringError, gettext_noop
from .engine.movegen import MAX_RACK

# Built engine objects by (kind, primary key), with the row's updated_at when built: a row saved in any
# process has a newer updated_at, so every process rebuilds on its next lookup and none serves a stale one.
_built: dict[tuple[str, int], tuple[object, object]] = {}


def _cached(kind: str, row: dict, build):
    key = (kind, row["pk"])
    cached = _built.get(key)
    if cached is None or cached[0] != row["updated_at"]:
        cached = _built[key] = (row["updated_at"], build())
    return cached[1]


class EngineQuerySet(models.QuerySet):
    """Rows the engine receives as plain objects, chosen by code (the default row when the code is None)."""

    kind = ""
    unknown_message = ""

    def named(self, code):
        """The row whose code is `code`. A code is a slug: anything else, such as a NUL character (which
        PostgreSQL refuses even to compare), names no row and is not sent to the database."""
        return self.filter(code=code) if isinstance(code, str) and slug_re.match(code) else self.none()

    def named_or_default(self, code: str | None):
        """The row whose code is `code`, the default row when no code is given (None), as an API body leaves it."""
        return (self.filter(is_default=True) if code is None else self.named(code)).first()

    def engine(self, code: str | None = None):
        """The engine's object for `code`, built once per process and rebuilt only after the row is saved."""
        rows = self.named(code) if code else self.filter(is_default=True)
        row = rows.values("pk", "updated_at").first()
        if row is None:
            known = ", ".join(self.order_by("code").values_list("code", flat=True))
            raise UnknownChoice(self.unknown_message, code=code, known=known)
        return _cached(self.kind, row, lambda: self.for_engine().get(pk=row["pk"]).build())

    def for_engine(self):
        return self


_LETTER = re.compile(r"^(\?|[^\W\d_](?:·?[^\W\d_]){0,2})$")


class UnknownChoice(ScoringError):
    """An edition or rule set code that matches no row."""


class EditionQuerySet(EngineQuerySet):
    kind = "edition"
    unknown_message = gettext_noop("Édition inconnue : « %(code)s ». Éditions disponibles : %(known)s.")

    def default(self) -> "Edition":
        return self.filter(is_default=True).first() or self.order_by("pk").first()


class Edition(models.Model):
    code = models.SlugField(_("code"), max_length=8, unique=True)
    name = models.CharField(_("nom"), max_length=60)
    is_default = models.BooleanField(_("édition par défaut"), default=False)
    updated_at = models.DateTimeField(auto_now=True)

    objects = EditionQuerySet.as_manager()

    class Meta:
        verbose_name = _("édition")
        verbose_name_plural = _("éditions")
        ordering = ["-is_default", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["is_default"], condition=models.Q(is_default=True), name="one_default_edition"
            )
        ]

    def __str__(self):
        return f"{self.name} ({self.code})"

    def build(self) -> engine_editions.Edition:
        letters = []
        blanks = 0
        for row in self.letters.order_by("position", "pk"):
            if row.letter == engine_editions.BLANK:
                blanks = row.count
            else:
                letters.append(
                    engine_editions.LetterSpec(row.letter, row.count, row.value, row.is_vowel, row.is_consonant)
                )
        return engine_editions.Edition(code=self.code, name=self.name, letters=tuple(letters), blanks=blanks)

    def touch(self):
        """Mark the edition changed, so every process rebuilds its engine object."""
        Edition.objects.filter(pk=self.pk).update(updated_at=timezone.now())


class EditionLetter(models.Model):
    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="letters")
    letter = models.CharField(
        _("lettre"),
        max_length=3,
        help_text=_("En majuscules ; « ? » pour le joker ; CH, LL, L·L pour une tuile double."),
    )
    count = models.PositiveSmallIntegerField(_("nombre"), validators=[MinValueValidator(0)])
    value = models.PositiveSmallIntegerField(_("valeur"), validators=[MinValueValidator(0)])
    is_vowel = models.BooleanField(_("voyelle"), default=False)
    is_consonant = models.BooleanField(_("consonne"), default=False)
    position = models.PositiveSmallIntegerField(_("ordre"), default=0)

    class Meta:
        verbose_name = _("lettre")
        verbose_name_plural = _("lettres")
        ordering = ["position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["edition", "letter"], name="letter_once_per_edition"),
            models.CheckConstraint(condition=models.Q(count__gte=0, value__gte=0), name="letter_not_negative"),
        ]

    def __str__(self):
        return f"{self.letter} × {self.count} ({self.value})"

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
        self.edition.touch()

    def delete(self, *args, **kwargs):
        edition = self.edition
        result = super().delete(*args, **kwargs)
        edition.touch()
        return result

    def clean(self):
        if not _LETTER.match(self.letter or "") or self.letter != self.letter.upper():
            raise ValidationError(
                {"letter": _("Une lettre en majuscules (ou une tuile double comme CH), ou « ? » pour le joker.")}
            )
        if self.letter == engine_editions.BLANK and self.value:
            raise ValidationError({"value": _("Le joker vaut toujours 0.")})


class RuleSetQuerySet(EngineQuerySet):
    kind = "rules"
    unknown_message = gettext_noop("Jeu de règles inconnu : « %(code)s ». Jeux disponibles : %(known)s.")

    def for_engine(self):
        return self.select_related("fallback")

    def chosen(self, pk) -> engine_rules.RuleSet:
        """The engine's rule set a form names by its primary key (as posted: any text), else the default one: what
        the form's other fields offer follows it."""
        code = None
        if isinstance(pk, str | int) and str(pk).isascii() and str(pk).isdigit():
            code = self.filter(pk=pk).values_list("code", flat=True).first()
        return self.engine(code)

    def player_bounds(self) -> tuple[int, int]:
        """The fewest and the most players any rule set admits, as the admin left them: the seats a classic game
        offers (a game of more players than its rule set admits takes the set's fallback)."""
        bounds = self.aggregate(low=models.Min("min_players"), high=models.Max("max_players"))
        fields = self.model._meta
        return (
            bounds["low"] or fields.get_field("min_players").default,
            bounds["high"] or fields.get_field("max_players").default,
        )


def _validate_seconds(text: str):
    try:
        seconds = [int(part) for part in text.split(",")]
    except ValueError as error:
        raise ValidationError(
            _("Des durées en secondes séparées par des virgules, par exemple 60,120,150,180.")
        ) from error
    if not seconds or any(value <= 0 for value in seconds):
        raise ValidationError(_("Chaque durée doit être positive."))


class RuleSet(models.Model):
    """Every figure a rule depends on (seeds 000, 003; facts §4–5), editable in the admin."""

    class EndOfGame(models.TextChoices):
        FINISHER_GAINS_OTHERS = (
            engine_rules.EndOfGame.FINISHER_GAINS_OTHERS,
            _("Le finisseur gagne les lettres des autres, qui les perdent (FISF)"),
        )
        FINISHER_GAINS_DOUBLE = (
            engine_rules.EndOfGame.FINISHER_GAINS_DOUBLE,
            _("Le finisseur gagne le double des lettres des autres (NASPA)"),
        )

    code = models.SlugField(_("code"), max_length=20, unique=True)
    name = models.CharField(_("nom"), max_length=80)
    is_default = models.BooleanField(_("jeu de règles par défaut"), default=False)
    min_players = models.PositiveSmallIntegerField(_("joueurs au moins"), default=2)
    max_players = models.PositiveSmallIntegerField(_("joueurs au plus"), default=4)
    fallback = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=_("règles au-delà de ce nombre de joueurs"),
    )
    rack_size = models.PositiveSmallIntegerField(_("jetons sur le chevalet"), default=7)
    bingo_bonus = models.PositiveSmallIntegerField(_("prime pour tous les jetons posés"), default=50)
    exchange_min_bag = models.PositiveSmallIntegerField(
        _("jetons dans le sac pour changer"), default=0, help_text=_("0 : aucun minimum.")
    )
    challenge_penalty = models.PositiveSmallIntegerField(
        _("pénalité par mot contesté à tort"), default=0, help_text=_("0 : les règles n'en prévoient pas.")
    )
    default_penalty = models.PositiveSmallIntegerField(
        _("pénalité proposée quand les règles n'en prévoient pas"), default=10
    )
    consecutive_pass_limit = models.PositiveSmallIntegerField(
        _("tours passés de suite (tous joueurs)"), default=0, help_text=_("0 : pas de limite de ce genre.")
    )
    passes_per_player_limit = models.PositiveSmallIntegerField(_("dont par joueur"), default=0)
    pass_rounds_limit = models.PositiveSmallIntegerField(
        _("chaque joueur a passé ce nombre de fois de suite"), default=0, help_text=_("0 : pas de limite de ce genre.")
    )
    end_of_game = models.CharField(
        _("décompte de fin de partie"),
        max_length=30,
        choices=EndOfGame.choices,
        default=EndOfGame.FINISHER_GAINS_OTHERS,
    )
    max_move_points = models.PositiveSmallIntegerField(_("points au plus par coup saisi"), default=2000)
    solo_bonus = models.PositiveSmallIntegerField(_("bonification d'un solo"), default=10)
    solo_min_players = models.PositiveSmallIntegerField(_("joueurs au moins pour la bonification"), default=16)
    duplicate_penalty = models.PositiveSmallIntegerField(_("pénalité en duplicate"), default=5)
    max_penalty = models.PositiveSmallIntegerField(
        _("pénalité au plus sur un coup"),
        default=100,
        help_text=_("Le plus de points qu'une pénalité de l'arbitre peut retirer sur un coup, en duplicate."),
    )
    warnings_before_penalty = models.PositiveSmallIntegerField(_("avertissement pénalisé à partir du"), default=4)
    warnings_before_penalty_blitz = models.PositiveSmallIntegerField(
        _("avertissement pénalisé à partir du (blitz)"), default=6
    )
    blitz_move_seconds = models.PositiveSmallIntegerField(
        _("blitz : temps par coup au plus (secondes)"),
        default=60,
        help_text=_("Une séance dont le temps par coup ne dépasse pas ce temps se joue en blitz."),
    )
    move_seconds = models.PositiveSmallIntegerField(_("temps par coup (secondes)"), default=180)
    move_seconds_choices = models.CharField(
        _("temps par coup proposés (secondes)"), max_length=60, default="60,120,150,180", validators=[_validate_seconds]
    )
    updated_at = models.DateTimeField(auto_now=True)

    objects = RuleSetQuerySet.as_manager()

    class Meta:
        verbose_name = _("jeu de règles")
        verbose_name_plural = _("jeux de règles")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["is_default"], condition=models.Q(is_default=True), name="one_default_rule_set"
            )
        ]

    def __str__(self):
        return self.name

    def clean(self):
        errors = {}
        if self.min_players < 1:
            errors["min_players"] = _("Au moins un joueur.")
        if self.max_players < self.min_players:
            errors["max_players"] = _("Le maximum ne peut être inférieur au minimum.")
        if not 1 <= self.rack_size <= MAX_RACK:
            errors["rack_size"] = _("Un chevalet porte de 1 à %(max)d jetons.") % {"max": MAX_RACK}
        if self.fallback_id and self.fallback_id == self.pk:
            errors["fallback"] = _("Un jeu de règles ne peut se remplacer lui-même.")
        if errors:
            raise ValidationError(errors)

    def build(self) -> engine_rules.RuleSet:
        return engine_rules.RuleSet(
            code=self.code,
            name=self.name,
            min_players=self.min_players,
            max_players=self.max_players,
            fallback_code=self.fallback.code if self.fallback else "",
            rack_size=self.rack_size,
            bingo_bonus=self.bingo_bonus,
            exchange_min_bag=self.exchange_min_bag,
            challenge_penalty=self.challenge_penalty,
            default_penalty=self.default_penalty,
            consecutive_pass_limit=self.consecutive_pass_limit,
            passes_per_player_limit=self.passes_per_player_limit,
            pass_rounds_limit=self.pass_rounds_limit,
            end_of_game=engine_rules.EndOfGame(self.end_of_game),
            max_move_points=self.max_move_points,
            solo_bonus=self.solo_bonus,
            solo_min_players=self.solo_min_players,
            duplicate_penalty=self.duplicate_penalty,
            max_penalty=self.max_penalty,
            warnings_before_penalty=self.warnings_before_penalty,
            warnings_before_penalty_blitz=self.warnings_before_penalty_blitz,
            blitz_move_seconds=self.blitz_move_seconds,
            move_seconds=self.move_seconds,
            move_seconds_choices=tuple(int(part) for part in self.move_seconds_choices.split(",")),
        )


class LexiconQuerySet(models.QuerySet):
    def engine_for(self, edition_code: str) -> engine_lexicon.Lexicon | None:
        """The default word list of an edition, loaded once per process and reloaded after a save; None if none."""
        row = self.filter(edition__code=edition_code, is_default=True).values("pk", "updated_at").first()
        if row is None:
            return None
        return _cached("lexicon", row, lambda: self.get(pk=row["pk"]).build())

    def downloads(self, edition_codes) -> dict[str, "Lexicon"]:
        """The default word list of each edition named that has one, by edition code, without its words: what a
        page needs to give the browser the address of each list's download."""
        rows = self.filter(edition__code__in=edition_codes, is_default=True).select_related("edition")
        return {row.edition.code: row for row in rows.defer("words_gz")}

    def download(self, edition_code: str, version: str) -> "Lexicon | None":
        """The edition's default list if `version` is still its version, else None (an address the list left)."""
        row = self.downloads([edition_code]).get(edition_code)
        return row if row is not None and row.download_version == version else None


class Lexicon(models.Model):
    """A word list the counter checks words against: the free list shipped with the site, or one a club uploads
    (a club holding a licence for an official list may load it here; it stays in the database, not on disk)."""

    BUILTIN_FILES = {"fr_dicollecte": engine_lexicon.FRENCH_WORDLIST}

    name = models.CharField(_("nom"), max_length=120)
    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="lexicons", verbose_name=_("édition"))
    is_default = models.BooleanField(_("liste par défaut de l'édition"), default=False)
    licence = models.TextField(_("licence et provenance"), blank=True)
    builtin = models.CharField(_("fichier livré avec le site"), max_length=40, blank=True, editable=False)
    words_gz = models.BinaryField(_("mots (compressés)"), blank=True, editable=False)
    word_count = models.PositiveIntegerField(_("nombre de mots"), default=0, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    objects = LexiconQuerySet.as_manager()

    class Meta:
        verbose_name = _("liste de mots")
        verbose_name_plural = _("listes de mots")
        ordering = ["edition", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["edition"], condition=models.Q(is_default=True), name="one_default_lexicon_per_edition"
            )
        ]

    def __str__(self):
        return f"{self.name} ({self.edition.code})"

    def set_words(self, lines):
        """Store a list given as lines of text, one word a line (normalised; blank and # lines skipped)."""
        lexicon = engine_lexicon.Lexicon.from_words(line for line in lines if not line.lstrip().startswith("#"))
        self.words_gz = gzip.compress("\n".join(lexicon.words()).encode(), compresslevel=6)
        self.word_count = len(lexicon)

    @property
    def download_version(self) -> str:
        """What the address of the list's download carries, so that a browser keeps the file for good: it changes
        with the row (a list uploaded anew, another default list) and with the file shipped with the site. Every
        process computes it alike from the row and the file."""
        shipped = _file_digest(self.BUILTIN_FILES[self.builtin]) if self.builtin else ""
        return hashlib.sha256(f"{self.pk}|{self.updated_at.isoformat()}|{shipped}".encode()).hexdigest()[:16]

    def download_bytes(self) -> bytes:
        """The words as the browser downloads them: gzip of the sorted, normalised words, one a line (the shipped
        file is already that, scoring/engine/lexicon.py's `Lexicon.words()`)."""
        if self.builtin:
            return self.BUILTIN_FILES[self.builtin].read_bytes()
        return bytes(Lexicon.objects.filter(pk=self.pk).values_list("words_gz", flat=True).get())

    def build(self) -> engine_lexicon.Lexicon:
        if self.builtin:
            return engine_lexicon.Lexicon.load(self.BUILTIN_FILES[self.builtin])
        return engine_lexicon.Lexicon.from_words(gzip.decompress(bytes(self.words_gz)).decode().splitlines())


@functools.cache
def _file_digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class GridBoard(models.Model):
    """A member's counter board in grid mode ("Poser sur la grille"), kept on the account so it follows him
    from one device to another. Visitors keep theirs in the session."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="grid_board")
    edition_code = models.CharField(max_length=8, blank=True)
    moves = models.JSONField(default=list)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("grille du compteur")
        verbose_name_plural = _("grilles du compteur")

    def __str__(self):
        return str(self.user)


def figures_stamp() -> str:
    """The editions (a letter saved touches its edition), rule sets and word lists as they stand, their count and
    their last change: the pages that embed their figures, kept for a visit without the network
    (clubsite/offline.py), are out of date once it moves."""
    stamps = [
        model.objects.aggregate(count=models.Count("pk"), latest=models.Max("updated_at"))
        for model in (Edition, RuleSet, Lexicon)
    ]
    return ";".join(f"{stamp['count']}@{stamp['latest']}" for stamp in stamps)


def move_index(edition_code: str):
    """The move-generation index (GADDAG) of the edition's default word list, or None when it has none."""
    lexicon = Lexicon.objects.engine_for(edition_code)
    if lexicon is None:
        return None
    return engine_gaddag.lexicon_index(lexicon, Edition.objects.engine(edition_code))
