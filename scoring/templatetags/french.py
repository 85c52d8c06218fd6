"""French typography in templates: `{{ message|clause }}` after a colon (see scoring.engine.errors.clause)."""

from django import template

from scoring.engine.errors import clause as _clause
from scoring.engine.lexicon import normalise_word

register = template.Library()


@register.filter
def clause(text) -> str:
    return _clause(str(text))


@register.filter
def de(name) -> str:
    """ "de Louis", "d'Éloïse", "d'Hélène": the preposition before a name, elided before a vowel or an h."""
    name = str(name)
    first = normalise_word(name[:1])[:1]
    # Before an h the elision is the usual one for a first name (d'Hélène, d'Hugo).
    return f"d'{name}" if first and first in "AEIOUYH" else f"de {name}"
