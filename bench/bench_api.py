"""In-process latency of two API operations (Django test client, SQLite in memory, no network):

1. POST /api/score, a board of 3 moves and one move with 3 cross words;
2. POST /api/sheets/local-games, a member copying a game of 400 lines (the most a sheet holds) from the sheet kept
   in the browser (issue 23): target under 0.5 s.
"""

import json
import os
import statistics
import time

from bench import verdict

COPY_RUNS = 20
TARGET_COPY_SECONDS = 0.5


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
    os.environ["DATABASE_URL"] = "sqlite:///:memory:"
    # The bench measures the work, not the rate limits.
    os.environ["DJANGO_RATE_API_VISITOR"] = "1000000/min"
    os.environ["DJANGO_RATE_SHEET_COPY_MEMBER"] = "1000000/min"
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    return _score(Client()) | _local_game_copy(Client())


def _score(client) -> dict:
    body = json.dumps({"edition": "fr", "board": ["H4 VAGUE", "4G AVIONS", "L4 SEXE"], "move": "M3 KIWI"})
    for _ in range(50):
        client.post("/api/score", body, content_type="application/json")
    timings = []
    for _ in range(2000):
        started = time.perf_counter()
        response = client.post("/api/score", body, content_type="application/json")
        timings.append(time.perf_counter() - started)
    assert response.status_code == 200 and response.json()["score"] == 76
    timings.sort()
    return {
        "requests": f"{len(timings)} (board of 3 moves, one move with 3 cross words)",
        "median": f"{statistics.median(timings) * 1000:.2f} ms",
        "p95": f"{timings[int(len(timings) * 0.95)] * 1000:.2f} ms",
    }


def _local_game_copy(client) -> dict:
    from django.contrib.auth import get_user_model

    from sheets.services import MAX_LINES

    client.force_login(get_user_model().objects.create_user("bench", "bench@example.org"))
    kinds = ("play", "exchange", "pass", "withdrawn", "challenge", "penalty")
    points = {"play": 23, "challenge": -5, "penalty": -10}
    lines = [
        {"player": n % 2, "kind": kinds[n % len(kinds)], "points": points.get(kinds[n % len(kinds)], 0)}
        for n in range(MAX_LINES)
    ]
    body = json.dumps({"edition": "fr", "rules": "tournoi", "players": ["Claire", "Paul"], "lines": lines})
    timings = []
    for _ in range(COPY_RUNS + 1):  # the first warms the process
        started = time.perf_counter()
        response = client.post("/api/sheets/local-games", body, content_type="application/json")
        timings.append(time.perf_counter() - started)
        assert response.status_code == 201, response.content
    median = statistics.median(timings[1:])
    return {
        f"game copied from the browser's sheet ({MAX_LINES} lines of every kind, {COPY_RUNS} runs)": f"median "
        f"{median * 1000:.0f} ms, max {max(timings[1:]) * 1000:.0f} ms (target < {TARGET_COPY_SECONDS} s: "
        f"{verdict(median < TARGET_COPY_SECONDS)})",
    }
