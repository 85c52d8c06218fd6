"""French typography in templates: `{{ message|clause }}` after a colon (see scoring.engine.errors.clause)."""

from django import template

from scoring.engine.errors import clause as _clause

register = template.Library()


@register.filter
def clause(text) -> str:
    return _clause(str(text))
