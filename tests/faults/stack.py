"""The site as a club runs it, with parts to cut: PostgreSQL (a database of its own), a Redis of its own (broker and
shared cache) that can be stopped and started again, gunicorn in production mode, and a Celery worker (prefork, one
process) that can be killed. Every HTTP request goes through `Stack.request`, which times it and keeps its status."""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import requests

from tests.conftest import PASSWORD

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
DATABASE = "clubsite_ci_faults"
ADMIN_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
DSN = f"host=127.0.0.1 port=5432 user=postgres dbname={DATABASE}"
# Short enough to be seen within a test: a job that has not moved for this long is marked failed; a task whose
# worker vanished goes back to the queue after the visibility timeout (at Redis's next sweep, every 2 s here).
STUCK_SECONDS = 12
VISIBILITY_SECONDS = 4


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(check, timeout, what, interval=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(interval)
    raise AssertionError(f"{what}: not within {timeout} s")


@dataclass
class Answer:
    method: str
    path: str
    status: int
    seconds: float


@dataclass
class Stack:
    logs: Path
    redis_port: int = field(default_factory=free_port)
    web_port: int = field(default_factory=free_port)
    answers: list[Answer] = field(default_factory=list)
    processes: dict = field(default_factory=dict)
    worker_logs: list[Path] = field(default_factory=list)
    cookies: dict = field(default_factory=dict)
    ids: dict = field(default_factory=dict)

    @property
    def env(self) -> dict:
        redis = f"redis://127.0.0.1:{self.redis_port}"
        return os.environ | {
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
            "CELERY_BROKER_URL": f"{redis}/0",
            "DJANGO_CACHE_URL": f"{redis}/1",
            "DJANGO_SECRET_KEY": "faults-" + "x" * 50,
            "DJANGO_DEBUG": "0",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_EXPORT_STUCK_SECONDS": str(STUCK_SECONDS),
            "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_SECONDS),
            "CELERY_UNACKED_RESTORE_SECONDS": "2",
            "DJANGO_RATE_API_VISITOR": "100000/min",
            "DJANGO_RATE_API_MEMBER": "100000/min",
        }

    # Parts

    def start(self):
        with psycopg.connect(ADMIN_DSN, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
            admin.execute(f"CREATE DATABASE {DATABASE}")
        self.run("manage.py", "migrate", "--noinput")
        self.run("manage.py", "collectstatic", "--noinput", "-v", "0")  # production mode serves the manifest's names
        self.ids = json.loads(self.run("-m", "tests.faults.seed"))
        self.redis_start()
        self.spawn(
            "web",
            [VENV_BIN / "gunicorn", "clubsite.wsgi", "-w", "2", "-b", f"127.0.0.1:{self.web_port}", "--timeout", "30"],
        )
        wait_until(self._web_answers, 30, "gunicorn answering")
        self.worker_start()
        self.log_in()

    def stop(self):
        for name in list(self.processes):
            self.kill(name, signal.SIGTERM)
        with psycopg.connect(ADMIN_DSN, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")

    def run(self, *args) -> str:
        done = subprocess.run(
            [sys.executable, *map(str, args)], cwd=ROOT, env=self.env, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def spawn(self, name, command, log=None):
        log = log or self.logs / f"{name}.log"
        with open(log, "ab") as out:
            self.processes[name] = subprocess.Popen(
                [str(part) for part in command],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: killed with its children
            )
        return self.processes[name]

    def kill(self, name, sig=signal.SIGKILL):
        process = self.processes.pop(name)
        if process.poll() is None:
            os.killpg(process.pid, sig)
        process.wait(timeout=30)

    def redis_start(self):
        command = ["redis-server", "--port", self.redis_port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.spawn("redis", command)
        wait_until(self._redis_answers, 10, "Redis answering")

    def redis_stop(self):
        self.kill("redis", signal.SIGTERM)

    def _redis_answers(self):
        try:
            with socket.create_connection(("127.0.0.1", self.redis_port), timeout=0.5) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def _web_answers(self):
        try:
            return requests.get(f"http://127.0.0.1:{self.web_port}/", timeout=2).status_code == 200
        except requests.RequestException:
            return False

    def worker_start(self):
        log = self.logs / f"worker-{len(self.worker_logs) + 1}.log"
        self.worker_logs.append(log)
        command = [VENV_BIN / "celery", "-A", "clubsite", "worker", "--pool=prefork", "--concurrency=1"]
        command += ["-n", f"faults-{len(self.worker_logs)}@%h", "--loglevel=INFO", "--without-gossip"]
        command += ["--without-mingle", "--without-heartbeat"]
        self.spawn("worker", command, log)
        wait_until(lambda: " ready." in log.read_text(errors="replace"), 60, "the worker ready")

    def worker_child(self) -> int:
        """The pool process that runs the tasks (the worker's only child)."""
        parent = self.processes["worker"].pid
        found = subprocess.run(["pgrep", "-P", str(parent)], capture_output=True, text=True, check=False).stdout
        (child,) = [int(pid) for pid in found.split()]
        return child

    def worker_log(self) -> str:
        return "".join(log.read_text(errors="replace") for log in self.worker_logs)

    def received(self, task_id: str) -> int:
        return len(re.findall(rf"Task duplicate\.tasks\.export_session\[{task_id}\] received", self.worker_log()))

    # The database, read directly

    def query(self, sql, *params):
        with psycopg.connect(DSN, autocommit=True) as connection:
            return connection.execute(sql, params).fetchall()

    def job(self, pk) -> tuple[str, int, str]:
        ((status, progress, error),) = self.query(
            "SELECT status, progress, error FROM duplicate_exportjob WHERE id = %s", pk
        )
        return status, progress, error

    def jobs_under_way(self) -> int:
        return self.query("SELECT count(*) FROM duplicate_exportjob WHERE status IN ('pending', 'running')")[0][0]

    def terminate_connections(self) -> int:
        """Cut every connection to the site's database but this one, as a PostgreSQL restart or failover does."""
        rows = self.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            DATABASE,
        )
        return len(rows)

    # HTTP, as a browser does (cookies kept by hand: they are Secure, and this is plain HTTP behind no proxy)

    def request(self, method, path, *, timeout=10, **kwargs) -> requests.Response:
        headers = kwargs.pop("headers", {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        if method != "GET" and "csrftoken" in self.cookies:
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
        started = time.monotonic()
        response = requests.request(
            method,
            f"http://127.0.0.1:{self.web_port}{path}",
            headers=headers,
            allow_redirects=False,
            timeout=timeout,
            **kwargs,
        )
        self.answers.append(Answer(method, path, response.status_code, time.monotonic() - started))
        for cookie in response.cookies:
            self.cookies[cookie.name] = cookie.value
        return response

    def log_in(self):
        self.request("GET", "/compte/connexion/")
        data = {
            "username": "arbitre",
            "password": PASSWORD,
            "csrfmiddlewaretoken": self.cookies["csrftoken"],
        }
        response = self.request("POST", "/compte/connexion/", data=data)
        assert response.status_code == 302, response.text[:500]

    def api(self, method, path, body=None, **kwargs) -> requests.Response:
        headers = {"Authorization": f"Bearer {self.ids['token']}"}
        return self.request(method, path, json=body, headers=headers, **kwargs)


def new_stack(logs: Path) -> Stack:
    stack = Stack(logs=logs)
    stack.start()
    return stack
