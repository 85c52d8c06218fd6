"""The Content-Security-Policy in Chromium (issue 12): pages that run other people's code (the admin, the API's
docs) work under it too, and a violation is caught: conftest's watcher fails any browser test that has one."""

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD, make_member

from . import conftest
from .conftest import count_ecoles

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_a_violation_is_caught(page):
    """An inline script on a page served under the site's policy: Chromium refuses it and the watcher sees it."""
    page.goto("/")
    policy = page.evaluate("() => fetch('/').then((r) => r.headers.get('Content-Security-Policy'))")
    page.route(
        "**/probe",
        lambda route: route.fulfill(
            content_type="text/html", headers={"Content-Security-Policy": policy}, body="<script>1</script>"
        ),
    )
    page.goto("/probe")
    for _ in range(50):  # the console message comes a moment after the page
        if conftest.csp_violations:
            break
        page.wait_for_timeout(100)
    assert conftest.csp_violations == [
        f"{page.url}: Executing inline script violates the following Content Security Policy directive "
        "'script-src 'self''. Either the 'unsafe-inline' keyword, a hash "
        "('sha256-a4ayc/80/OGda4BO/1o/V0etpOqiLx1JwB5S3beHW0s='), or a nonce ('nonce-...') is required to enable "
        "inline execution. The action has been blocked."
    ]
    conftest.csp_violations.clear()


def test_the_counter_sends_a_tiles_setting_without_eval(page):
    """The counter's form was sent on a tile's change by an htmx filter, which evaluates code."""
    count_ecoles(page)


def test_the_admin_and_the_api_docs_work_under_the_policy(page):
    make_member("root", is_staff=True, is_superuser=True)  # the site's administrator
    page.goto("/admin/")
    page.fill("#id_username", "root")
    page.fill("#id_password", PASSWORD)
    page.locator("input[type=submit]").click()
    expect(page.locator("#site-name")).to_be_visible()
    page.goto("/admin/clubsite/club/add/")
    page.locator("#id_name").press_sequentially("Club de Lyon")
    expect(page.locator("#id_slug")).to_have_value("club-de-lyon")  # the admin's own script runs
    page.goto("/api/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Clubsite API")
