"""The first searches of a fresh deployment (issue 22), made as the README says: a cache directory of its own and
empty, `manage.py prepare_search`, then gunicorn with its workers (`-c gunicorn.conf.py`) and a Celery worker.

Targets (printed against their figures, never asserted):
  1. the first search of each gunicorn worker at most 0.5 s, and within 2 x the median search (a draw's search as
     `GET /bench/search` makes it, bench/_probe.py: the engine objects and the index through the site's lookups, then
     `best_moves`, timed in the worker; the median over the searches after each worker's first). The ratio is taken
     on the CPU time of the worker's thread: other work shares the machine's 2 cores, and a search that waits for
     one there has spent nothing more (its wall time, printed beside, includes that wait);
  2. the first draw with tops of the deployment, `POST /api/duplicate/sessions/{id}/rounds` with `{}` (the server
     draws, the top finder's moves searched), its first request: at most 1 s, every move searched;
  3. the first review of a classic game after a start (the Woogles game of ../shared/oracle, 24 racks), its first
     request, analyses every rack;
  4. the first search of each process of a Celery worker (prefork, 2 processes): the same targets.
The same deployment without gunicorn.conf.py (no warm-up, each worker loading what it needs on its first search)
is measured beside it, and so is `prepare_search` itself: on the empty cache directory (the GADDAG built, the kernel
compiled: what the first draw of an evening paid before, in its request) and again on the one it filled.

main() makes a throwaway database (clubsite_bench_warm_<pid>), migrates it, creates the cache table, runs
collectstatic into a temporary directory (bench/_stack_settings.py) and `prepare_search` twice, then runs the
measure in a fresh interpreter (`python -m bench.bench_warm`), which starts and stops the servers; the database and
the directories are dropped in a `finally`. The Celery part needs Redis on 127.0.0.1:6379 (database 9, flushed).
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench import verdict
from bench.bench_duplicate import ROOT, _admin, _free_port, _ms, _request, _stop, stack_environment

WORKERS = 4
CELERY_PROCESSES = 2
PROBES_AFTER_THE_FIRST = 40
# Each process's first probe holds it this long after its search, and the next is sent this much later: it goes to
# another process, and the first searches run one after the other, as an evening's first requests do.
HOLD_SECONDS = 0.5
SPACING_SECONDS = 0.15
WORKER_START_SECONDS = 3
BROKER_URL = os.environ.get("BENCH_WARM_BROKER_URL", "redis://127.0.0.1:6379/9")
GAME_RECORD = Path(os.environ.get("SHARED_DIR", ROOT.parent / "shared")) / "oracle" / "woogles_fra24_TfnqTZkYPL.gcg"

TARGET_FIRST_SEARCH_SECONDS = 0.5
TARGET_FIRST_OVER_MEDIAN = 2
TARGET_FIRST_DRAW_SECONDS = 1.0


def main() -> dict:
    load_before = os.getloadavg()[0]
    f = _run()
    return _report(f, load_before)


# The stack (parent process): database, migrations, static manifest, prepare_search on an empty cache directory


def _run() -> dict:
    database = f"clubsite_bench_warm_{os.getpid()}"
    scratch = Path(tempfile.mkdtemp(prefix="clubsite_bench_warm_"))
    env = {
        **{name: value for name, value in os.environ.items() if name not in ("NUMBA_CACHE_DIR", "DJANGO_CACHE_URL")},
        **stack_environment(scratch, database),
        "CLUBSITE_CACHE_DIR": str(scratch / "cache"),  # empty: nothing compiled or built yet
        "CELERY_BROKER_URL": BROKER_URL,
        "BENCH_SCRATCH": str(scratch),
    }
    try:
        _admin(f'CREATE DATABASE "{database}"')
        manage = [sys.executable, "manage.py"]
        for command in (["migrate", "--noinput"], ["createcachetable"], ["collectstatic", "--noinput"]):
            subprocess.run([*manage, *command], cwd=ROOT, env=env, check=True, capture_output=True)
        prepared = {}
        for name in ("cold", "warm"):  # on the empty cache directory, then again on the one it filled
            started = time.perf_counter()
            run = subprocess.run([*manage, "prepare_search"], cwd=ROOT, env=env, check=True, capture_output=True)
            prepared[name] = {"seconds": time.perf_counter() - started, "said": run.stdout.decode().strip()}
        run = subprocess.run(
            [sys.executable, "-m", "bench.bench_warm"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
        )
        if run.returncode != 0:
            raise RuntimeError(f"measure failed:\n{run.stderr[-4000:]}")
        return {**json.loads(run.stdout.strip().splitlines()[-1]), "prepared": prepared}
    finally:
        _admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        shutil.rmtree(scratch, ignore_errors=True)


# The measure (child process, Django set up on the bench database): it starts and stops the servers


def _gunicorn(port: int, config: Path, log: Path) -> tuple[subprocess.Popen, float]:
    """gunicorn as the README starts it, with `config`, once its workers are up; and the seconds that took. No
    request is sent to find out (it would be a worker's first): its log names each worker booted, and each is given
    WORKER_START_SECONDS more to load the site (without preload, each worker loads it after booting)."""
    started = time.perf_counter()
    with log.open("w") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "clubsite.wsgi", "-c", str(config), "-w", str(WORKERS),
             "-b", f"127.0.0.1:{port}", "--error-logfile", "-"],
            cwd=ROOT, env=os.environ, stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    deadline = time.monotonic() + 120
    while log.read_text().count("Booting worker") < WORKERS:
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"gunicorn did not start its workers:\n{log.read_text()[-3000:]}")
        time.sleep(0.05)
    booted = time.perf_counter() - started
    time.sleep(WORKER_START_SECONDS)
    return process, booted


def _first_request(config: Path, scratch: Path, name: str, send) -> dict:
    """A fresh start of gunicorn with `config` whose first request is `send(base)`: (status, seconds, body)."""
    port = _free_port()
    server, ready = _gunicorn(port, config, scratch / f"gunicorn-{config.stem}-{name}.log")
    try:
        status, seconds, body, _headers = send(f"http://127.0.0.1:{port}")
    finally:
        _stop(server)
    return {"ready": ready, "status": status, "seconds": seconds, "body": body}


def _first_draw(config: Path, scratch: Path, session, token: str) -> dict:
    """A draw with its tops (`{}`: the server draws) as the deployment's first request."""
    from duplicate.models import Round

    answer = _first_request(
        config, scratch, "draw",
        lambda base: _request(
            f"{base}/api/duplicate/sessions/{session.pk}/rounds", data=b"{}",
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        ),
    )  # fmt: skip
    drawn = Round.objects.filter(session=session).order_by("-number").first()
    return {
        **{key: answer[key] for key in ("ready", "status", "seconds")},
        "suggestions": len(drawn.suggestions) if drawn else 0,
        "complete": bool(drawn and drawn.suggestions_complete),
    }


def _first_review(config: Path, scratch: Path, game, cookie: str) -> dict:
    """A classic game's review as the deployment's first request, nothing of it in the shared cache."""
    from django.core.cache import cache

    cache.clear()
    url = f"/parties/{game.pk}/revoir/"
    answer = _first_request(config, scratch, "review", lambda base: _request(base + url, headers={"Cookie": cookie}))
    html = answer["body"].decode()
    return {
        **{key: answer[key] for key in ("ready", "status", "seconds")},
        "racks": game.lines.exclude(rack="").count(),
        "searched": html.count('<ol class="tops">'),
        "cut_short": html.count("Recherche arrêtée faute de temps"),
        "not_searched": html.count("Pas encore cherché"),
    }


def _first_searches(probe) -> dict:
    """Each process's first search and the median of the searches after it, from `probe` (its results)."""
    results = probe()
    firsts = [result for result in results if result["nth"] == 1]
    later = [result for result in results if result["nth"] > 1]

    def median(key):
        return statistics.median(result[key] for result in later) if later else None

    return {
        "processes": len(firsts),
        "first": sorted(result["seconds"] for result in firsts),
        "first_search": sorted(result["search_seconds"] for result in firsts),
        "first_cpu": sorted(result["cpu_seconds"] for result in firsts),
        "median": median("seconds"),
        "median_search": median("search_seconds"),
        "median_cpu": median("cpu_seconds"),
        "later": len(later),
        "best": sorted({result["best"] for result in results}),
    }


def _web_probes(config: Path, scratch: Path) -> dict:
    """A fresh start again: waves of one search a worker at once until each has served one, then more."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}/bench/search"
    server, ready = _gunicorn(port, config, scratch / f"gunicorn-{config.stem}-probes.log")

    def probe():
        results = []
        with ThreadPoolExecutor(WORKERS) as pool:
            for _wave in range(5):
                answers = []
                for _worker in range(WORKERS):  # each held busy while the next is sent: the next worker takes it
                    answers.append(pool.submit(_request, f"{url}?hold={HOLD_SECONDS}"))
                    time.sleep(SPACING_SECONDS)
                answers = [answer.result() for answer in answers]
                results += [json.loads(body) for status, _seconds, body, _headers in answers if status == 200]
                if len({result["pid"] for result in results}) == WORKERS:
                    break
        for _ in range(PROBES_AFTER_THE_FIRST):
            status, _seconds, body, _headers = _request(url)
            if status == 200:
                results.append(json.loads(body))
        return results

    try:
        return {"ready": ready, **_first_searches(probe)}
    finally:
        _stop(server)


def _celery_probes(scratch: Path) -> dict:
    """A Celery worker of 2 processes started; searches sent until each process has run one, then more."""
    import redis

    from clubsite.celery import app

    try:
        redis.Redis.from_url(BROKER_URL).flushdb()
    except redis.RedisError as error:
        return {"skipped": f"no Redis at {BROKER_URL} ({error})"}
    log = scratch / "celery.log"
    started = time.perf_counter()
    with log.open("w") as log_file:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "clubsite", "worker", "--pool=prefork",
             f"--concurrency={CELERY_PROCESSES}", "-I", "bench._probe", "-n", f"bench-warm-{os.getpid()}@%h",
             "--loglevel=INFO", "--without-heartbeat", "--without-mingle", "--without-gossip"],
            cwd=ROOT, env=os.environ, stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    first_answer = []

    def probe():
        results = []
        for _wave in range(5):
            sent = []
            for _process in range(CELERY_PROCESSES):  # as for gunicorn's workers: each held while the next is sent
                sent.append(app.send_task("bench.search_probe", args=[HOLD_SECONDS]))
                time.sleep(SPACING_SECONDS)
            results += [task.get(timeout=120) for task in sent]
            first_answer.append(time.perf_counter() - started)
            if len({result["pid"] for result in results}) == CELERY_PROCESSES:
                break
        for _ in range(PROBES_AFTER_THE_FIRST // 2):
            results.append(app.send_task("bench.search_probe").get(timeout=60))
        return results

    try:
        figures = _first_searches(probe)
    except Exception as error:  # noqa: BLE001 - said in the report with the worker's log
        return {"skipped": f"{type(error).__name__}: {error}; worker log: {log.read_text()[-2000:]}"}
    finally:
        _stop(worker)
        redis.Redis.from_url(BROKER_URL).flushdb()
    said = [line for line in log.read_text().splitlines() if "Chercheur de tops prêt" in line]
    return {**figures, "ready": first_answer[0], "said": said[-1] if said else ""}


def measure() -> dict:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.utils import timezone

    from clubsite.models import ApiToken, Club, Membership
    from duplicate.services.sessions import session_create
    from scoring.engine.gcg import decode_gcg
    from scoring.models import Edition, RuleSet
    from sheets.gcg_files import game_from_gcg

    scratch = Path(os.environ["BENCH_SCRATCH"])
    organiser = get_user_model().objects.create_user("organiser", "organiser@example.org", "x")
    club = Club.objects.create(name="Club du bench", slug="bench")
    Membership.objects.create(club=club, user=organiser, role=Membership.Role.ORGANISER)
    token = ApiToken.issue(organiser)
    client = Client()
    client.force_login(organiser)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    game, _notes = game_from_gcg(
        owner=organiser, text=decode_gcg(GAME_RECORD.read_bytes()), rule_set=RuleSet.objects.get(code="tournoi")
    )

    def session(name):
        return session_create(
            creator=organiser, club=club, name=name, date=timezone.localdate(),
            edition=Edition.objects.get(code="fr"), rule_set=RuleSet.objects.get(code="tournoi"), move_seconds=180,
            players=[(1, "Anne"), (2, "Bruno")],
        )  # fmt: skip

    without = scratch / "without.conf.py"
    without.write_text("")  # gunicorn's defaults: the app loaded in each worker, nothing made ready
    readme = ROOT / "gunicorn.conf.py"
    figures = {}
    for name, config in (("without", without), ("readme", readme)):
        figures[name] = {
            "draw": _first_draw(config, scratch, session(f"Séance {name}"), token),
            "review": _first_review(config, scratch, game, cookie),
            "probes": _web_probes(config, scratch),
        }
    figures["celery"] = _celery_probes(scratch)
    return figures


# The report


def _searches_text(probes: dict) -> str:
    if "skipped" in probes:
        return f"skipped: {probes['skipped']}"
    worst, worst_cpu = max(probes["first"]), max(probes["first_cpu"])
    ratio, ratio_cpu = worst / probes["median"], worst_cpu / probes["median_cpu"]
    met = worst <= TARGET_FIRST_SEARCH_SECONDS and ratio_cpu <= TARGET_FIRST_OVER_MEDIAN

    def listed(key):
        return ", ".join(str(_ms(seconds)) for seconds in probes[key])

    return (
        f"first search of each of {probes['processes']} processes {listed('first')} ms, CPU {listed('first_cpu')} "
        f"(best_moves alone {listed('first_search')}); median of the {probes['later']} after them "
        f"{_ms(probes['median'])} ms, CPU {_ms(probes['median_cpu'])} (best_moves {_ms(probes['median_search'])}): "
        f"the slowest first is {ratio:.1f} x the median, {ratio_cpu:.1f} x in CPU (targets <= "
        f"{_ms(TARGET_FIRST_SEARCH_SECONDS)} ms, and <= {TARGET_FIRST_OVER_MEDIAN} x in CPU: {verdict(met)}); "
        f"up {probes['ready']:.1f} s after its start"
    )


def _first_text(draw: dict, review: dict, target: bool) -> dict:
    draw_met = draw["status"] == 201 and draw["complete"] and draw["seconds"] <= TARGET_FIRST_DRAW_SECONDS
    review_met = review["status"] == 200 and review["searched"] == review["racks"] and not review["cut_short"]
    draw_target = f" (target <= {TARGET_FIRST_DRAW_SECONDS:g} s, every move searched: {verdict(draw_met)})"
    review_target = f" (target every rack: {verdict(review_met)})"
    return {
        "first draw with tops, the deployment's first request": f"{draw['status']} in {_ms(draw['seconds'])} ms, "
        f"{draw['suggestions']} tops {'complete' if draw['complete'] else 'CUT SHORT'}"
        f"{draw_target if target else ''}; gunicorn's workers booted {draw['ready']:.1f} s after its start",
        "first review of the 24-rack game, the deployment's first request": f"{review['status']} in "
        f"{_ms(review['seconds'])} ms, {review['searched']} of {review['racks']} racks searched, "
        f"{review['cut_short']} cut short, {review['not_searched']} left for a reload{review_target if target else ''}",
    }


def _report(f: dict, load_before: float) -> dict:
    prepared = f["prepared"]
    report = {
        "prepare_search": f"on an empty cache directory {prepared['cold']['seconds']:.1f} s (the index built, the "
        f"kernel compiled), again {prepared['warm']['seconds']:.1f} s; it said: {prepared['cold']['said']}",
    }
    for name, label, target in (("readme", "as the README says", True), ("without", "without gunicorn.conf.py", False)):
        figures = f[name]
        firsts = _first_text(figures["draw"], figures["review"], target)
        report |= {f"{label}, {key}": value for key, value in firsts.items()}
        report[f"{label}, gunicorn's {WORKERS} workers"] = _searches_text(figures["probes"])
    report[f"Celery worker, {CELERY_PROCESSES} processes (prefork)"] = _searches_text(f["celery"])
    report["machine"] = f"{os.cpu_count()} CPUs, load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after"
    return report


if __name__ == "__main__":
    print(json.dumps(measure()))
