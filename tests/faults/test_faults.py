"""Issue 13: the parts of a club's server fail one at a time, against the real services (run by .ci/run): Redis
stopped and started again around exports, the worker killed in the middle of one, every database connection cut
during 300 score writes. Whatever fails, no request takes over 3 s, none answers 500, no export job stays waiting
or running, and every score sent is either saved or reported unsaved (503), never lost silently."""

import os
import re
import shutil
import signal
import threading
import time
from html import unescape

import psycopg
import pytest

from .stack import DSN, STUCK_SECONDS, new_stack, wait_until

pytestmark = [
    pytest.mark.faults,
    pytest.mark.skipif(
        not os.environ.get("CLUBSITE_FAULT_TESTS") or not shutil.which("redis-server"),
        reason="cuts real services: needs PostgreSQL on 127.0.0.1:5432, redis-server, CLUBSITE_FAULT_TESTS=1 "
        "(.ci/run sets it)",
    ),
]

MAX_SECONDS = 3
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    logs = tmp_path_factory.mktemp("faults")
    stack = new_stack(logs)
    yield stack
    stack.stop()
    slowest = max(stack.answers, key=lambda answer: answer.seconds)
    print(f"{len(stack.answers)} requests, slowest {slowest.seconds:.2f} s ({slowest.method} {slowest.path})")
    slow = [answer for answer in stack.answers if answer.seconds > MAX_SECONDS]
    errors = [answer for answer in stack.answers if answer.status >= 500 and answer.status != 503]
    assert slow == [] and errors == [], (slow, errors)


@pytest.fixture(autouse=True)
def every_answer_in_time(stack):
    """Each test's requests: none over 3 s, none a 500 (503 is the answer that says "try again")."""
    first = len(stack.answers)
    yield
    answers = stack.answers[first:]
    assert answers
    assert [a for a in answers if a.seconds > MAX_SECONDS] == []
    assert [a for a in answers if a.status >= 500 and a.status != 503] == []
    assert stack.jobs_under_way() == 0 or stack.processes.get("worker")  # nothing waits for a worker never coming


def export(stack, session, kind="xlsx"):
    return stack.request("POST", f"/duplicate/{stack.ids[session]}/export/{kind}/")


def job_of(response) -> int:
    assert response.status_code == 302, response.text[:300]
    return int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])


def tasks_received(stack) -> set[str]:
    return set(re.findall(r"Task duplicate\.tasks\.export_session\[([0-9a-f-]+)\] received", stack.worker_log()))


def task_after(stack, before: set[str]) -> str:
    """The id of the export task the worker received after `before` (one export at a time in these tests)."""
    (task,) = wait_until(lambda: tasks_received(stack) - before, 20, "the worker receiving the export")
    return task


def results_changed(stack, session):
    """A score changed on the session's last move: its next export is a new file, built by a new job."""
    ((round_number, player, score),) = stack.query(
        "SELECT r.number, p.id, coalesce(res.score, 0) FROM duplicate_round r JOIN duplicate_player p "
        "ON p.session_id = r.session_id LEFT JOIN duplicate_result res ON res.round_id = r.id AND res.player_id = p.id "
        "WHERE r.session_id = %s ORDER BY r.number DESC, p.id LIMIT 1",
        stack.ids[session],
    )
    url = f"/api/duplicate/sessions/{stack.ids[session]}/rounds/{round_number}/scores"
    response = stack.api("PUT", url, {"scores": [{"player": player, "score": (score + 1) % 20}]})
    assert response.status_code == 200, response.text


def done(stack, job, timeout=60):
    wait_until(lambda: stack.job(job)[0] == "done", timeout, f"export job {job} done", interval=0.2)


def test_redis_stopped_then_started_around_exports(stack):
    stack.redis_stop()
    # A session small enough: its file is built within the request, at once.
    response = export(stack, "s250")
    assert (response.status_code, response.headers["Content-Type"]) == (200, XLSX)
    assert response.content.startswith(b"PK")
    # A larger one: the page says the exports are unavailable, and leaves no job waiting.
    response = export(stack, "s600")
    assert response.status_code == 503
    assert "Les exports sont momentanément indisponibles" in unescape(response.text)
    assert stack.jobs_under_way() == 0
    # The rest of the site keeps serving without its shared cache (the rate limits' counts live there).
    assert stack.request("GET", f"/duplicate/{stack.ids['s600']}/").status_code == 200
    score = stack.api("POST", "/api/score", {"move": "H4 MOUTONS"})
    assert (score.status_code, score.json()["score"]) == (200, 70)

    stack.redis_start()
    # Back: the web process's connections to the old Redis are dead; one retry finds the new one.
    job = job_of(export(stack, "s600"))
    done(stack, job)
    download = stack.request("GET", f"/duplicate/{stack.ids['s600']}/exports/{job}/fichier/")
    assert (download.status_code, download.content[:2]) == (200, b"PK")


def test_a_worker_process_killed_mid_export_leaves_the_task_to_the_next(stack):
    """The pool's process dies (out of memory, killed): its task goes back to the queue at once (acks_late,
    reject_on_worker_lost) and the worker's next process builds the file."""
    before = tasks_received(stack)
    job = job_of(export(stack, "s2000"))
    task = task_after(stack, before)
    wait_until(lambda: stack.job(job)[0] == "running", 20, "the export running")
    os.kill(stack.worker_child(), signal.SIGKILL)
    done(stack, job)
    # Killed while running, then given back at once; once more when a run outlasts the stack's 4 s visibility
    # timeout (a slow machine: seen in CI), which the export, safe to run twice, takes as it comes.
    assert stack.received(task) >= 2
    assert "WorkerLostError" in stack.worker_log()


