"""Names and texts as a person types them: none may hold a character that shows nothing or turns the text around.

A zero-width space (U+200B) makes a name look empty, or like another one; a right-to-left override (U+202E) shows
"evil" backwards on every ranking and export that prints it. Unicode's control (Cc) and format (Cf) categories hold
most of them, the bidirectional controls among them (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C); the line
and paragraph separators (U+2028, U+2029) have categories of their own (Zl, Zp). Others are letters, marks or symbols
that a font draws as nothing (`DRAWN_AS_NOTHING`): the Hangul fillers, the combining grapheme joiner, the Braille
blank… A text of several lines keeps its line breaks and tabs. The forms check a field with `VisibleText`, the API's
schemas with `clubsite.limits.text`, the parsers of pasted lists and files line by line with `hidden_character`; a
refusal that quotes what was typed writes those characters as their codes (`shown`).
"""

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
DRAWN_AS_NOTHING = frozenset(
    "\u034f"  # combining grapheme joiner (Mn)
    "\u115f\u1160\u3164\uffa0"  # Hangul choseong, jungseong, compatibility and halfwidth fillers (Lo)
    "\u17b4\u17b5"  # Khmer inherent vowels (Mn), deprecated by Unicode: they draw nothing
    "\u180e"  # Mongolian vowel separator: Cf today, a space (Zs) before Unicode 6.3
    "\u2800"  # Braille pattern blank (So)
)
LAYOUT_CHARACTERS = frozenset("\n\r\t")
# The byte order mark a text file may begin with; anywhere else it is an invisible character like any other.
BYTE_ORDER_MARK = "\ufeff"

IN_FIELD = _("%(what)s ne peut contenir de caractère invisible ou de contrôle de sens d'écriture (%(code)s).")
ON_LINE = _("Ligne %(line)d : caractère invisible ou de contrôle de sens d'écriture (%(code)s) non accepté.")


def hidden_character(text: str, *, lines: bool = False) -> str | None:
    """The first character of `text` that shows nothing or steers the writing direction, written U+XXXX; None when
    there is none. With `lines`, line breaks and tabs are part of the text."""
    allowed = LAYOUT_CHARACTERS if lines else frozenset()
    for character in text:
        if _hidden(character) and character not in allowed:
            return _code(character)
    return None


def shown(text: str) -> str:
    """`text` as a message may quote it: each character that shows nothing or steers the writing direction written
    as its code in brackets (« VA[U+200B]GUE »), so that the refusal shows the culprit rather than hide it again."""
    return "".join(f"[{_code(character)}]" if _hidden(character) else character for character in text)


def _hidden(character: str) -> bool:
    return unicodedata.category(character) in HIDDEN_CATEGORIES or character in DRAWN_AS_NOTHING


def _code(character: str) -> str:
    return f"U+{ord(character):04X}"


class VisibleText:
    """A form field's validator; `what` names the field in its refusal (« Un nom de club »). A NUL character is left
    to the validator every CharField has, which says it in the field's own words."""

    def __init__(self, what: str, *, lines: bool = False):
        self.what = what
        self.lines = lines

    def __call__(self, value: str):
        code = hidden_character(value.replace("\x00", ""), lines=self.lines)
        if code is not None:
            raise ValidationError(IN_FIELD, code="hidden_character", params={"what": self.what, "code": code})
