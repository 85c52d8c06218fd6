from celery import shared_task

from .engine.gaddag import lexicon_index
from .models import Edition, Lexicon
from .warmup import search_once


@shared_task
def rebuild_move_index(lexicon_id: int) -> str:
    """Build (or find) the top finder's index of an uploaded word list, then search with it once (compiling the
    kernel for its cells if the cache holds none), so no page waits for either."""
    row = Lexicon.objects.select_related("edition").get(pk=lexicon_id)
    edition = Edition.objects.engine(row.edition.code)
    index = lexicon_index(row.build(), edition)
    search_once(edition, index)
    return index.digest
