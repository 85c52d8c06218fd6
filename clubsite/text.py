"""Names and texts as a person types them: none may hold a character that shows nothing, turns the text around or
draws over its neighbours, and a user name may not mix scripts.

A zero-width space (U+200B) makes a name look empty, or like another one; a right-to-left override (U+202E) shows
"evil" backwards on every ranking and export that prints it. Unicode's control (Cc) and format (Cf) categories hold
most of them, the bidirectional controls among them (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C); the line
and paragraph separators (U+2028, U+2029) have categories of their own (Zl, Zp). Unicode lists the others a font draws
as nothing, whatever their category, as its Default_Ignorable_Code_Point property (`DEFAULT_IGNORABLE`: the Hangul
fillers, the combining grapheme joiner, the variation selectors…); a few more draw nothing without being on that list
(`DRAWN_AS_NOTHING`: the Braille blank…). Combining marks stacked past `MOST_MARKS` on one letter ("zalgo" text)
strike through or cover the names beside it. A text of several lines keeps its line breaks and tabs.

The forms check a field with `VisibleText`, the API's schemas with `clubsite.limits.text`, the parsers of pasted lists
and files line by line with `refused_character`; a refusal that quotes what was typed writes those characters as their
codes (`shown`), and so does the counter's script, with `browser_pattern`. A user name is also held to one script
(`OneScript`): « аlice » with a Cyrillic а would pass for @alice.
"""

import unicodedata
from typing import NamedTuple

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
# Default_Ignorable_Code_Point, from Unicode 15.1.0's DerivedCoreProperties.txt (the version of Python 3.13's
# unicodedata), first and last code point of each range: 4,174 code points, as the file totals them. Most of it is
# also Cf, refused by its category anyway; the table adds the letters and marks among them, and the code points kept
# unassigned for more of the same.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors and vowel separator
    (0x200B, 0x200F),  # zero-width space, joiners, left-to-right and right-to-left marks
    (0x202A, 0x202E),  # bidirectional embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidirectional isolates, deprecated format characters
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors 1 to 16
    (0xFEFF, 0xFEFF),  # zero-width no-break space, the byte order mark
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),  # unassigned
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical symbol format controls
    (0xE0000, 0xE0FFF),  # tags, variation selectors 17 to 256, unassigned
)
DRAWN_AS_NOTHING = frozenset(
    "\u2800"  # Braille pattern blank (So)
    "\U0001d159"  # musical symbol null notehead (So)
    "\U00016fe4"  # Khitan small script filler (Mn)
)
# A phone's keyboard writes ❤️ as U+2764 then this selector, asking for the emoji's colour drawing. Right after a
# symbol (So) it changes at most how that symbol is drawn, and the symbol shows; after a letter, or after another
# selector, it shows nothing and makes « Bob » and « Bob︎ » two names, so it is refused there.
EMOJI_PRESENTATION = "\ufe0f"
# Combining marks (Mn, Me) in a row on one letter: Vietnamese typed in decomposed form needs two (ệ: e, U+0323,
# U+0302), pointed Hebrew and Tibetan stacks three; four or more only pile up over the neighbours.
MOST_MARKS = 3
MARK_CATEGORIES = frozenset({"Mn", "Me"})
LAYOUT_CHARACTERS = frozenset("\n\r\t")
# The byte order mark a text file may begin with; anywhere else it is an invisible character like any other.
BYTE_ORDER_MARK = "\ufeff"

HIDDEN, STACKED = "hidden_character", "stacked_marks"
IN_FIELD = {
    HIDDEN: _("%(what)s ne peut contenir de caractère invisible ou de contrôle de sens d'écriture (%(code)s)."),
    STACKED: _("%(what)s ne peut empiler plus de %(most)d signes diacritiques sur une lettre (%(code)s)."),
}
ON_LINE = {
    HIDDEN: _("Ligne %(line)d : caractère invisible ou de contrôle de sens d'écriture (%(code)s) non accepté."),
    STACKED: _("Ligne %(line)d : plus de %(most)d signes diacritiques sur une lettre (%(code)s) non acceptés."),
}


class RefusedCharacter(NamedTuple):
    """Why a text is refused: `kind` HIDDEN or STACKED (the refusal's code in a form, its type in the API) and the
    character, written U+XXXX."""

    kind: str
    code: str

    def in_field(self, what: str) -> str:
        return IN_FIELD[self.kind] % {"what": what, "code": self.code, "most": MOST_MARKS}

    def on_line(self, line: int) -> str:
        return ON_LINE[self.kind] % {"line": line, "code": self.code, "most": MOST_MARKS}


def refused_character(text: str, *, lines: bool = False) -> RefusedCharacter | None:
    """The first character of `text` that shows nothing, steers the writing direction or is a mark stacked past
    MOST_MARKS; None when there is none. With `lines`, line breaks and tabs are part of the text."""
    allowed = LAYOUT_CHARACTERS if lines else frozenset()
    for position, kind in _refusals(text):
        if text[position] not in allowed:
            return RefusedCharacter(kind, _code(text[position]))
    return None


def shown(text: str) -> str:
    """`text` as a message may quote it: each character `refused_character` would refuse written as its code in
    brackets (« VA[U+200B]GUE »), so that the refusal shows the culprit rather than hide it again."""
    refused = {position for position, _kind in _refusals(text)}
    return "".join(f"[{_code(c)}]" if position in refused else c for position, c in enumerate(text))


