"""In-process latency of POST /api/score (Django test client, SQLite in memory, no network)."""

import json
import os
import statistics
import time


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
    os.environ["DATABASE_URL"] = "sqlite:///:memory:"
    os.environ["DJANGO_RATE_API_VISITOR"] = "1000000/min"  # the bench measures the scoring, not the rate limit
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    client = Client()
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
