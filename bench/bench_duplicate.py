"""A duplicate session on the real stack: gunicorn (sync workers, DEBUG off) in front of PostgreSQL.

Targets:
  0. the write path (issue 12): our `PUT /api/duplicate/sessions/{id}/rounds/{n}/scores` serves at least half
     of what a bare Django + ninja endpoint doing one upsert serves (bench/_stack_urls.py), measured side by side
     on their own gunicorn with 2 workers, 16 client connections, one score a request, each a change of the
     player's result; runs of the two alternate so that both meet the same machine, and the median of the
     neighbouring runs' ratios is the figure; the results and the history rows are then checked;
  1. a room of 500 players sending their score for a move within a few seconds, through the JSON API
     (one player a request, the organiser's token):
     at least 200 submissions/s sustained, p95 latency under 200 ms, no result lost or doubled (a burst from
     50 client threads, then the same room offered at exactly 200/s, open loop, latency from each one's due time);
  1b. the same room through the players' phone pages, the move open (drawn, top not placed, no clock): each
     player GETs `/duplicate/joueur/<key>/` for its CSRF token then POSTs `score=<n>`, offered at 200/s open
     loop: p95 under 200 ms from each entry's due time to the POST's answer (GET and POST together), every
     entry answered 302, exactly 500 results with the scores sent;
  2. the ranking of 1,000 players x 25 moves (`duplicate.services.rankings.ranking`) under 300 ms, in the same number
     of SQL queries for 10 players as for 1,000; plus the live ranking page over HTTP;
  3. the polls when nothing changed (htmx, each page's own poll URL read from the page: `?v=<session.version>`
     or the state the page stamps there, 204): the projector's room screen (`/duplicate/salle/<key>/`), the
     live ranking and the player's page, p95 under 5 ms each over 300 requests (a page that does not answer its
     poll 204 is skipped, with the reason), with the CPU a poll and its SQL queries.
The paced runs also report the CPU spent an entry by gunicorn, PostgreSQL and the load generator, and the share
of the machine other processes took meanwhile: the three share the same cores, so a rate short of its target
says which one spent them, and whether the machine was busy with something else. The load generator writes its
requests on plain sockets, the least CPU it can take from them.

main() makes a throwaway database (clubsite_bench_<pid>), migrates it, creates the cache table, runs
collectstatic into a temporary directory (bench/_stack_settings.py), starts the two gunicorns on free local
ports, then runs the measure in a fresh interpreter (`python -m bench.bench_duplicate [part ...]`, parts
`writes`, `rooms`, `ranking`; all by default): the runner's process already has Django set up on SQLite by
bench_api. The gunicorns are stopped and the database dropped in a `finally`, whatever happens.
"""

import html
import http.client
import io
import json
import os
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench import verdict

ROOT = Path(__file__).resolve().parents[1]
PG_ADMIN_URL = os.environ.get("BENCH_PG_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres")
WORKERS = 4
ROOM_PLAYERS = 500
CLIENT_THREADS = 50
RANKING_PLAYERS = 1000
RANKING_SMALL_PLAYERS = 10
RANKING_MOVES = 25
RANKING_RUNS = 7
DRAW, TOP, TOP_SCORE = "VAGUEST", "H4 VAGUE", 26
GAME_SEED = 2031  # the server's draws of the game behind the ranking sessions: 26 moves with the free list

TARGET_SUBMISSIONS_PER_SECOND = 200
TARGET_P95_MS = 200
TARGET_RANKING_MS = 300
POLLS = 300
TARGET_POLL_P95_MS = 5
PARTS = ("writes", "rooms", "ranking", "simultane")  # what main() measures: all of it unless told

# A simultané (issue 16): 50 rooms of 30 players, each room's move 25 entered by its arbiter through the API, one
# score a request, the 1,500 entries of every room interleaved and offered at 100/s (the whole simultané within
# 15 s, rather than the minute a real one takes), open loop; then the combined ranking of the 1,500 players over
# 25 moves, in Python and through the API.
SIMULTANE_ROOMS = 50
SIMULTANE_PLAYERS = 30
SIMULTANE_RATE = 100
TARGET_SIMULTANE_RANKING_MS = 300

# The write path, our PUT …/scores against a bare endpoint's ceiling (bench/_stack_urls.py), as issue 12 measures
# it: its own gunicorn with 2 workers, 16 client connections, one score a request, bare and ours alternated.
WRITE_WORKERS = 2
WRITE_CONNECTIONS = 16
WRITE_WARM_REQUESTS = 200
WRITE_REQUESTS = 1000
WRITE_RUNS = 5
TARGET_WRITE_RATIO = 0.5


# The stack: database, migrations, static manifest, gunicorn (parent process)


def _admin(sql: str):
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
        connection.execute(sql)