def test_with_no_worker_a_job_that_does_not_move_is_marked_failed_and_offered_again(stack):
    """Every worker is gone (the machine restarted, kill -9) while an export is asked for: the job that never
    moves is marked failed with its reason on its page, which offers to start it again; once a worker is back,
    the task still queued runs (safe to run twice) and the file is there."""
    stack.kill("worker")
    results_changed(stack, "s2000")
    job = job_of(export(stack, "s2000"))
    page = f"/duplicate/{stack.ids['s2000']}/exports/{job}/"
    assert "En attente" in unescape(stack.request("GET", page).text)
    time.sleep(STUCK_SECONDS + 1)
    html = unescape(stack.request("GET", page).text)
    assert "L'export a échoué : la préparation s'est arrêtée sans finir" in html
    assert "Relancer la préparation (XLSX)" in html
    assert stack.job(job)[0] == "failed"

    stack.worker_start()
    done(stack, job)
    again = job_of(export(stack, "s2000"))  # "Relancer": the file just built for the same results
    assert again == job


def test_a_worker_killed_while_running_gives_its_task_back_after_the_visibility_timeout(stack):
    results_changed(stack, "s2000")
    before = tasks_received(stack)
    job = job_of(export(stack, "s2000"))
    task = task_after(stack, before)
    wait_until(lambda: stack.job(job)[0] == "running", 20, "the export running")
    stack.kill("worker")
    assert stack.job(job)[0] == "running"
    stack.worker_start()
    done(stack, job, timeout=STUCK_SECONDS)  # back in the queue before anyone marks it failed
    # Given back once at least; a second time when its run outlasts the stack's 4 s visibility timeout (a slow
    # machine), which the export, safe to run twice, takes as it comes.
    assert stack.received(task) >= 2


def test_every_database_connection_cut_during_300_score_writes(stack):
    """Six clients send a score each for 300 players while every connection to the database is cut every 50 ms.
    Each answer is 200 (saved) or 503 (not saved: try again); a 503 sent again is saved; nothing is half-written
    (each score has its line of history)."""
    session, players = stack.ids["writes"], stack.ids["players"]
    url = f"/api/duplicate/sessions/{session}/rounds/1/scores"
    expected = {player: 1 + i % 19 for i, player in enumerate(players)}
    answers = {}
    stop = threading.Event()
    cuts = []

    def cut():
        while not stop.is_set():
            cuts.append(stack.terminate_connections())
            time.sleep(0.05)

    def send(chunk):
        for player in chunk:
            response = stack.api("PUT", url, {"scores": [{"player": player, "score": expected[player]}]})
            answers[player] = response.status_code

    cutter = threading.Thread(target=cut)
    cutter.start()
    senders = [threading.Thread(target=send, args=(players[i::6],)) for i in range(6)]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join()
    stop.set()
    cutter.join()

    assert set(answers.values()) <= {200, 503}
    refused = [player for player, status in answers.items() if status == 503]
    assert refused, f"no write was cut ({sum(cuts)} connections cut): the test saw no fault"
    print(f"300 writes, {sum(cuts)} connections cut, {len(refused)} answered 503")
    saved = dict(
        stack.query(
            "SELECT player_id, score FROM duplicate_result WHERE round_id IN "
            "(SELECT id FROM duplicate_round WHERE session_id = %s)",
            session,
        )
    )
    for player, status in answers.items():
        if status == 200:
            assert saved[player] == expected[player]
    # The page sends a refused score again by itself: each is then saved.
    for player in refused:
        response = stack.api("PUT", url, {"scores": [{"player": player, "score": expected[player]}]})
        assert response.status_code == 200
    saved = dict(
        stack.query(
            "SELECT player_id, score FROM duplicate_result WHERE round_id IN "
            "(SELECT id FROM duplicate_round WHERE session_id = %s)",
            session,
        )
    )
    assert saved == expected
    histories = stack.query(
        "SELECT count(DISTINCT player_id) FROM duplicate_change WHERE session_id = %s AND field = 'score'", session
    )
    assert histories == [(300,)]


def test_a_table_locked_for_5_s_makes_writes_wait_2_s_at_most(stack):
    """Issue 13's trial: a table held by something else (here an exclusive lock for 5 s) froze every page for as
    long. A statement waits for a lock 2 s at most (lock_timeout), then answers 503: try again."""
    session, players = stack.ids["writes"], stack.ids["players"][:2]  # sent one after the other: 2 × 2 s < 5 s
    url = f"/api/duplicate/sessions/{session}/rounds/1/scores"
    locked = threading.Event()

    def hold():
        with psycopg.connect(DSN) as connection:
            connection.execute("LOCK TABLE duplicate_result IN ACCESS EXCLUSIVE MODE")
            locked.set()
            time.sleep(5)

    holder = threading.Thread(target=hold)
    holder.start()
    locked.wait(5)
    statuses = {}
    for player in players:
        statuses[player] = stack.api("PUT", url, {"scores": [{"player": player, "score": 30}]}).status_code
    holder.join()
    assert set(statuses.values()) == {503}  # each waited 2 s, then said so
    for player in players:
        assert stack.api("PUT", url, {"scores": [{"player": player, "score": 30}]}).status_code == 200
    saved = stack.query("SELECT count(*) FROM duplicate_result WHERE player_id = ANY(%s) AND score = 30", players)
    assert saved == [(2,)]
