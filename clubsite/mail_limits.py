"""How many mails anyone may make the site send. Each action that mails (a sign-up, a forgotten password, a new
address) is counted twice in the shared cache, at the rates of settings.NINJA_DEFAULT_THROTTLE_RATES: by who asks
(`visitor_mail` by address, `member_mail` by account), so that nobody makes the club's server mail strangers, and
by the address mailed (`recipient_mail`), whoever asks, so that nobody floods a mailbox from many addresses.

An address is counted whether an account uses it or not: its refusal tells nothing of who has an account.
"""

import hashlib

from ninja.throttling import SimpleRateThrottle

from .throttling import RateFromSettings, Refusal, refused, throttles


class RecipientThrottle(RateFromSettings, SimpleRateThrottle):
    """The mails to one address, in any capitals; the cache keeps a digest of it, not the address."""

    def __init__(self, scope: str, recipient: str):
        self.recipient = recipient
        super().__init__(scope)

    def get_cache_key(self, request):
        digest = hashlib.sha256(self.recipient.strip().casefold().encode()).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": digest}


def mail_refusal(request, form, recipient: str) -> Refusal | None:
    """Count the mail that `form`, valid, is about to send to `recipient`: None while within the rates, else the
    refusal, also said on the form, which then no longer validates (nothing is saved, nothing sent). Who asks is
    counted first: past his own rate, he uses up nothing of the mailbox's."""
    refusal = refused(request, [*throttles("mail"), RecipientThrottle("recipient_mail", recipient)])
    if refusal is not None:
        form.add_error(None, str(refusal))
    return refusal
