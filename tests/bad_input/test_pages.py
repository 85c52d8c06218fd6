"""Every page and form of the site, fed the bad inputs a careless user or an attacker sends (issue 12): a NUL
byte, a number beyond the column, a negative one, a 10,000-character text, a superscript digit, bytes that are
not UTF-8; and (issue 23) the characters that would make a name lie on a ranking: one that shows nothing (a
zero-width space, a byte order mark inside a text, a Hangul filler, a line separator, the Braille blank, a variation
selector), a control character (a bell), a right-to-left override, marks piled on one letter. Each must answer a
4xx with a French message and change nothing, never a 500.

The tables below name, for every URL of the site (admin and API aside: tests/bad_input/test_api.py sweeps the
API), what its form sends when used as intended; the sweep then replaces one field at a time with each bad
value. Two checks keep the tables whole: every URL pattern has an entry, and every field the pages' own forms
draw is swept.
"""

import dataclasses
import re
import urllib.parse
from collections.abc import Callable

import pytest
from django.urls import get_resolver, resolve, reverse

from scoring.models import Lexicon
from tests.conftest import PASSWORD

from .conftest import World
from .forms_on_pages import forms_on

pytestmark = pytest.mark.django_db

BAD_VALUES = {
    "nul": "VA\x00GUE",
    "beyond_column": "99999999999",
    "beyond_64_bits": "9" * 25,
    "negative": "-1",
    "long": "A" * 10_000,
    "superscript": "²",
    "not_utf8": b"\xff\xfe\xc3",
    "zero_width_space": "Bob\u200b",
    "right_to_left_override": "\u202eevil",
    "bell": "Bo\x07b",
    "byte_order_mark_inside": "Bo\ufeffb",
    # Issue 23's trial: characters drawn as nothing that are neither control nor format characters.
    "hangul_filler": "Bob\u3164",
    "hangul_choseong_filler": "\u115fBob",
    "hangul_jungseong_filler": "Bo\u1160b",
    "halfwidth_hangul_filler": "Bob\uffa0",
    "combining_grapheme_joiner": "Bo\u034fb",
    "line_separator": "Bo\u2028b",
    "paragraph_separator": "Bo\u2029b",
    "mongolian_vowel_separator": "Bo\u180eb",
    "braille_blank": "\u2800",
    # Its second trial: variation selectors, default-ignorable code points that are marks or symbols, a letter
    # under a pile of combining overlays ("zalgo").
    "variation_selector": "Bob\ufe0f",
    "variation_selector_supplement": "Bo\U000e0100b",
    "musical_null_notehead": "Bo\U0001d159b",
    "khitan_filler": "Bob\U00016fe4",
    "stacked_marks": "Bo" + "\u0336" * 20 + "b",
}
HIDDEN_CHARACTERS = [
    "zero_width_space",
    "right_to_left_override",
    "bell",
    "byte_order_mark_inside",
    "hangul_filler",
    "hangul_choseong_filler",
    "hangul_jungseong_filler",
    "halfwidth_hangul_filler",
    "combining_grapheme_joiner",
    "line_separator",
    "paragraph_separator",
    "mongolian_vowel_separator",
    "braille_blank",
    "variation_selector",
    "variation_selector_supplement",
    "musical_null_notehead",
    "khitan_filler",
    "stacked_marks",
]

# What a field holds decides which bad values it must refuse. A name is text: "-1" or "²" are names like any
# other, but a NUL byte, a text longer than its column or one hiding a character are not. A number, a choice or a
# notation (a move, a draw, a square) refuses them all. A lenient field falls back to its default on a value the
# page never sends (an unknown button, an unchecked box): it only must not break.
TEXT, STRICT, LENIENT = "text", "strict", "lenient"
# A rack's letters may be spaced out (« E A U ») and any Unicode space reads as one, the line and paragraph
# separators among them (the engine splits a rack on whitespace): strict but for those two.
SPACED = "spaced"
SEPARATORS = {"line_separator", "paragraph_separator"}
REFUSED = {
    TEXT: {"nul", "long", *HIDDEN_CHARACTERS},
    STRICT: set(BAD_VALUES) - {"not_utf8"},
    SPACED: set(BAD_VALUES) - {"not_utf8"} - SEPARATORS,
    LENIENT: set(),
}
# The values sent: all of them to a strict field; to a text, the kinds of text it could mistake for others; to a
# lenient field, those that could still reach the database or break a decoder (it ignores the others).
SENT = {
    TEXT: ["nul", "long", "beyond_column", "superscript", "not_utf8", *HIDDEN_CHARACTERS],
    STRICT: list(BAD_VALUES),
    SPACED: list(BAD_VALUES),
    LENIENT: ["nul", "long", "not_utf8"],
}