def _database_url(name: str) -> str:
    parts = urllib.parse.urlsplit(PG_ADMIN_URL)
    return urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_ready(base: str, process: subprocess.Popen, log: Path, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited ({process.returncode}):\n{log.read_text()[-3000:]}")
        if _request(f"{base}/duplicate/classement/none/")[0] == 404:
            return
        time.sleep(0.1)
    raise RuntimeError(f"gunicorn not answering after {seconds:g} s:\n{log.read_text()[-3000:]}")


def _stop(process: subprocess.Popen):
    """SIGTERM to the gunicorn master we started (it stops its workers); SIGKILL to its group if it hangs."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=5)


def _start_gunicorn(workers: int, port: int, env: dict, log: Path) -> subprocess.Popen:
    with log.open("w") as log_file:
        return subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "clubsite.wsgi", "-w", str(workers), "-k", "sync",
             "-b", f"127.0.0.1:{port}", "--error-logfile", "-"],
            cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip


def stack_environment(scratch: Path, database: str) -> dict:
    """What a bench's stack sets in its processes' environment: the site in production mode (DEBUG off, a secret of
    its own, no HTTPS redirect, its own database) with the bench's settings and static files."""
    return {
        "DJANGO_SETTINGS_MODULE": "bench._stack_settings",
        "BENCH_STATIC_ROOT": str(scratch / "static"),
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": _database_url(database),
        "DJANGO_LOG_LEVEL": "WARNING",
    }


def run_stack(parts=PARTS) -> dict:
    database = f"clubsite_bench_{os.getpid()}"
    scratch = Path(tempfile.mkdtemp(prefix="clubsite_bench_"))
    port, writes_port = _free_port(), _free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        **stack_environment(scratch, database),
        "BENCH_BASE_URL": base,
        "BENCH_WORKERS": str(WORKERS),
        "BENCH_WRITES_PORT": str(writes_port),
    }
    for name in ("DJANGO_CACHE_URL", "CELERY_BROKER_URL"):  # as README's minimal deployment: none needed here
        env.pop(name, None)
    servers = []
    timings = {}
    try:
        started = time.perf_counter()
        _admin(f'CREATE DATABASE "{database}"')
        manage = [sys.executable, "manage.py"]
        for command in (["migrate", "--noinput"], ["createcachetable"], ["collectstatic", "--noinput"]):
            subprocess.run([*manage, *command], cwd=ROOT, env=env, check=True, capture_output=True)
        timings["setup_seconds"] = time.perf_counter() - started
        # The pages' gunicorn, and the write path's own with its 2 workers (idle while the other measures run).
        logs = [scratch / "gunicorn.log", scratch / "gunicorn-writes.log"]
        servers.append(_start_gunicorn(WORKERS, port, env, logs[0]))
        servers.append(_start_gunicorn(WRITE_WORKERS, writes_port, env, logs[1]))
        _wait_ready(base, servers[0], logs[0])
        _wait_ready(f"http://127.0.0.1:{writes_port}", servers[1], logs[1])
        env["BENCH_GUNICORN_PID"] = str(servers[0].pid)  # the measure reads its workers' CPU time
        env["BENCH_WRITES_GUNICORN_PID"] = str(servers[1].pid)
        run = subprocess.run(
            [sys.executable, "-m", "bench.bench_duplicate", *parts], cwd=ROOT, env=env, capture_output=True,
            text=True, timeout=900,  # about a minute on an idle machine; minutes when other processes share its cores
        )  # fmt: skip
        log_text = "".join(log.read_text() for log in logs)
        if run.returncode != 0:
            raise RuntimeError(f"measure failed:\n{run.stderr[-4000:]}\ngunicorn log:\n{log_text[-3000:]}")
        figures = json.loads(run.stdout.strip().splitlines()[-1])
        server_errors = [line for line in log_text.splitlines() if "Traceback" in line or "ERROR" in line]
        figures["server_log_errors"] = len(server_errors)
        return {**figures, **timings, "database": database}
    finally:
        for server in servers:
            _stop(server)
        _admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        shutil.rmtree(scratch, ignore_errors=True)


# The measure (child process, Django set up on the bench database)


def _request(url, *, data=None, method=None, headers=None):
    """(status or exception name, seconds, body, response headers) of one request, written on its own socket in
    HTTP/1.0 (gunicorn's sync workers close each connection anyway): the least CPU a client can spend, since the
    load generator shares the server's cores. 3xx and 4xx/5xx are answers, not raised."""
    parts = urllib.parse.urlsplit(url)
    body = data or b""
    target = f"{parts.path}?{parts.query}" if parts.query else parts.path
    head = [f"{method or ('POST' if data is not None else 'GET')} {target} HTTP/1.0", f"Host: {parts.netloc}"]
    head += [f"Content-Length: {len(body)}"] if data is not None else []
    head += [f"{name}: {value}" for name, value in (headers or {}).items()]
    started = time.perf_counter()
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=30) as connection:
            connection.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + body)
            chunks = []
            while chunk := connection.recv(65536):
                chunks.append(chunk)
    except OSError as error:
        return type(error).__name__, time.perf_counter() - started, b"", None
    seconds = time.perf_counter() - started
    answer_head, _blank, answer_body = b"".join(chunks).partition(b"\r\n\r\n")
    status_line, _newline, header_lines = answer_head.partition(b"\r\n")
    return (
        int(status_line.split(b" ", 2)[1]),
        seconds,
        answer_body,
        http.client.parse_headers(io.BytesIO(header_lines + b"\r\n\r\n")),
    )


def _percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def _ms(seconds):
    return round(seconds * 1000, 1)


def _room(session, round_, sent):
    """Results of the move in the database against what was sent: count, lost, doubled, wrong."""
    from duplicate.models import Result

    rows = list(Result.objects.filter(round=round_).values_list("player_id", "score"))
    players = [player for player, _score in rows]
    return {
        "results": len(rows),
        "lost": len(set(sent) - set(players)),
        "doubled": len(players) - len(set(players)),
        "wrong": sum(1 for player, score in rows if sent.get(player) != score),
    }


def _api_figures(outcomes, wall, session, round_, sent, version_before):
    """Rate, latencies and errors of a burst of submissions, and what the database holds after it."""
    from duplicate.models import Session

    latencies = [seconds for _status, seconds in outcomes]
    return {
        "wall": wall,
        "rate": len(outcomes) / wall,
        "p50": _ms(_percentile(latencies, 0.5)),
        "p95": _ms(_percentile(latencies, 0.95)),
        "max": _ms(max(latencies)),
        "errors": sum(status != 200 for status, _s in outcomes),
        "version_delta": Session.objects.get(pk=session.pk).version - version_before,
        **_room(session, round_, sent),
    }


