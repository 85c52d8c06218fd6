import os

import pytest
from celery.result import EagerResult

from clubsite.tasks import ping

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.skipif(
        not os.environ.get("CELERY_BROKER_URL"),
        reason="needs CELERY_BROKER_URL and a running worker (.ci/run starts both)",
    ),
]


def test_ping_goes_through_the_worker():
    result = ping.delay(41)

    assert not isinstance(result, EagerResult)
    assert result.get(timeout=20) == 42
