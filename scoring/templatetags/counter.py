"""The counter's total line: `{% total_line score %}` writes « Total : <strong id="total">22</strong> points », the
sentence of "Copier le détail" in its singular or plural, as static/js/counter_page.js writes it."""

from django import template
from django.utils.html import format_html

from scoring.browser import total_sentence

register = template.Library()


@register.simple_tag
def total_line(score: int) -> str:
    before, after = total_sentence(score).split("%(score)s")
    return format_html('{}<strong id="total">{}</strong>{}', before, score, after)
