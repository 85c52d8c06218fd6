from celery import shared_task

from .engine.gaddag import lexicon_index
from .models import Edition, Lexicon


@shared_task
def rebuild_move_index(lexicon_id: int) -> str:
    """Build (or find) the top finder's index of an uploaded word list, so no page waits for it."""
    row = Lexicon.objects.select_related("edition").get(pk=lexicon_id)
    index = lexicon_index(row.build(), Edition.objects.engine(row.edition.code))
    return index.digest
