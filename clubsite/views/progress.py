"""« Ma progression »: a member's own numbers over time."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ..forms import ProgressFilterForm
from ..progress import ProgressFilters, member_progress


@require_safe
@login_required
def progress(request):
    """ "Ma progression": the member's own numbers over time, each app's section computed by that app. A filter
    that cannot be read (a club not his, a date that is none) is said on its field, and nothing is counted."""
    form = ProgressFilterForm(request.user, request.GET or None)
    if form.is_bound and not form.is_valid():
        return render(request, "clubsite/progress.html", {"form": form, "sections": []}, status=400)
    filters = form.filters() if form.is_bound else ProgressFilters()
    context = {"form": form, "filters": filters, "sections": member_progress(request.user, filters)}
    return render(request, "clubsite/progress.html", context)
