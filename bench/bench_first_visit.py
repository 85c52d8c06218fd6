"""A visitor's first counted move on a phone (issue 25): the counter at `/` served as in production (gunicorn, DEBUG
off, collectstatic's files), opened by Chromium at 390×844 with the network throttled to DevTools' "Slow 3G"
(2,000 ms of latency, 50 KB/s each way), then ÉCOLES typed and its 8 points read on the page.

Targets (printed against their figures, never asserted):
  1. the counter usable within 2 s: from the navigation's start to the first counted move's score shown, the
     typing itself excluded (the page's own time: its HTML, styles and scripts over that network);
  2. what a first visit downloads (every response's bytes on the wire), and none of it the word list: it is
     downloaded only once « Vérifier les mots » is ticked;
  3. no request while the move is typed and counted (what the visitor types stays in his browser).
A second visit (the browser's cache, and its service worker where the site has one) is measured beside it.

main() makes a throwaway database, migrates it, runs collectstatic into a temporary directory
(bench/_stack_settings.py), starts one gunicorn worker, drives Chromium (Debian's /usr/bin/chromium, through
Playwright), and stops and drops everything in a `finally`. Without Chromium it says so and measures nothing.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import verdict
from bench.bench_duplicate import ROOT, _admin, _free_port, _start_gunicorn, _stop, _wait_ready, stack_environment

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Chromium DevTools' "Slow 3G" preset: 500 kbit/s × 0.8 each way, 400 ms × 5 of latency.
SLOW_3G = {"offline": False, "latency": 2000, "downloadThroughput": 50_000, "uploadThroughput": 50_000}
PHONE = {"width": 390, "height": 844}

TARGET_USABLE_SECONDS = 2.0


def main() -> dict:
    if not Path(CHROMIUM).exists():
        return {"first visit": f"not measured: no Chromium at {CHROMIUM} (apt-get install -y chromium)"}
    database = f"clubsite_bench_visit_{os.getpid()}"
    scratch = Path(tempfile.mkdtemp(prefix="clubsite_bench_visit_"))
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, **stack_environment(scratch, database)}
    for name in ("DJANGO_CACHE_URL", "CELERY_BROKER_URL"):
        env.pop(name, None)
    server = None
    try:
        _admin(f'CREATE DATABASE "{database}"')
        for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)
        log = scratch / "gunicorn.log"
        server = _start_gunicorn(1, port, env, log)
        _wait_ready(base, server, log)
        return _report(_visits(base))
    finally:
        if server is not None:
            _stop(server)
        _admin(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        shutil.rmtree(scratch, ignore_errors=True)


def _visits(base: str) -> dict:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(base_url=base, viewport=PHONE, is_mobile=True, has_touch=True)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", SLOW_3G)
            wire = {"bytes": 0, "urls": []}

            def finished(event):
                wire["bytes"] += event.get("encodedDataLength", 0)

            cdp.on("Network.loadingFinished", finished)
            page.on("request", lambda request: wire["urls"].append(request.url))
            first = _visit(page, wire)
            first_bytes, first_urls = wire["bytes"], list(wire["urls"])
            wire.update(bytes=0, urls=[])
            second = _visit(page, wire)
            return {
                "first": first,
                "first_bytes": first_bytes,
                "first_requests": len(first_urls),
                "first_urls": first_urls,
                "word_list_fetched": any("mots" in url and url.endswith(".gz") for url in first_urls),
                "second": second,
                "second_bytes": wire["bytes"],
            }
        finally:
            browser.close()


def _visit(page, wire) -> dict:
    """Open the counter, type ÉCOLES as its first word and read its 8 points: the seconds until the page was ready
    to type in, and the requests made while typing."""
    started = time.perf_counter()
    page.goto("/", wait_until="domcontentloaded")  # the deferred scripts have run: the counter counts
    word = page.locator("#w0")
    word.wait_for(state="visible")
    ready = time.perf_counter() - started
    before = len(wire["urls"])
    word.fill("ÉCOLES")
    page.locator("#result .total").filter(has_text="Total : 8 points").wait_for()
    return {"usable_seconds": ready, "requests_while_typing": len(wire["urls"]) - before}


def _report(f: dict) -> dict:
    first, second = f["first"], f["second"]
    usable = first["usable_seconds"]
    typed = first["requests_while_typing"] + second["requests_while_typing"]
    return {
        "first visit on Slow 3G, counter usable": f"{usable:.2f} s (target ≤ {TARGET_USABLE_SECONDS:g} s: "
        f"{verdict(usable <= TARGET_USABLE_SECONDS)})",
        "first visit downloads": f"{f['first_bytes'] / 1024:.0f} KB in {f['first_requests']} requests, word list "
        f"{'fetched (MISSED: only once checked)' if f['word_list_fetched'] else 'not fetched (met)'}",
        "requests while a move is typed and counted": f"{typed} (target 0: {verdict(typed == 0)})",
        "second visit, counter usable": f"{second['usable_seconds']:.2f} s, {f['second_bytes'] / 1024:.0f} KB",
    }


if __name__ == "__main__":
    for figure, value in main().items():
        print(f"  {figure}: {value}")
