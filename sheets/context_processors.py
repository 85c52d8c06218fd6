"""What the site's own counter pages show under the counter: the score sheet kept in the browser (issue 25).

The counter's templates name no other app: they include `below_counter.template` when a page is given one. It is
given on the counter and the grid themselves only, not on the pages of another app that host the counter (a
member's game, a duplicate session), which have their own sheet. Built when the template reaches it, so that the
counter's partial answers (a word typed, a tile changed) never compute it.
"""

from django.utils.functional import SimpleLazyObject

from .local import sheet_context

COUNTER_PAGES = frozenset({"counter", "grid"})  # the names of their URLs in clubsite/urls.py


def below_counter(request):
    match = getattr(request, "resolver_match", None)
    if match is None or match.view_name not in COUNTER_PAGES:
        return {}
    return {"below_counter": SimpleLazyObject(lambda: sheet_context(below_counter=True))}