def _cpu_seconds(pids) -> dict:
    """User + system CPU time so far of each of these processes still running (/proc/<pid>/stat)."""
    seconds = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        seconds[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
    return seconds


def _cpu_snapshot(master=None) -> dict:
    """CPU seconds used so far by the gunicorn workers, this database's PostgreSQL backends and this process
    (the load generator), and by the whole machine: the three share its cores, so a rate short of its target
    says which one spent them, and whether something else was running beside the bench."""
    from django.db import connection

    master = master or os.environ["BENCH_GUNICORN_PID"]
    workers = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
        backends = [pid for (pid,) in cursor.fetchall()]
    client = os.times()
    # /proc/stat's first line: user nice system idle iowait irq softirq steal …, in USER_HZ ticks, all cores.
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, Path("/proc/stat").read_text().split()[1:9])
    return {
        "server": _cpu_seconds(workers),
        "database": _cpu_seconds(backends),
        "client": {0: client.user + client.system},
        "machine": (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK"),
        "wall": time.perf_counter(),
    }


def _cpu_per(before: dict, count: int, master=None) -> dict:
    """Milliseconds of CPU per item since `before` for each of the three, and the share of the machine's cores
    that other processes took meanwhile."""
    after = _cpu_snapshot(master)
    # Per process: a PostgreSQL backend opened meanwhile counts from 0, one closed meanwhile is left out.
    spent = {
        name: sum(seconds - before[name].get(pid, 0.0) for pid, seconds in after[name].items())
        if isinstance(after[name], dict)
        else after[name] - before[name]
        for name in before
    }
    others = spent["machine"] - spent["server"] - spent["database"] - spent["client"]
    return {
        **{name: round(spent[name] * 1000 / count, 1) for name in ("server", "database", "client")},
        "others_share": round(max(0.0, others) / (spent["wall"] * (os.cpu_count() or 1)), 2),
    }


def _replay(submit, jobs):
    with ThreadPoolExecutor(CLIENT_THREADS) as pool:
        started = time.perf_counter()
        outcomes = list(pool.map(submit, jobs))
        wall = time.perf_counter() - started
    return outcomes, wall


def _paced(submit, jobs, rate):
    """Open loop: job i is due at start + i/rate whatever the earlier answers; latency counts from when it was
    due, so a server that falls behind shows its queue (no coordinated omission). Each outcome is
    (what submit returned, seconds from due to done)."""
    start = time.perf_counter() + 0.05

    def one(indexed):
        index, job = indexed
        due = start + index / rate
        time.sleep(max(0.0, due - time.perf_counter()))
        answer = submit(job)
        return answer, time.perf_counter() - due

    with ThreadPoolExecutor(CLIENT_THREADS) as pool:
        outcomes = list(pool.map(one, enumerate(jobs)))
    return outcomes, time.perf_counter() - start


def _write_path(room_session, token) -> dict:
    """Our `PUT …/scores` against the bare endpoint of bench/_stack_urls.py (one upsert, nothing else), on the
    second gunicorn (WRITE_WORKERS workers): WRITE_CONNECTIONS clients each sending one score after another, each
    a change of the player's result, in runs that alternate bare and ours so that both meet the same machine.
    The ratio of each pair of neighbouring runs, and its median, say what share of the ceiling we serve."""
    from duplicate.models import Change, Result

    base = f"http://127.0.0.1:{os.environ['BENCH_WRITES_PORT']}"
    master = os.environ["BENCH_WRITES_GUNICORN_PID"]
    bare, bare_round, bare_players = room_session("Plafond", ROOM_PLAYERS)
    ours, ours_round, ours_players = room_session("Écritures", ROOM_PLAYERS)
    api_headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    sides = {
        "bare": (f"/bench/bare/rounds/{bare_round.pk}/scores", {"Content-Type": "application/json"}, bare_players),
        "ours": (f"/api/duplicate/sessions/{ours.pk}/rounds/{ours_round.number}/scores", api_headers, ours_players),
    }
    written = {"bare": {}, "ours": {}}  # player → writes so far, then the last score sent

    def jobs(side, count):
        """The next `count` writes, players in turn, each score different from the player's previous one."""
        path, headers, players = sides[side]
        for i in range(count):
            player = players[i % len(players)].pk
            times = written[side].setdefault(player, [0, None])
            score = (player + times[0]) % (TOP_SCORE + 1)
            times[0], times[1] = times[0] + 1, score
            body = json.dumps({"scores": [{"player": player, "score": score}]}).encode()
            yield path, body, headers

    def run(side, count):
        work = list(jobs(side, count))
        before = _cpu_snapshot(master)
        with ThreadPoolExecutor(WRITE_CONNECTIONS) as pool:
            started = time.perf_counter()
            statuses = [
                answer[0]
                for answer in pool.map(
                    lambda job: _request(f"{base}{job[0]}", data=job[1], method="PUT", headers=job[2]), work
                )
            ]
            wall = time.perf_counter() - started
        return {
            "rate": count / wall,
            "errors": sum(status != 200 for status in statuses),
            **_cpu_per(before, count, master),
        }

    changes_before = Change.objects.filter(session=ours).count()
    for side in sides:  # each worker connected, its code warm
        run(side, WRITE_WARM_REQUESTS)
    runs = {"bare": [], "ours": []}
    for _ in range(WRITE_RUNS):
        for side in sides:
            runs[side].append(run(side, WRITE_REQUESTS))
    figures = {"runs": runs, "ratios": [o["rate"] / b["rate"] for b, o in zip(runs["bare"], runs["ours"], strict=True)]}
    for side, round_ in (("bare", bare_round), ("ours", ours_round)):
        rows = dict(Result.objects.filter(round=round_).values_list("player_id", "score"))
        last = {player: score for player, (_times, score) in written[side].items()}
        figures[f"{side}_check"] = {
            "results": len(rows),
            "lost": len(set(last) - set(rows)),
            "wrong": sum(1 for player, score in last.items() if rows.get(player) != score),
        }
    sent = sum(times for times, _score in written["ours"].values())
    figures["ours_check"]["history"] = Change.objects.filter(session=ours).count() - changes_before
    figures["ours_check"]["sent"] = sent
    return figures


def measure(parts) -> dict:
    import datetime
    import random

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from clubsite.models import ApiToken, Club, Membership
    from duplicate.errors import DuplicateError
    from duplicate.models import Player, Result, Round, Session
    from duplicate.services import rankings
    from duplicate.services.players import players_add
    from duplicate.services.rounds import round_add, round_reveal_top
    from duplicate.services.sessions import session_create
    from scoring.models import Edition, RuleSet

    base = os.environ["BENCH_BASE_URL"]
    rng = random.Random(2026)
    organiser = get_user_model().objects.create_user("organiser", "organiser@example.org", "x")
    club = Club.objects.create(name="Club du bench", slug="bench")
    Membership.objects.create(club=club, user=organiser, role=Membership.Role.ORGANISER)
    token = ApiToken.issue(organiser)
    edition, rule_set = Edition.objects.get(code="fr"), RuleSet.objects.get(code="tournoi")

    def room_session(name, players, *, open_move=False):
        """A room with one move drawn: its top placed, or left open for the players' own entries (no top, no
        clock started, so `player_entry_refusal` lets them write)."""
        session = session_create(
            creator=organiser, club=club, name=name, date=datetime.date.today(), edition=edition,
            rule_set=rule_set, move_seconds=180, entry=Session.Entry.BOTH,
        )  # fmt: skip
        players_add(session=session, rows=[(i + 1, f"Joueur {i + 1:04d}") for i in range(players)])
        round_ = round_add(session=session, draw_text=DRAW, top_text=None if open_move else TOP)
        if open_move:
            session = Session.objects.get(pk=session.pk)
            refusal = session.player_entry_refusal(round_, timezone.now())
            assert session.players_enter_scores and not refusal, refusal
        else:
            assert round_.top_score == TOP_SCORE, (round_.top, round_.top_score)
        return session, round_, list(session.players.order_by("pk"))

    def api_submit(session, number, player_pk, score):
        body = json.dumps({"scores": [{"player": player_pk, "score": score}]}).encode()
        url = f"{base}/api/duplicate/sessions/{session.pk}/rounds/{number}/scores"
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        status, seconds, _body, _headers = _request(url, data=body, method="PUT", headers=headers)
        return status, seconds

    def page_submit(item):
        """One player's entry from his phone: GET his page (csrftoken cookie + form token), POST his score (302
        back to the page). Returns (302 or what went wrong, GET seconds, POST seconds)."""
        key, score = item
        url = f"{base}/duplicate/joueur/{key}/"
        status, get_seconds, body, headers = _request(url)
        if status != 200:
            return f"GET {status}", get_seconds, 0.0
        cookie = re.search(r"csrftoken=([^;]+)", " ".join(headers.get_all("Set-Cookie") or []))
        form_token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        if not (cookie and form_token):
            return "no CSRF token", get_seconds, 0.0
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": form_token.group(1).decode(), "score": score})
        status, post_seconds, _body, _headers = _request(
            url, data=data.encode(), method="POST",
            headers={"Cookie": f"csrftoken={cookie.group(1)}", "Content-Type": "application/x-www-form-urlencoded"},
        )  # fmt: skip
        return (302 if status == 302 else f"POST {status}"), get_seconds, post_seconds

    figures = {"workers": int(os.environ["BENCH_WORKERS"]), "threads": CLIENT_THREADS, "room": ROOM_PLAYERS}
    if "writes" in parts:
        figures["writes"] = _write_path(room_session, token)
    if "rooms" in parts:
        # Warm every worker (connection to PostgreSQL, engines' caches), on sessions of their own: the API, the
        # player pages, and their entries on an open move.
        warm, warm_round, warm_players = room_session("Échauffement", 8)
        _replay(lambda job: api_submit(warm, 1, job, 1), [p.pk for p in warm_players] * 8)
        _replay(lambda key: _request(f"{base}/duplicate/joueur/{key}/"), [p.key for p in warm_players] * 4)
        _warm_open, _warm_open_round, warm_open_players = room_session("Échauffement ouvert", 32, open_move=True)
        _replay(page_submit, [(p.key, 1) for p in warm_open_players])

        # 1. The API path: one PUT a player, 500 players, varied scores up to the top.
        session, round_, players = room_session("Salle API", ROOM_PLAYERS)
        sent = {player.pk: rng.randint(0, TOP_SCORE) for player in players}
        version_before = Session.objects.get(pk=session.pk).version
        outcomes, wall = _replay(lambda item: api_submit(session, round_.number, *item), list(sent.items()))
        figures["api"] = {
            **_api_figures(outcomes, wall, session, round_, sent, version_before),
            "statuses": sorted({str(status) for status, _s in outcomes}),
        }

        # 1a. The same room at exactly the target rate, open loop: does the server keep up, and how fast then?
        session, round_, players = room_session("Salle API cadencée", ROOM_PLAYERS)
        sent = {player.pk: rng.randint(0, TOP_SCORE) for player in players}
        version_before = Session.objects.get(pk=session.pk).version
        cpu = _cpu_snapshot()
        outcomes, wall = _paced(
            lambda item: api_submit(session, round_.number, *item), list(sent.items()), TARGET_SUBMISSIONS_PER_SECOND
        )
        cpu = _cpu_per(cpu, len(outcomes))
        outcomes = [(status, since_due) for (status, _seconds), since_due in outcomes]
        figures["api_paced"] = {**_api_figures(outcomes, wall, session, round_, sent, version_before), "cpu": cpu}

        # 1b. The phone pages at the same rate, open loop, on an open move: GET the page then POST the score.
        session_p, round_p, players_p = room_session("Salle téléphones", ROOM_PLAYERS, open_move=True)
        sent_p = {player.pk: rng.randint(0, TOP_SCORE) for player in players_p}
        jobs = [(player.key, sent_p[player.pk]) for player in players_p]
        version_before = Session.objects.get(pk=session_p.pk).version
        cpu = _cpu_snapshot()
        outcomes, wall = _paced(page_submit, jobs, TARGET_SUBMISSIONS_PER_SECOND)
        cpu = _cpu_per(cpu, len(outcomes))
        entries = [since_due for _answer, since_due in outcomes]
        gets = [g for (_status, g, _p), _since_due in outcomes]
        posts = [p for (status, _g, p), _since_due in outcomes if status == 302]
        statuses = [status for (status, _g, _p), _since_due in outcomes]
        figures["pages"] = {
            "wall": wall,
            "rate": len(outcomes) / wall,
            "p50": _ms(_percentile(entries, 0.5)),
            "p95": _ms(_percentile(entries, 0.95)),
            "max": _ms(max(entries)),
            "get_p50": _ms(_percentile(gets, 0.5)),
            "get_p95": _ms(_percentile(gets, 0.95)),
            "post_p50": _ms(_percentile(posts, 0.5)) if posts else None,
            "post_p95": _ms(_percentile(posts, 0.95)) if posts else None,
            "errors": sum(status != 302 for status in statuses),
            "statuses": sorted({str(status) for status in statuses}),
            "version_delta": Session.objects.get(pk=session_p.pk).version - version_before,
            "cpu": cpu,
            **_room(session_p, round_p, sent_p),
        }
        # One player's page alone on the quiet server, for comparison with the page under load.
        quiet = [_request(f"{base}/duplicate/joueur/{players_p[0].key}/")[1] for _ in range(10)]
        figures["pages"]["get_quiet_median"] = _ms(statistics.median(quiet))

    if "ranking" in parts:
        # 2. Ranking of 1,000 players x 25 moves, built with bulk_create on the moves of a real game: the pages
        # (player, room screen) replay its tops to draw the grid, so the tops must be playable one after another.
        def real_game(moves):
            """The server's draws from a fixed seed, each top the best move the top finder sees, as an automatic
            game plays them."""
            game = session_create(
                creator=organiser, club=None, name="Partie de référence", date=datetime.date.today(), edition=edition,
                rule_set=rule_set, move_seconds=180,
            )  # fmt: skip
            Session.objects.filter(pk=game.pk).update(seed=GAME_SEED)
            game = Session.objects.get(pk=game.pk)
            for number in range(1, moves + 1):
                try:
                    round_reveal_top(round_=round_add(session=game))
                except DuplicateError as error:
                    raise RuntimeError(
                        f"GAME_SEED {GAME_SEED}'s game stops at move {number} ({error}): pick another"
                    ) from error
            return list(game.rounds.order_by("number"))

        started = time.perf_counter()
        game = real_game(RANKING_MOVES)

        def ranked_session(name, count):
            session = Session.objects.create(
                creator=organiser, club=club, name=name, date=datetime.date.today(), edition=edition,
                rule_set=rule_set, move_seconds=180, entry=Session.Entry.BOTH,
            )  # fmt: skip
            players = Player.objects.bulk_create(
                Player(session=session, name=f"Joueur {i + 1:04d}", table=i + 1) for i in range(count)
            )
            rounds = Round.objects.bulk_create(
                Round(session=session, number=move.number, draw=move.draw, rejets=move.rejets, drawn_by_server=True,
                      top=move.top, top_score=move.top_score, suggestions=move.suggestions)
                for move in game
            )  # fmt: skip
            results = []
            for player in players:
                for round_ in rounds:
                    if rng.random() < 0.02:  # a bulletin not entered yet
                        continue
                    score = round_.top_score if rng.random() < 0.3 else rng.randint(0, round_.top_score - 1)
                    results.append(
                        Result(round=round_, player=player, score=score, warning=rng.random() < 0.01,
                               penalty=5 if rng.random() < 0.005 else 0)
                    )  # fmt: skip
            Result.objects.bulk_create(results, batch_size=5000)
            session.touch()
            return session, len(results)

        big, big_results = ranked_session("Classement 1000", RANKING_PLAYERS)
        small, _small_results = ranked_session("Classement 10", RANKING_SMALL_PLAYERS)
        build_seconds = time.perf_counter() - started

        def fresh(session):  # as a view gets it
            return Session.objects.select_related("edition", "rule_set").get(pk=session.pk)

        rankings.ranking(fresh(big))  # engines' caches warm, as in a running worker
        runs = []
        for _ in range(RANKING_RUNS):
            instance = fresh(big)
            started = time.perf_counter()
            rows, _tops_total = rankings.ranking(instance)
            runs.append(time.perf_counter() - started)
        assert len(rows) == RANKING_PLAYERS
        counts = {}
        for label, session_ in (("small", small), ("big", big)):
            instance = fresh(session_)
            with CaptureQueriesContext(connection) as captured:
                rankings.ranking(instance)
            counts[label] = len(captured.captured_queries)
            counts[f"{label}_sql"] = [query["sql"][:160] for query in captured.captured_queries]
        figures["ranking"] = {
            "results": big_results,
            "build_seconds": build_seconds,
            "median": _ms(statistics.median(runs)),
            "min": _ms(min(runs)),
            "max": _ms(max(runs)),
            **counts,
        }

        # The live ranking page over HTTP (1,000 players), its htmx partial and its 204 path.
        url = f"{base}/duplicate/classement/{big.public_key}/"
        version = Session.objects.get(pk=big.pk).version

        def timed(target, count, headers=None, expect=200):
            _request(target, headers=headers)
            samples, statuses, size = [], set(), 0
            for _ in range(count):
                status, seconds, body, _headers = _request(target, headers=headers)
                samples.append(seconds)
                statuses.add(status)
                size = len(body)
            assert statuses == {expect}, (target, statuses)
            return {
                "count": count,
                "median": _ms(statistics.median(samples)),
                "p95": _ms(_percentile(samples, 0.95)),
                "max": _ms(max(samples)),
                "bytes": size,
            }

        htmx = {"HX-Request": "true"}
        api_headers = {"Authorization": f"Bearer {token}"}
        player_url = f"{base}/duplicate/joueur/{Player.objects.filter(session=big).first().key}/"
        figures["live"] = {
            "page": timed(url, 10),
            "partial": timed(f"{url}?v={version - 1}", 10, htmx),
            "api_json": timed(f"{base}/api/duplicate/sessions/{big.pk}/ranking", 10, api_headers),
            "player_page": timed(player_url, 10),
        }

        # 3. The polls when nothing changed, one after another on the quiet server (1,000 players x 25 moves): each
        # page's own poll URL (its `hx-trigger="every …"` element's hx-get, `?v=<version>` or whatever state the
        # page puts there), asked with HX-Request as htmx does; a page that does not answer it 204 is skipped, with
        # the reason.
        def poll(page):
            status, _seconds, body, _headers = _request(page)
            if status != 200:
                return {"skipped": f"GET {urllib.parse.urlsplit(page).path} answered {status}"}
            tags = [tag for tag in re.findall(rb"<[^>]+>", body) if b'hx-trigger="every' in tag]
            found = re.search(rb'hx-get="([^"]+)"', tags[0]) if tags else None
            if not found:
                return {"skipped": f"{urllib.parse.urlsplit(page).path} has no element polling itself"}
            target = urllib.parse.urljoin(page, html.unescape(found.group(1).decode()))
            status = _request(target, headers=htmx)[0]
            shown = urllib.parse.urlsplit(target)
            if status != 204:
                return {"skipped": f"GET {shown.path}?{shown.query} with HX-Request answered {status}, not 204"}
            before = _cpu_snapshot()
            figures = timed(target, POLLS, htmx, expect=204)
            cpu = _cpu_per(before, POLLS + 1)  # `timed` sends one more first
            # Its SQL queries, counted on the same code and database in this process.
            with CaptureQueriesContext(connection) as queries:
                answer = Client().get(f"{shown.path}?{shown.query}", HTTP_HOST="127.0.0.1", HTTP_HX_REQUEST="true")
            assert answer.status_code == 204, answer.status_code
            return {**figures, "query": shown.query, "cpu": cpu, "queries": len(queries)}

        figures["polls"] = {
            "ranking": poll(url),
            "room": poll(f"{base}/duplicate/salle/{big.public_key}/"),
            "player": poll(player_url),
        }

    if "simultane" in parts:
        figures["simultane"] = _simultane_measure(base, token, organiser, edition, rule_set, rng)
    return figures


# The report (parent process)


def _cpu_text(spent) -> str:
    ms = spent["server"] + spent["database"] + spent["client"]
    return (
        f"{ms:.1f} ms: gunicorn {spent['server']} ms, PostgreSQL {spent['database']} ms, load generator "
        f"{spent['client']} ms ({os.cpu_count()} CPUs: at most {os.cpu_count() * 1000 / ms:.0f}/s); other "
        f"processes took {spent['others_share']:.0%} of the CPUs meanwhile"
    )


def _poll_text(figures) -> str:
    if "skipped" in figures:
        return f"skipped: {figures['skipped']}"
    return (
        f"?{figures['query']}: median {figures['median']} ms, p95 {figures['p95']} ms, max {figures['max']} ms "
        f"over {figures['count']} requests (target p95 < {TARGET_POLL_P95_MS} ms: "
        f"{verdict(figures['p95'] < TARGET_POLL_P95_MS)}); {figures['queries']} SQL queries; CPU a poll "
        f"{_cpu_text(figures['cpu'])}"
    )


def _writes_report(w) -> dict:
    def side(name):
        runs = w["runs"][name]
        rates = ", ".join(f"{run['rate']:.0f}" for run in runs)
        cpu = {key: statistics.median(run[key] for run in runs) for key in ("server", "database", "client")}
        others = statistics.median(run["others_share"] for run in runs)
        errors = sum(run["errors"] for run in runs)
        return f"{rates} requests/s; {errors} errors; CPU a request {_cpu_text({**cpu, 'others_share': others})}"

    ratio = statistics.median(w["ratios"])
    bare, ours = w["bare_check"], w["ours_check"]
    clean = not (bare["lost"] or bare["wrong"] or ours["lost"] or ours["wrong"])
    return {
        f"write path, bare endpoint (one upsert; gunicorn {WRITE_WORKERS} workers, {WRITE_CONNECTIONS} connections, "
        f"{WRITE_RUNS} runs of {WRITE_REQUESTS})": side("bare"),
        "write path, our PUT .../scores (one score a request, alternating with the bare runs)": side("ours"),
        "write path, ours / bare": f"{ratio:.2f} (median of the neighbouring runs' ratios "
        f"{', '.join(f'{r:.2f}' for r in w['ratios'])}; target ≥ {TARGET_WRITE_RATIO}: "
        f"{verdict(ratio >= TARGET_WRITE_RATIO)})",
        "write path, results in database": f"bare {bare['results']} results, {bare['lost']} lost, {bare['wrong']} "
        f"wrong; ours {ours['results']} results, {ours['lost']} lost, {ours['wrong']} wrong, {ours['history']} "
        f"history rows for {ours['sent']} changes sent (target none lost or wrong, a history row a change: "
        f"{verdict(clean and ours['history'] == ours['sent'])})",
    }


def _stored(run) -> str:
    """What a room's run left in the database: its results, and how many were lost, doubled or wrong."""
    return f"{run['results']} results, {run['lost']} lost, {run['doubled']} doubled, {run['wrong']} wrong"


def _all_stored(run) -> bool:
    return run["results"] == ROOM_PLAYERS and not (run["lost"] or run["doubled"] or run["wrong"])


def _paced_target(run) -> str:
    """A paced run's latency against its target, at the rate offered."""
    met = verdict(run["p95"] < TARGET_P95_MS)
    return f"(p95 < {TARGET_P95_MS} ms at {TARGET_SUBMISSIONS_PER_SECOND}/s offered: {met})"


def _rooms_report(f) -> dict:
    api, paced, pages = f["api"], f["api_paced"], f["pages"]
    return {
        "API room (PUT .../scores, 1 player a request)": f"{api['rate']:.0f} submissions/s, {ROOM_PLAYERS} in "
        f"{api['wall']:.2f} s (target ≥ {TARGET_SUBMISSIONS_PER_SECOND}/s: "
        f"{verdict(api['rate'] >= TARGET_SUBMISSIONS_PER_SECOND)})",
        "API latency": f"p50 {api['p50']} ms, p95 {api['p95']} ms, max {api['max']} ms "
        f"(target p95 < {TARGET_P95_MS} ms: {verdict(api['p95'] < TARGET_P95_MS)})",
        "API errors": f"{api['errors']} of {ROOM_PLAYERS} (statuses {', '.join(api['statuses'])}) "
        f"(target 0: {verdict(api['errors'] == 0)})",
        "API results in database": f"{_stored(api)} score; session version +{api['version_delta']} "
        f"(target exactly {ROOM_PLAYERS}, none lost/doubled: {verdict(_all_stored(api))})",
        "API room paced at 200/s (open loop)": f"{paced['rate']:.0f} submissions/s achieved, p50 {paced['p50']} ms, "
        f"p95 {paced['p95']} ms, max {paced['max']} ms from each one's due time {_paced_target(paced)}; "
        f"{paced['errors']} errors; {_stored(paced)}; version +{paced['version_delta']}",
        "API room paced, CPU a submission": _cpu_text(paced["cpu"]),
        "phone pages room paced at 200/s (open loop, GET page + POST score)": f"{pages['rate']:.0f} entries/s "
        f"achieved, {ROOM_PLAYERS} in {pages['wall']:.2f} s; p50 {pages['p50']} ms, p95 {pages['p95']} ms, "
        f"max {pages['max']} ms from each entry's due time to the POST's answer {_paced_target(pages)}",
        "phone pages latency, each request": f"page GET p50 {pages['get_p50']} ms, p95 {pages['get_p95']} ms; "
        f"POST p50 {pages['post_p50']} ms, p95 {pages['post_p95']} ms; page GET alone {pages['get_quiet_median']} ms",
        "phone pages paced, CPU an entry (GET + POST)": _cpu_text(pages["cpu"]),
        "phone pages errors and results": f"{pages['errors']} errors (statuses {', '.join(pages['statuses'])}); "
        f"{_stored(pages)}; version +{pages['version_delta']} (target 0 errors, exactly {ROOM_PLAYERS}, none "
        f"lost/doubled/wrong: {verdict(_all_stored(pages) and pages['errors'] == 0)})",
    }


def _ranking_report(f) -> dict:
    ranking, live, polls = f["ranking"], f["live"], f["polls"]
    same_queries = ranking["small"] == ranking["big"]
    return {
        "ranking 1,000 players x 25 moves": f"median {ranking['median']} ms (min {ranking['min']}, max "
        f"{ranking['max']}) over {RANKING_RUNS} runs, {ranking['results']:,} results "
        f"(target < {TARGET_RANKING_MS} ms: {verdict(ranking['median'] < TARGET_RANKING_MS)})",
        "ranking SQL queries": f"{ranking['small']} for {RANKING_SMALL_PLAYERS} players, {ranking['big']} for "
        f"{RANKING_PLAYERS:,} players (target: the same: {verdict(same_queries)})",
        "live ranking page (1,000 players)": f"median {live['page']['median']} ms, max {live['page']['max']} ms, "
        f"{live['page']['bytes'] / 1024:.0f} KB",
        "live ranking htmx partial (changed)": f"median {live['partial']['median']} ms, "
        f"{live['partial']['bytes'] / 1024:.0f} KB",
        "API ranking JSON (1,000 players)": f"median {live['api_json']['median']} ms, "
        f"{live['api_json']['bytes'] / 1024:.0f} KB",
        "player page (1,000 players x 25 moves)": f"median {live['player_page']['median']} ms, "
        f"max {live['player_page']['max']} ms",
        "live ranking poll unchanged (204)": _poll_text(polls["ranking"]),
        "room screen poll unchanged (204, /duplicate/salle/)": _poll_text(polls["room"]),
        "player page poll unchanged (204)": _poll_text(polls["player"]),
    }


def main(parts=PARTS):
    load_before = os.getloadavg()[0]  # the figures are CPU-bound: a busy machine lowers them, say so
    started = time.perf_counter()
    f = run_stack(parts)
    total = time.perf_counter() - started
    report = {
        "stack": f"gunicorn {f['workers']} sync workers (the write path's: {WRITE_WORKERS}), DEBUG off, PostgreSQL "
        f"{f['database']} (dropped); {f['threads']} client threads; create+migrate+collectstatic "
        f"{f['setup_seconds']:.1f} s; {os.cpu_count()} CPUs, load average {load_before:.1f} before the bench",
    }
    if "writes" in parts:
        report |= _writes_report(f["writes"])
    if "rooms" in parts:
        report |= _rooms_report(f)
    if "ranking" in parts:
        report |= _ranking_report(f)
    if "simultane" in parts:
        report |= _simultane_report(f)
    return report | {
        "server log errors": f"{f['server_log_errors']}",
        "whole bench": f"{total:.1f} s, load average {os.getloadavg()[0]:.1f} at the end",
    }


def _simultane_measure(base, token, organiser, edition, rule_set, rng) -> dict:
    """Issue 16's simultané on the stack: see SIMULTANE_* above."""
    import datetime

    from django.utils import timezone

    from clubsite.models import Club, Membership
    from duplicate import games
    from duplicate.models import Player, Result, Round, Session, Simultane
    from duplicate.services import combined_ranking, simultanes
    from duplicate.services.rounds import round_add, round_reveal_top
    from scoring.models import Edition, RuleSet, move_index

    started = time.perf_counter()
    body = Club.objects.create(name="Fédération du bench", slug="federation-bench", kind=Club.Kind.FEDERATION)
    Membership.objects.create(club=body, user=organiser, role=Membership.Role.ORGANISER)
    engine, rules = Edition.objects.engine(edition.code), RuleSet.objects.engine(rule_set.code)
    game = games.draw_game(engine, rules, move_index(edition.code), GAME_SEED)[:RANKING_MOVES]
    simultane = simultanes.simultane_create(
        body=body, creator=organiser, name="Simultané du bench", starts_at=timezone.now() + datetime.timedelta(hours=1),
        edition=edition, rule_set=rule_set, move_seconds=180, game=game,
    )  # fmt: skip
    registered = []
    for number in range(SIMULTANE_ROOMS):  # every club registers its room before the start
        club = Club.objects.create(name=f"Club {number + 1:02d}", slug=f"club-bench-{number + 1:02d}")
        Membership.objects.create(club=club, user=organiser, role=Membership.Role.ORGANISER)
        registered.append(simultanes.room_register(simultane=simultane, club=club, creator=organiser))
    Simultane.objects.filter(pk=simultane.pk).update(starts_at=timezone.now())  # the simultané begins
    rooms = []
    for number, room in enumerate(registered):
        players = Player.objects.bulk_create(
            Player(session=room, name=f"Joueur {number + 1:02d}-{i + 1:02d}", table=i + 1, series="ABCDEFGHIJ"[i % 10])
            for i in range(SIMULTANE_PLAYERS)
        )
        # Moves 1 to 24 played (bulk), move 25 drawn through the service: its results are the measure's.
        played = Round.objects.bulk_create(
            Round(session=room, number=move.number, draw=move.draw, top=move.top, top_score=move.top_score)
            for move in game[:-1]
        )
        Result.objects.bulk_create(
            Result(round=round_, player=player, score=rng.randint(0, round_.top_score))
            for round_ in played
            for player in players
        )
        current = round_reveal_top(round_=round_add(session=room))  # drawn, played, revealed
        assert current.number == len(game), current.number
        rooms.append((room, current, players))
    build_seconds = time.perf_counter() - started

    jobs = [(room.pk, current.number, player.pk, rng.randint(0, current.top_score)) for room, current, players in rooms
            for player in players]  # fmt: skip
    rng.shuffle(jobs)  # every room's arbiter at once: the entries interleave
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def submit(job):
        session_pk, number, player_pk, score = job
        body = json.dumps({"scores": [{"player": player_pk, "score": score}]}).encode()
        url = f"{base}/api/duplicate/sessions/{session_pk}/rounds/{number}/scores"
        status, _seconds, _body, _headers = _request(url, data=body, method="PUT", headers=headers)
        return status

    outcomes, wall = _paced(submit, jobs, SIMULTANE_RATE)
    latencies = [seconds for _status, seconds in outcomes]
    sent = {(session_pk, player_pk): score for session_pk, _number, player_pk, score in jobs}
    stored = Result.objects.filter(round__in=[current for _room, current, _players in rooms])
    rows = list(stored.values_list("round__session", "player", "score"))
    kept = {(session_pk, player_pk): score for session_pk, player_pk, score in rows}
    entries = {
        "sent": len(jobs),
        "rate": len(jobs) / wall,
        "p50": _ms(_percentile(latencies, 0.5)),
        "p95": _ms(_percentile(latencies, 0.95)),
        "max": _ms(max(latencies)),
        "errors": sum(status != 200 for status, _seconds in outcomes),
        "results": len(rows),
        "lost": len(set(sent) - set(kept)),
        "doubled": len(rows) - len(kept),
        "wrong": sum(kept.get(key) != score for key, score in sent.items()),
    }

    Session.objects.filter(simultane=simultane).update(finished_at=timezone.now())  # every move counts
    combined_ranking.ranking(simultane)  # engines' caches warm, as in a running worker
    runs = []
    for _ in range(RANKING_RUNS):
        started = time.perf_counter()
        combined = combined_ranking.ranking(simultane)
        runs.append(time.perf_counter() - started)
    assert len(combined.rows) == SIMULTANE_ROOMS * SIMULTANE_PLAYERS and combined.moves == len(game)
    url = f"{base}/api/duplicate/simultanes/{simultane.pk}/ranking"
    api = []
    for _ in range(RANKING_RUNS):
        status, seconds, _body, _headers = _request(url, headers={"Authorization": f"Bearer {token}"})
        assert status == 200, status
        api.append(seconds)
    return {
        "build_seconds": build_seconds,
        "entries": entries,
        "ranking": {"median": _ms(statistics.median(runs)), "max": _ms(max(runs)), "moves": combined.moves},
        "api": {"median": _ms(statistics.median(api)), "max": _ms(max(api))},
    }


def _simultane_report(f) -> dict:
    sim = f["simultane"]
    entries, ranking, api = sim["entries"], sim["ranking"], sim["api"]
    clean = entries["results"] == entries["sent"] and not (entries["lost"] or entries["doubled"] or entries["wrong"])
    players = SIMULTANE_ROOMS * SIMULTANE_PLAYERS
    return {
        f"simultané, {SIMULTANE_ROOMS} rooms x {SIMULTANE_PLAYERS} players entering a move (API, interleaved, "
        f"{SIMULTANE_RATE}/s offered, open loop)": f"{entries['rate']:.0f} entries/s achieved; p50 {entries['p50']} "
        f"ms, p95 {entries['p95']} ms, max {entries['max']} ms from each one's due time (target p95 < "
        f"{TARGET_P95_MS} ms: {verdict(entries['p95'] < TARGET_P95_MS)}); {entries['errors']} errors",
        "simultané, results in database": f"{entries['results']} of {entries['sent']}, {entries['lost']} lost, "
        f"{entries['doubled']} doubled, {entries['wrong']} wrong (target none lost: {verdict(clean)})",
        f"simultané, combined ranking of {players:,} players x {ranking['moves']} moves": f"median "
        f"{ranking['median']} ms, max {ranking['max']} ms over {RANKING_RUNS} runs (target < "
        f"{TARGET_SIMULTANE_RANKING_MS} ms: {verdict(ranking['median'] < TARGET_SIMULTANE_RANKING_MS)}); through "
        f"GET /api/duplicate/simultanes/{{id}}/ranking median {api['median']} ms, max {api['max']} ms; "
        f"built in {sim['build_seconds']:.1f} s",
    }


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1:] or PARTS)))
