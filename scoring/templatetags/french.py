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
    """ "de Louis", "d'Éloïse": the preposition before a name, elided before a vowel."""
    name = str(name)
    first = unicodedata.normalize("NFKD", name[:1]).casefold()[:1]
    return f"d'{name}" if first in "aeiouy" and first else f"de {name}"
