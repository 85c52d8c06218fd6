"""A member's progress page (issue 15): his numbers over time, one section per app that has some.

clubsite imports none of the apps, so each app declares its section here, from its `AppConfig.ready()`: the page
knows only `ProgressSection`. Each section computes its own numbers, for the member alone, in a bounded number of
queries whatever the number of games, and draws them with its own template.
"""

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from django.utils import formats
from django.utils.translation import gettext as _

from .models import Club


@dataclass(frozen=True)
class ProgressFilters:
    """What the member asked for: one of his clubs (None: all of them, and what belongs to no club), and a period
    of dates, each end included, either open."""

    club: Club | None = None
    start: datetime.date | None = None
    end: datetime.date | None = None

    def in_period(self, queryset, day: str):
        """`queryset` kept to the period, `day` the lookup of its rows' date ("session__date")."""
        if self.start is not None:
            queryset = queryset.filter(**{f"{day}__gte": self.start})
        if self.end is not None:
            queryset = queryset.filter(**{f"{day}__lte": self.end})
        return queryset

    def description(self) -> str:
        """What the page counts, in words ("Club de Lyon · du 1 mars 2026 au 31 mai 2026"); "" for everything."""
        start, end = (formats.date_format(day, "j F Y") if day else "" for day in (self.start, self.end))
        if start and end:
            period = _("du %(start)s au %(end)s") % {"start": start, "end": end}
        elif start:
            period = _("depuis le %(start)s") % {"start": start}
        elif end:
            period = _("jusqu'au %(end)s") % {"end": end}
        else:
            period = ""
        return " · ".join(part for part in (self.club.name if self.club else "", period) if part)


class ProgressSection(Protocol):
    """One part of the page: a title, a template (given the context as `progress`), and the numbers."""

    title: str
    template_name: str
    order: int  # the page shows the sections by this number, smallest first

    def context(self, user, filters: ProgressFilters) -> dict:
        """The section's numbers for `user` only, within `filters`."""


@dataclass(frozen=True)
class AppSection:
    """A `ProgressSection` whose numbers one function of its app computes, `numbers(user, filters)`: its template
    is given them under `key`, with the filters."""

    title: str
    template_name: str
    order: int
    key: str
    numbers: Callable[..., object]

    def context(self, user, filters: ProgressFilters) -> dict:
        return {self.key: self.numbers(user, filters), "filters": filters}


_sections: dict[str, ProgressSection] = {}


def register(key: str, section: ProgressSection) -> None:
    """Called from an app's `ready()`; registering a key again replaces its section (tests reload apps)."""
    _sections[key] = section


def sections() -> list[ProgressSection]:
    return sorted(_sections.values(), key=lambda section: section.order)


def member_progress(user, filters: ProgressFilters) -> list[tuple[ProgressSection, dict]]:
    """Each registered section with its numbers, in the page's order."""
    return [(section, section.context(user, filters)) for section in sections()]