@dataclasses.dataclass
class Form:
    """A form as its page sends it: `data(world)` the valid values, `fields` each swept field's kind. `writes`:
    the valid form changes rows (and a bad value must then change none); `htmx`: the page sends it by htmx."""

    data: Callable[[World], dict]
    fields: dict[str, str]
    writes: bool = True
    htmx: bool = False
    refuses: bool = True  # False for Django's own account views, which answer a refused form with 200


@dataclasses.dataclass
class Endpoint:
    kwargs: Callable[[World], dict] = lambda w: {}
    query: tuple[str, ...] = ()  # GET parameters the page reads
    forms: tuple[Form, ...] = ()
    get: bool = True  # whether a GET shows a page (object actions redirect it)
    anonymous: bool = False


def _game(w):
    return {"pk": w.game.pk}


def _session(w):
    return {"pk": w.session.pk}


def _round(w):
    return {"pk": w.session.pk, "number": w.round.number}


def _season(w):
    return {"pk": w.season.pk}


SEASON = {
    "name": "Saison 2026",
    "start": "2026-09-01",
    "end": "2027-06-30",
    "counting": "best",
    "best_of": "5",
    "ranked_by": "percent",
}
SEASON_FIELDS = {
    "name": TEXT,
    "start": STRICT,
    "end": STRICT,
    "counting": STRICT,
    "best_of": STRICT,
    "ranked_by": STRICT,
}

COUNTER = {"words": "1", "edition": "fr", "w0": "VAGUE", "w0_was": "VAGUE", "w0_0_sq": "ld", "w0_0_on": "1"}
COUNTER_FIELDS = {
    "words": LENIENT,
    "edition": LENIENT,
    "check": LENIENT,
    "w0": STRICT,
    "w0_was": LENIENT,
    "w0_0_sq": LENIENT,
    "w0_0_on": LENIENT,
    "w0_0_bl": LENIENT,
    "action": LENIENT,
}
GRID = {"edition": "fr", "start": "H4", "direction": "h", "letters": "VAGUE", "blanks": "", "rack": "", "check": ""}
GRID_FIELDS = {
    "edition": LENIENT,
    "start": STRICT,
    "direction": LENIENT,
    "letters": STRICT,
    "blanks": LENIENT,
    "rack": LENIENT,
    "check": LENIENT,
    "players": LENIENT,
    "action": LENIENT,
}


def _read_only(fields):
    return {name: LENIENT for name in fields}


