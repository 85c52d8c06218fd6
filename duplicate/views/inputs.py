"""What a request brings, read safely: a number in the query string, a form's values or its refusal."""

from ..errors import DuplicateError


def query_int(request, name, digits=9) -> int | None:
    """A number of the query string (?coup=12); None when it is missing, not a number, or longer than `digits`
    (which no column of the database would hold)."""
    value = request.GET.get(name, "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= digits else None


def query_page(request, name, count: int, size: int) -> tuple[int, range]:
    """The page asked in the query string (?joueurs=2) among those of `count` items, `size` a page: the first when
    missing or unreadable, the last when past them; and the pages to link to, none when one page holds them all."""
    pages = max(1, -(-count // size))
    return min(max(query_int(request, name) or 1, 1), pages), range(1, pages + 1) if pages > 1 else range(0)


def valid_data(form) -> dict:
    """The form's values, or its first error as the action's refusal: each field's message says what it expects."""
    if not form.is_valid():
        raise DuplicateError(next(iter(form.errors.values()))[0])
    return form.cleaned_data
