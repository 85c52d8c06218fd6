"""What bench_warm asks a server process: one search as a draw's tops are searched (the edition's and the rules'
engine objects and the index through the site's lookups, then `best_moves` with the site's time limit), timed inside
the process, with the process's id and how many probes it served before. Served by the bench's gunicorn
(`GET /bench/search`, bench/_stack_urls.py) and by the bench's Celery worker (`-I bench._probe`), never by the site.
Not a bench itself (the runner only picks bench_*.py modules).

`hold` keeps the process busy that many seconds after the search (at most 1), so that the next probe, sent
meanwhile, is served by another process while this one only sleeps: each process's first search then runs alone on
the cores, as the first search of an evening does."""

import os
import time

from celery import shared_task

BOARD = ("H4 VAGUE", "4G AVIONS")
RACK = "EHLA?NI"  # one blank: the bench_movegen median is about 3 ms
_served = 0


def timed_search(hold: float = 0) -> dict:
    from django.conf import settings
    from django.db import connection

    from scoring.engine.movegen import best_moves
    from scoring.engine.moves import replay
    from scoring.models import Edition, RuleSet, move_index

    global _served
    _served += 1
    connection.ensure_connection()  # a request has its connection before it searches: connecting is not searching
    started, cpu_started = time.perf_counter(), time.thread_time()
    edition, rules = Edition.objects.engine("fr"), RuleSet.objects.engine()
    board = replay(BOARD, edition, rules, strict=True).board
    index = move_index("fr")
    searched = time.perf_counter()
    ranking = best_moves(board, RACK, edition, index, rules, limit=10, time_limit=settings.SEARCH_TIME_LIMIT)
    ended, cpu_ended = time.perf_counter(), time.thread_time()
    time.sleep(min(max(hold, 0), 1))
    return {
        "pid": os.getpid(),
        "nth": _served,
        "seconds": ended - started,
        "cpu_seconds": cpu_ended - cpu_started,
        "search_seconds": ended - searched,
        "best": ranking.moves[0].notation,
    }


@shared_task(name="bench.search_probe", ignore_result=False)  # the site ignores its tasks' results
def search_probe(hold: float = 0) -> dict:
    return timed_search(hold)
