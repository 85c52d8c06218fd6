"""The counter's result lines, the sentences of "Copier le détail" in their singular or plural, as
static/js/counter_page.js writes them: `{% total_line score %}` writes « Total : <strong id="total">22</strong>
points », `{% bonus_line tiles_placed bonus %}` « Prime pour 7 jetons posés : +50 »."""

from django import template
from django.utils.html import format_html

from scoring.browser import bonus_sentence, total_sentence

register = template.Library()


@register.simple_tag
def total_line(score: int) -> str:
    before, after = total_sentence(score).split("%(score)s")
    return format_html('{}<strong id="total">{}</strong>{}', before, score, after)


@register.simple_tag
def bonus_line(tiles_placed: int, bonus: int) -> str:
    return bonus_sentence(tiles_placed) % {"count": tiles_placed, "bonus": bonus}
