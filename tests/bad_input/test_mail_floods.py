"""The same mail asked for again and again is bad input too (issue 23): each form that mails, sent past the mail
rates, must answer a 4xx with a French message, change nothing and send nothing, as any refused value does."""

import pytest
from django.core import mail
from django.urls import reverse

from .test_pages import ENDPOINTS, _client_for, _problems, _send

pytestmark = pytest.mark.django_db

# Each form that mails: the ones with an address. The profile's mails only a new one (its own is not).
MAILING = sorted(name for name, endpoint in ENDPOINTS.items() if any("email" in form.fields for form in endpoint.forms))
CHANGED = {"profile": {"email": "alice.nouvelle@example.org"}}


@pytest.mark.parametrize("name", MAILING)
def test_a_form_that_mails_refuses_past_the_rates(name, world, owner_client, isolated, settings):
    settings.NINJA_DEFAULT_THROTTLE_RATES = {
        **settings.NINJA_DEFAULT_THROTTLE_RATES,
        "visitor_mail": "1/hour",
        "member_mail": "1/hour",
        "recipient_mail": "1/hour",
    }
    endpoint = ENDPOINTS[name]
    [form] = endpoint.forms
    client = _client_for(endpoint, owner_client)
    url = reverse(name)
    data = {**form.data(world), **CHANGED.get(name, {})}
    assert _send(client, url, form, data).status_code == 302
    sent = len(mail.outbox)

    # Again, with another name: a refused profile must not save it either.
    again = {**data, "first_name": "Alicia"} if "first_name" in data else data
    response, changed, beyond = isolated(lambda: _send(client, url, form, again))

    assert _problems(response, changed, must_refuse=True, beyond=beyond) == ""
    assert response.status_code == 429
    assert len(mail.outbox) == sent