def browser_pattern() -> str:
    """The characters `shown` writes as codes, as a JavaScript regular expression (flag u) for the script that
    quotes what was typed in the browser (static/js/score_rules.js): the same categories, table and rules."""
    emoji = ord(EMOJI_PRESENTATION)
    ignorable = [(first, last) for first, last in DEFAULT_IGNORABLE if not first <= emoji <= last]
    ignorable += [(first, emoji - 1) for first, last in DEFAULT_IGNORABLE if first < emoji <= last]
    ignorable += [(emoji + 1, last) for first, last in DEFAULT_IGNORABLE if first <= emoji < last]
    hidden = "".join(f"\\p{{{category}}}" for category in sorted(HIDDEN_CATEGORIES))
    hidden += "".join(
        _escaped(first) + (f"-{_escaped(last)}" if last > first else "") for first, last in sorted(ignorable)
    )
    hidden += "".join(_escaped(ord(c)) for c in sorted(DRAWN_AS_NOTHING))
    marks = "".join(f"\\p{{{category}}}" for category in sorted(MARK_CATEGORIES))
    return f"[{hidden}]|(?<!\\p{{So}}){_escaped(emoji)}|(?<=[{marks}]{{{MOST_MARKS}}})[{marks}]"


def _escaped(point: int) -> str:
    return f"\\u{{{point:X}}}"


def _refusals(text: str):
    """(position, kind) of each character of `text` that shows nothing or steers the writing direction, and of each
    mark past MOST_MARKS in a row."""
    run = 0
    for position, character in enumerate(text):
        run = run + 1 if unicodedata.category(character) in MARK_CATEGORIES else 0
        after_symbol = position > 0 and unicodedata.category(text[position - 1]) == "So"
        if _hidden(character) and not (character == EMOJI_PRESENTATION and after_symbol):
            yield position, HIDDEN
        elif run > MOST_MARKS:
            yield position, STACKED


def _hidden(character: str) -> bool:
    if unicodedata.category(character) in HIDDEN_CATEGORIES or character in DRAWN_AS_NOTHING:
        return True
    point = ord(character)
    return any(first <= point <= last for first, last in DEFAULT_IGNORABLE)


def _code(character: str) -> str:
    return f"U+{ord(character):04X}"


class VisibleText:
    """A form field's validator; `what` names the field in its refusal (« Un nom de club »). A NUL character is left
    to the validator every CharField has, which says it in the field's own words."""

    def __init__(self, what: str, *, lines: bool = False):
        self.what = what
        self.lines = lines

    def __call__(self, value: str):
        refused = refused_character(value.replace("\x00", ""), lines=self.lines)
        if refused is not None:
            raise ValidationError(refused.in_field(self.what), code=refused.kind)


# The scripts TR39's "highly restrictive" level lets a name mix (Unicode Technical Standard #39, §5.2): Latin with
# those Japanese, Chinese and Korean are written in beside it. Named as the first word of their letters' names.
SCRIPTS_WRITTEN_TOGETHER = (
    frozenset({"LATIN", "CJK", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "CJK", "BOPOMOFO"}),
    frozenset({"LATIN", "CJK", "HANGUL"}),
)
# Arabic's letters are named ARABIC, its digits ARABIC-INDIC and EXTENDED ARABIC-INDIC: one script all the same.
SCRIPT_OF_DIGITS = {"ARABIC-INDIC": "ARABIC", "EXTENDED": "ARABIC"}
MIXED_SCRIPTS = _(
    "%(what)s ne peut mêler deux écritures : « %(other)s » (%(code)s) n'est pas de l'écriture de « %(first)s »."
)


def mixed_scripts(text: str) -> tuple[str, str] | None:
    """A letter or digit of `text` and one of a script it may not stand with, the one that is not Latin when one
    is, or None: a Cyrillic а (U+0430) among Latin letters draws « аlice » as « alice ». Python's unicodedata has no
    Script property; a letter's name begins with its script's (LATIN SMALL LETTER A, CYRILLIC SMALL LETTER A), which
    tells the scripts apart well enough for this. Modifier letters (Lm) and ASCII digits belong to every script."""
    firsts = {}  # each script, in the order it comes, with its first character
    for character in text:
        if script := _script(character):
            firsts.setdefault(script, character)
    if len(firsts) < 2 or any(firsts.keys() <= allowed for allowed in SCRIPTS_WRITTEN_TOGETHER):
        return None
    main = "LATIN" if "LATIN" in firsts else next(iter(firsts))
    others = [script for script in firsts if script != main]
    apart = [script for script in others if not any({main, script} <= allowed for allowed in SCRIPTS_WRITTEN_TOGETHER)]
    return firsts[main], firsts[(apart or others)[0]]


def _script(character: str) -> str | None:
    category = unicodedata.category(character)
    if category == "Nd" and not character.isascii():
        word = unicodedata.name(character, "").split(" ")[0]
        return SCRIPT_OF_DIGITS.get(word, word)
    if category[0] == "L" and category != "Lm":
        return unicodedata.name(character, "").split(" ")[0]
    return None


class OneScript:
    """A user name's validator: its letters and digits of one script, or of scripts written together."""

    def __init__(self, what: str):
        self.what = what

    def __call__(self, value: str):
        if mixed := mixed_scripts(value):
            first, other = mixed
            params = {"what": self.what, "first": first, "other": other, "code": _code(other)}
            raise ValidationError(MIXED_SCRIPTS, code="mixed_scripts", params=params)