ENDPOINTS = {
    # The counter, the grid and the word finder: open to anyone.
    "counter": Endpoint(
        query=("etat",),
        forms=(Form(lambda w: {**COUNTER, "action": "share"}, _read_only(COUNTER_FIELDS), writes=False),),
    ),
    "grid": Endpoint(forms=(Form(lambda w: {**GRID, "action": "place", "players": "2"}, GRID_FIELDS),)),
    "words": Endpoint(
        forms=(
            Form(lambda w: {"edition": "fr", "letters": "EAUSTV"}, _read_only(["edition", "letters"]), writes=False),
        )
    ),
    # The help pages: read only, open to anyone.
    "help": Endpoint(),
    "help_points": Endpoint(),
    "help_sheet": Endpoint(),
    "help_letters": Endpoint(),
    # The free word list the counter downloads: its address alone, open to anyone.
    "word_list": Endpoint(
        kwargs=lambda w: {"edition": "fr", "version": Lexicon.objects.downloads(["fr"])["fr"].download_version}
    ),
    # The service worker, at the site's root.
    "service_worker": Endpoint(anonymous=True),
    # Score sheets.
    "sheets:history": Endpoint(),
    "sheets:new": Endpoint(
        forms=(
            Form(
                lambda w: {
                    "player_count": "2",
                    "name1": "Ann",
                    "name2": "Ben",
                    "member1": "",
                    "member2": "",
                    "edition": w.game.edition_id,
                    "rule_set": w.game.rule_set_id,
                    "timer_seconds": "0",
                },
                {
                    "player_count": STRICT,
                    **{f"name{n}": TEXT for n in range(1, 5)},
                    **{f"member{n}": STRICT for n in range(1, 5)},
                    "edition": STRICT,
                    "rule_set": STRICT,
                    "timer_seconds": STRICT,
                },
            ),
        )
    ),
    "sheets:import": Endpoint(
        forms=(
            Form(
                lambda w: {"file": gcg_upload(VALID_GCG), "rule_set": w.game.rule_set_id, "edition": ""},
                {"file": STRICT, "rule_set": STRICT, "edition": STRICT},
            ),
        )
    ),
    "sheets:local": Endpoint(),
    "sheets:game": Endpoint(kwargs=_game),
    "sheets:counter": Endpoint(
        kwargs=_game,
        forms=(Form(lambda w: {**COUNTER, "action": "inscribe"}, {**COUNTER_FIELDS, "after": LENIENT}, htmx=True),),
    ),
    "sheets:grid": Endpoint(
        kwargs=_game, forms=(Form(lambda w: {**GRID, "action": "inscribe"}, {**GRID_FIELDS, "after": LENIENT}),)
    ),
    "sheets:line_add": Endpoint(
        kwargs=_game,
        get=False,
        forms=(Form(lambda w: {"kind": "play", "points": "12"}, {"kind": STRICT, "points": STRICT, "after": LENIENT}),),
    ),
    "sheets:line_undo": Endpoint(kwargs=_game, get=False, forms=(Form(lambda w: {}, {"after": LENIENT}),)),
    "sheets:line_edit": Endpoint(
        kwargs=lambda w: {"pk": w.game.pk, "line_pk": w.play.pk},
        get=False,
        forms=(Form(lambda w: {"points": "15"}, {"points": STRICT}),),
    ),
    "sheets:line_delete": Endpoint(
        kwargs=lambda w: {"pk": w.game.pk, "line_pk": w.play.pk}, get=False, forms=(Form(lambda w: {}, {}),)
    ),
    "sheets:penalty": Endpoint(
        kwargs=_game,
        get=False,
        forms=(Form(lambda w: {"player": "1", "points": "5"}, {"player": STRICT, "points": STRICT, "after": LENIENT}),),
    ),
    "sheets:challenge": Endpoint(
        kwargs=_game,
        get=False,
        forms=(Form(lambda w: {"player": "0", "words": "2"}, {"player": STRICT, "words": STRICT, "after": LENIENT}),),
    ),
    "sheets:finish": Endpoint(
        kwargs=_game, forms=(Form(lambda w: {"rack0": "", "rack1": "EAU"}, {"rack0": STRICT, "rack1": STRICT}),)
    ),
    "sheets:reopen": Endpoint(kwargs=lambda w: {"pk": w.finished_game.pk}, get=False, forms=(Form(lambda w: {}, {}),)),
    "sheets:again": Endpoint(kwargs=_game, get=False, forms=(Form(lambda w: {}, {}),)),
    "sheets:delete": Endpoint(kwargs=_game, forms=(Form(lambda w: {}, {}),)),
    "sheets:export": Endpoint(kwargs=_game),
    "sheets:review": Endpoint(kwargs=_game),
    "sheets:review_rack": Endpoint(
        kwargs=lambda w: {"pk": w.game.pk, "line_pk": w.play.pk},
        get=False,
        forms=(Form(lambda w: {"rack": "EAU?"}, {"rack": SPACED}),),
    ),
    # Duplicate sessions.
    "duplicate:list": Endpoint(),
    "duplicate:new": Endpoint(
        forms=(
            Form(
                lambda w: {
                    "name": "Jeudi",
                    "date": "2026-11-26",
                    "club": w.club.pk,
                    "edition": w.session.edition_id,
                    "rule_set": w.session.rule_set_id,
                    "move_seconds": "180",
                    "entry": "arbiter",
                    "automatic": "",
                    "players": "1;Ann\n2;Ben",
                },
                {
                    "name": TEXT,
                    "date": STRICT,
                    "club": STRICT,
                    "edition": STRICT,
                    "rule_set": STRICT,
                    "move_seconds": STRICT,
                    "entry": STRICT,
                    "automatic": LENIENT,
                    "players": TEXT,
                    "game_file": LENIENT,  # a text where a file goes: no file, the session draws its own
                },
            ),
        )
    ),
    "duplicate:session": Endpoint(kwargs=_session, query=("coup", "joueurs")),
    "duplicate:game": Endpoint(kwargs=_session),
    "duplicate:players_add": Endpoint(
        kwargs=_session, get=False, forms=(Form(lambda w: {"players": "3;Zoé"}, {"players": TEXT}),)
    ),
    "duplicate:player_edit": Endpoint(
        kwargs=lambda w: {"pk": w.session.pk, "player_pk": w.other.pk},
        get=False,
        forms=(
            Form(
                lambda w: {
                    "name": "Bobby",
                    "table": "7",
                    "absent": "",
                    "licence": "B42",
                    "club": "Lyon",
                    "series": "N1",
                },
                {"name": TEXT, "table": STRICT, "absent": LENIENT, "licence": TEXT, "club": TEXT, "series": TEXT},
            ),
        ),
    ),
    "duplicate:player_remove": Endpoint(
        kwargs=lambda w: {"pk": w.session.pk, "player_pk": w.other.pk}, get=False, forms=(Form(lambda w: {}, {}),)
    ),
    "duplicate:round_add": Endpoint(
        kwargs=_session,
        get=False,
        forms=(
            Form(
                lambda w: {"action": "typed", "draw": "ST+AIONX", "top": ""},
                {"action": LENIENT, "draw": STRICT, "top": STRICT},
            ),
        ),
    ),
    "duplicate:round_top": Endpoint(
        # Another top than the move's (H4 VAGUE), worth as much: the same one placed again changes nothing.
        kwargs=_round,
        get=False,
        forms=(Form(lambda w: {"top": "H8 VAGUE"}, {"top": STRICT}),),
    ),
    "duplicate:round_cancel": Endpoint(
        kwargs=lambda w: {"pk": w.open_session.pk, "number": 1}, get=False, forms=(Form(lambda w: {}, {}),)
    ),
    "duplicate:result": Endpoint(
        kwargs=lambda w: {"pk": w.session.pk, "number": w.round.number, "player_pk": w.other.pk},
        get=False,
        forms=(
            Form(
                lambda w: {"score": "18", "saved_score": "", "move": "", "penalty": "", "zero": ""},
                {"score": STRICT, "saved_score": LENIENT, "move": TEXT, "penalty": STRICT, "zero": LENIENT},
                htmx=True,
            ),
            # A move that cannot be read or played scores 0 with the reason (FISF §5.4): it is text to this form.
            Form(lambda w: {"move": "H4 VAGUE"}, {"move": TEXT}, htmx=True),
            Form(lambda w: {"warning": "1"}, {"warning": LENIENT}, htmx=True),
        ),
    ),
    "duplicate:bulletin": Endpoint(
        kwargs=_round,
        get=False,
        forms=(Form(lambda w: {"table": "2", "entry": "18"}, {"table": STRICT, "entry": STRICT}, htmx=True),),
    ),
    # The open session: a move whose top is revealed has no time left to start (409).
    "duplicate:timer": Endpoint(kwargs=lambda w: {"pk": w.open_session.pk}, get=False, forms=(Form(lambda w: {}, {}),)),
    "duplicate:console_poll": Endpoint(kwargs=_round, query=("v", "depuis", "joueurs")),
    "duplicate:top_grid": Endpoint(
        kwargs=_session,
        forms=(
            Form(
                lambda w: {**GRID, "action": "inscribe", "player": w.other.pk},
                {**GRID_FIELDS, "player": STRICT},
                htmx=True,
            ),
        ),
    ),
    "duplicate:counter": Endpoint(
        kwargs=_session,
        forms=(
            Form(
                lambda w: {**COUNTER, "action": "inscribe", "player": w.other.pk, "position": ""},
                {**COUNTER_FIELDS, "player": STRICT, "position": LENIENT},
                htmx=True,
            ),
            Form(
                lambda w: {**COUNTER, "action": "top", "player": "", "position": "H8"},
                {"position": STRICT},
                htmx=True,
            ),
        ),
    ),
    "duplicate:finish": Endpoint(kwargs=_session, get=False, forms=(Form(lambda w: {}, {}),)),
    "duplicate:reopen": Endpoint(
        kwargs=lambda w: {"pk": w.finished_session.pk}, get=False, forms=(Form(lambda w: {}, {}),)
    ),
    "duplicate:history": Endpoint(kwargs=_session, query=("joueur", "coup")),
    "duplicate:sheet": Endpoint(kwargs=_session, query=("joueurs",)),
    "duplicate:sheet_cell": Endpoint(
        kwargs=lambda w: {"pk": w.session.pk, "number": w.round.number, "player_pk": w.other.pk},
        get=False,
        forms=(Form(lambda w: {"entry": "18"}, {"entry": STRICT}, htmx=True),),
    ),
    "duplicate:recap": Endpoint(kwargs=_session),
    "duplicate:player_recap": Endpoint(
        kwargs=lambda w: {"pk": w.session.pk, "player_pk": w.player.pk}, query=("coup",)
    ),
    "duplicate:again": Endpoint(
        kwargs=_session,
        get=False,
        forms=(Form(lambda w: {"name": "Mardi (2)", "date": "2026-12-01"}, {"name": TEXT, "date": STRICT}),),
    ),
    # "Rejouer cette séance": no field; the open session's is refused (409), the finished one's replayed.
    "duplicate:replay": Endpoint(
        kwargs=lambda w: {"pk": w.finished_session.pk}, get=False, forms=(Form(lambda w: {}, {}),)
    ),
    "duplicate:tournaments": Endpoint(
        forms=(
            Form(
                lambda w: {"name": "Coupe 2", "sessions": [w.session.pk, w.open_session.pk]},
                {"name": TEXT, "sessions": STRICT},
            ),
        )
    ),
    "duplicate:tournament": Endpoint(kwargs=lambda w: {"pk": w.tournament.pk}, query=("export",)),
    "duplicate:seasons": Endpoint(
        forms=(Form(lambda w: {"club": w.club.pk, **SEASON}, {"club": STRICT, **SEASON_FIELDS}),)
    ),
    "duplicate:season": Endpoint(kwargs=_season, query=("export",)),
    "duplicate:season_edit": Endpoint(kwargs=_season, forms=(Form(lambda w: SEASON, SEASON_FIELDS),)),
    "duplicate:season_delete": Endpoint(kwargs=_season, get=False, forms=(Form(lambda w: {}, {}),)),
    "duplicate:simultanes": Endpoint(),
    "duplicate:simultane_new": Endpoint(
        forms=(
            Form(
                lambda w: {
                    "name": "Simultané 2",
                    "body": w.body.pk,
                    "starts_at": "2026-12-12T14:00",
                    "edition": w.session.edition_id,
                    "rule_set": w.session.rule_set_id,
                    "move_seconds": "180",
                    "game_file": game_upload(),
                },
                {
                    "name": TEXT,
                    "body": STRICT,
                    "starts_at": STRICT,
                    "edition": STRICT,
                    "rule_set": STRICT,
                    "move_seconds": STRICT,
                    "game_file": LENIENT,  # a text where a file goes: no file, the server draws the game
                },
            ),
        )
    ),
    "duplicate:simultane": Endpoint(kwargs=lambda w: {"pk": w.simultane.pk}),
    "duplicate:simultane_edit": Endpoint(
        kwargs=lambda w: {"pk": w.simultane.pk},
        get=False,
        forms=(
            Form(
                lambda w: {"name": "Simultané de Noël", "starts_at": "2099-12-20T15:00", "move_seconds": "120"},
                {"name": TEXT, "starts_at": STRICT, "move_seconds": STRICT},
            ),
        ),
    ),
    "duplicate:simultane_delete": Endpoint(
        kwargs=lambda w: {"pk": w.simultane.pk}, get=False, forms=(Form(lambda w: {}, {}),)
    ),
    "duplicate:simultane_close": Endpoint(
        kwargs=lambda w: {"pk": w.simultane.pk},
        get=False,
        forms=(Form(lambda w: {"action": "close"}, {"action": LENIENT}),),
    ),
    "duplicate:simultane_withdraw": Endpoint(
        kwargs=lambda w: {"pk": w.simultane.pk, "room_pk": w.room.pk}, get=False, forms=(Form(lambda w: {}, {}),)
    ),
    "duplicate:simultane_register": Endpoint(
        kwargs=lambda w: {"pk": w.simultane.pk},
        get=False,
        forms=(
            Form(
                lambda w: {"club": w.club.pk, "entry": "arbiter", "players": "1;Ann"},
                {"club": STRICT, "entry": STRICT, "players": TEXT},
            ),
        ),
    ),
    "duplicate:simultane_game": Endpoint(kwargs=lambda w: {"pk": w.simultane.pk}),
    "duplicate:simultane_public": Endpoint(
        kwargs=lambda w: {"public_key": w.simultane.public_key}, query=("club", "serie", "v")
    ),
    "duplicate:simultane_ranking": Endpoint(
        kwargs=lambda w: {"pk": w.simultane.pk}, query=("club", "serie", "export", "v")
    ),
    "duplicate:export": Endpoint(kwargs=lambda w: {"pk": w.session.pk, "kind": "csv"}),
    "duplicate:export_job": Endpoint(kwargs=lambda w: {"pk": w.session.pk, "job_pk": w.job.pk}),
    "duplicate:export_download": Endpoint(kwargs=lambda w: {"pk": w.session.pk, "job_pk": w.job.pk}),
    "duplicate:ranking": Endpoint(kwargs=lambda w: {"public_key": w.session.public_key}, query=("v",)),
    "duplicate:room": Endpoint(kwargs=lambda w: {"public_key": w.session.public_key}, query=("v",)),
    "duplicate:player": Endpoint(
        kwargs=lambda w: {"key": w.phone.key},
        query=("etat",),
        forms=(
            Form(
                lambda w: {"score": "12", "move": "", "action": ""},
                {"score": STRICT, "move": TEXT, "action": LENIENT},
            ),
        ),
    ),
    # Clubs.
    "clubs": Endpoint(),
    "club_create": Endpoint(get=False, forms=(Form(lambda w: {"name": "Club de Nice"}, {"name": TEXT}),)),
    "club_detail": Endpoint(kwargs=lambda w: {"slug": w.club.slug}),
    "club_member_add": Endpoint(
        kwargs=lambda w: {"slug": w.club.slug},
        get=False,
        forms=(Form(lambda w: {"identifier": "charlie", "role": "member"}, {"identifier": STRICT, "role": STRICT}),),
    ),
    "club_member_role": Endpoint(
        kwargs=lambda w: {"slug": w.club.slug, "membership_id": w.bob_membership.pk},
        get=False,
        forms=(Form(lambda w: {"role": "organiser"}, {"role": STRICT}),),
    ),
    "club_member_remove": Endpoint(
        kwargs=lambda w: {"slug": w.club.slug, "membership_id": w.bob_membership.pk},
        get=False,
        forms=(Form(lambda w: {}, {}),),
    ),
    "club_offer_withdraw": Endpoint(
        kwargs=lambda w: {"slug": w.club.slug, "offer_id": w.offer.pk}, get=False, forms=(Form(lambda w: {}, {}),)
    ),
    "club_leave": Endpoint(kwargs=lambda w: {"slug": w.club.slug}, get=False, forms=(Form(lambda w: {}, {}),)),
    # Accounts: Django's own views, which answer a refused form with its page (200).
    "profile": Endpoint(
        forms=(
            Form(
                lambda w: {
                    "first_name": "Alice",
                    "last_name": "Martin",
                    "email": "alice@example.org",
                    "licence": "123",
                },
                # A licence of eleven digits is one; its own rule refuses "²", which a text may hold.
                {"first_name": TEXT, "last_name": TEXT, "email": STRICT, "licence": TEXT},
            ),
        )
    ),
    "progress": Endpoint(query=("club", "du", "au")),
    "signup": Endpoint(
        anonymous=True,
        forms=(
            Form(
                lambda w: {
                    "username": "david",
                    "email": "david@example.org",
                    "first_name": "",
                    "last_name": "",
                    "password1": "un-long-mot-de-passe",
                    "password2": "un-long-mot-de-passe",
                },
                {"username": STRICT, "email": STRICT, "first_name": TEXT, "last_name": TEXT, "password1": LENIENT},
                refuses=False,
            ),
        ),
    ),
    "login": Endpoint(
        anonymous=True,
        query=("next",),
        forms=(
            Form(
                lambda w: {"username": "alice", "password": PASSWORD},
                {"username": LENIENT, "password": LENIENT},
                refuses=False,  # a refused log-in answers its page (200); a good one sets last_login
            ),
        ),
    ),
    "logout": Endpoint(get=False, forms=(Form(lambda w: {}, {}, writes=False),)),
    "password_change": Endpoint(
        forms=(
            Form(
                lambda w: {
                    "old_password": PASSWORD,
                    "new_password1": "un-autre-long-secret",
                    "new_password2": "un-autre-long-secret",
                },
                _read_only(["old_password", "new_password1", "new_password2"]),
                refuses=False,
            ),
        )
    ),
    "password_change_done": Endpoint(),
    "password_reset": Endpoint(
        anonymous=True,
        forms=(Form(lambda w: {"email": "alice@example.org"}, {"email": LENIENT}, writes=False, refuses=False),),
    ),
    "password_reset_done": Endpoint(anonymous=True),
    "password_reset_confirm": Endpoint(anonymous=True, kwargs=lambda w: {"uidb64": "MQ", "token": "set-password"}),
    "password_reset_complete": Endpoint(anonymous=True),
    "signup_sent": Endpoint(anonymous=True),
    "signup_confirm": Endpoint(anonymous=True, kwargs=lambda w: {"token": "mauvais-jeton"}),
    "email_confirm": Endpoint(kwargs=lambda w: {"token": "mauvais-jeton"}),
    # No field: a button on an invitation of one's own (tests/clubsite/test_invitations.py).
    "invitation_accept": Endpoint(kwargs=lambda w: {"pk": 999999}, get=False),
    "invitation_decline": Endpoint(kwargs=lambda w: {"pk": 999999}, get=False),
    # « Tout refuser »: an inviter that is not one declines nothing, as one with nothing pending.
    "invitations_decline_all": Endpoint(
        get=False, forms=(Form(lambda w: {"inviter": w.co_admin.pk}, {"inviter": LENIENT}),)
    ),
    # No field: buttons on "Mon compte" (tests/clubsite/test_api_tokens.py).
    "api_token_create": Endpoint(
        get=False, forms=(Form(lambda w: {"label": "Logiciel d'arbitrage"}, {"label": TEXT}),)
    ),
    "api_token_delete": Endpoint(kwargs=lambda w: {"pk": 999999}, get=False),
}

