"""French typography in templates: `{{ message|clause }}` after a colon (see scoring.engine.errors.clause)."""

import unicodedata

from django import template

from scoring.engine.errors import clause as _clause

register = template.Library()


@register.filter
def clause(text) -> str:
    return _clause(str(text))


@register.filter
def de(name) -> str:
    """ "de Louis", "d'Éloïse", "d'Hélène": the preposition before a name, elided before a vowel or an h."""
    name = str(name)
    first = unicodedata.normalize("NFKD", name[:1]).casefold()[:1]
    # Before an h the elision is the usual one for a first name (d'Hélène, d'Hugo).
    return f"d'{name}" if first in "aeiouyh" and first else f"de {name}"