VALID_GCG = (
    "#character-encoding UTF-8\n#player1 ann Ann Dupré\n#player2 ben Ben\n"
    ">ann: AEGUV?? 8D VAGUE +26 26\n>ben: AEINST? - +0 0\n"
).encode()


def gcg_upload(content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("partie.gcg", content, content_type="text/plain")


def game_upload():
    from django.core.files.uploadedfile import SimpleUploadedFile

    game = b'{"edition": "fr", "rounds": [{"number": 1, "draw": "VAGUEST", "top": "H4 VAGUE", "top_score": 26}]}'
    return SimpleUploadedFile("partie.json", game, content_type="application/json")


def _url_names() -> set[str]:
    names = set()

    def walk(patterns, namespace=""):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                if pattern.namespace not in ("admin", "api"):
                    walk(pattern.url_patterns, f"{pattern.namespace}:" if pattern.namespace else namespace)
            elif pattern.name:
                names.add(namespace + pattern.name)

    walk(get_resolver().url_patterns)
    return names


ENGLISH = re.compile(r"\b(the|this|that|must|should|enter|ensure|field|value|required|not allowed|error)\b", re.I)


def refusal_message(response) -> str:
    """The French sentence a refused request shows: the JSON `detail`, or the page's error messages."""
    if response["Content-Type"].startswith("application/json"):
        return response.json().get("detail", "")
    html = response.content.decode()
    found = re.findall(r'class="[^"]*\berror(?:list)?\b[^"]*"[^>]*>(.*?)</(?:p|span|li|small)>', html, re.S)
    return " ".join(re.sub(r"<[^>]+>|\s+", " ", text).strip() for text in found).strip()


def _encode(data: dict, field: str, value) -> tuple:
    """The form's body with `field` set to `value`: bytes that are not UTF-8 go in percent-encoded, as a browser
    would send them."""
    if isinstance(value, bytes):
        body = urllib.parse.urlencode({**{k: str(v) for k, v in data.items()}, field: value})
        return body, "application/x-www-form-urlencoded"
    return {**data, field: value}, None


def _send(client, url, form: Form, data, content_type=None):
    headers = {"HX-Request": "true"} if form.htmx else {}
    if content_type:
        return client.post(url, data, content_type=content_type, headers=headers)
    return client.post(url, data, headers=headers)


def _client_for(endpoint, owner_client):
    from django.test import Client

    return Client(raise_request_exception=False) if endpoint.anonymous else owner_client


def _problems(response, changed, must_refuse, beyond=(), message_of=None) -> str:
    """What is wrong with the answer to a bad value, or "": a 500 (or a value PostgreSQL would have refused to
    keep, which is one), a refusal that is not a 4xx with a French message (read by `message_of`, a page's
    message unless given), or rows changed."""
    status = response.status_code
    if status >= 500:
        return f"{status}"
    if beyond:
        return f"{status}, saved beyond its column: {', '.join(beyond)}"
    if changed:
        return f"{status}, changed {', '.join(changed)}"
    if not must_refuse:
        return ""
    if not 400 <= status < 500:
        return f"{status}, not refused"
    message = (message_of or refusal_message)(response)
    if not message or ENGLISH.search(message):
        return f"{status}, no French message ({message[:80]!r})"
    return ""


def test_every_url_of_the_site_is_swept():
    assert _url_names() == set(ENDPOINTS)


def test_every_field_the_pages_draw_is_swept(world, owner_client):
    """The forms of every page, read from its HTML: each field they send is one the sweep fills."""
    missing = set()
    for name, endpoint in ENDPOINTS.items():
        if not endpoint.get or endpoint.anonymous:
            continue
        response = owner_client.get(reverse(name, kwargs=endpoint.kwargs(world)))
        assert response.status_code < 500, name
        if not response["Content-Type"].startswith("text/html"):
            continue
        for form in forms_on(response.content.decode()):
            if form["method"] != "post":
                continue
            action = resolve(urllib.parse.urlsplit(form["action"] or reverse(name, kwargs=endpoint.kwargs(world))).path)
            target = ENDPOINTS[action.view_name]
            swept = {field for posted in target.forms for field in posted.fields} | {"csrfmiddlewaretoken"}
            missing |= {(action.view_name, field) for field in form["fields"] if field not in swept}
    assert missing == set()


def _form_cases():
    for name, endpoint in ENDPOINTS.items():
        for index in range(len(endpoint.forms)):
            yield pytest.param(name, index, id=f"{name}-{index}")


@pytest.mark.parametrize("name, index", list(_form_cases()))
def test_each_form_refuses_each_bad_value(name, index, world, owner_client, isolated):
    endpoint = ENDPOINTS[name]
    form = endpoint.forms[index]
    client = _client_for(endpoint, owner_client)
    url = reverse(name, kwargs=endpoint.kwargs(world))
    valid = form.data(world)
    response, changed, _beyond = isolated(lambda: _send(client, url, form, valid))
    assert response.status_code < 400, f"the valid form is refused: {response.status_code} {refusal_message(response)}"
    assert bool(changed) == form.writes, f"the valid form changed {changed}"
    failures = []
    for field, kind in form.fields.items():
        for label in SENT[kind]:
            # The valid values afresh: an uploaded file is read by the request that sends it.
            data, content_type = _encode(form.data(world), field, BAD_VALUES[label])
            response, changed, beyond = isolated(lambda: _send(client, url, form, data, content_type))  # noqa: B023
            must_refuse = form.refuses and label in REFUSED[kind]
            # A text field takes "-1" or "²" like any text: the form may then save it.
            problem = _problems(response, changed if must_refuse or not form.writes else [], must_refuse, beyond)
            if problem:
                failures.append(f"{field}={label}: {problem}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("name", sorted(ENDPOINTS))
def test_each_address_refuses_bad_parts_and_parameters(name, world, owner_client, isolated):
    """A bad value in a part of the address (`/duplicate/joueur/<NUL>/`) or in a parameter the page reads
    (`?coup=99999999999`) is a 404 or the page as if it were absent: never a 500, nothing changed."""
    endpoint = ENDPOINTS[name]
    client = _client_for(endpoint, owner_client)
    kwargs = endpoint.kwargs(world)
    failures = []
    for part in kwargs:
        placeholder = "987654321" if isinstance(kwargs[part], int) else "placeholder"
        url = reverse(name, kwargs={**kwargs, part: placeholder})
        for label, value in BAD_VALUES.items():
            bad_url = url.replace(placeholder, urllib.parse.quote(value), 1)
            sends = [lambda u=bad_url: client.get(u)] if endpoint.get else []
            sends += [lambda u=bad_url, f=form: client.post(u, f.data(world)) for form in endpoint.forms[:1]]
            for send in sends:
                response, changed, _beyond = isolated(send)
                if response.status_code >= 500 or changed:
                    failures.append(f"<{part}>={label}: {response.status_code} {changed}")
    url = reverse(name, kwargs=kwargs)
    for parameter in endpoint.query:
        for label, value in BAD_VALUES.items():
            query = urllib.parse.urlencode({parameter: value})
            response, changed, _beyond = isolated(
                lambda q=query: client.get(f"{url}?{q}", headers={"HX-Request": "true"})
            )
            if response.status_code >= 500 or changed:
                failures.append(f"?{parameter}={label}: {response.status_code} {changed}")
    assert not failures, "\n".join(failures)
