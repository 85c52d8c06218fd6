"""Settings for the club site, read from environment variables only (README.md lists them).

With no variable set, the site runs for local development: DEBUG on, SQLite in db.sqlite3, Celery tasks
run eagerly in-process, mail printed to the console.
"""

from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from clubsite.env import (
    database_from_url,
    env_bool,
    env_float,
    env_int,
    env_list,
    env_rate,
    env_redis_url,
    env_str,
)

BASE_DIR = Path(__file__).resolve().parent.parent

# No secret key means a developer's machine, so DEBUG defaults to on; a deployment that sets the key gets
# DEBUG off unless it asks otherwise.
SECRET_KEY = env_str("DJANGO_SECRET_KEY")
DEBUG = env_bool("DJANGO_DEBUG", default=not SECRET_KEY)
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
    SECRET_KEY = "django-insecure-local-development-only"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
# A form refused by the CSRF check answers the site's own French page (clubsite.views.errors.csrf_failure).
CSRF_FAILURE_VIEW = "clubsite.views.errors.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "axes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles so runserver serves static files through WhiteNoise, as production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "ninja",
    "clubsite",
    "scoring",
    "sheets",
    "duplicate",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Inside the locale's (its messages are French) and around the middleware that may refuse a request.
    "clubsite.middleware.ApiErrorsMiddleware",
    "clubsite.middleware.MethodNotAllowedPageMiddleware",
    "clubsite.middleware.DatabaseUnavailableMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out log-in into the page that says so.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "clubsite.urls"
WSGI_APPLICATION = "clubsite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "clubsite.context_processors.invitations",
                "sheets.context_processors.below_counter",
            ],
        },
    },
]

# A statement waiting for a lock longer than this fails (a 503 that says to try again) instead of holding every
# page behind it; one running longer than the second figure is stopped. PostgreSQL only; 0 lifts a limit (for a
# `migrate` that must wait for a busy table: DJANGO_DB_LOCK_TIMEOUT_MS=0 manage.py migrate).
DATABASE_WAIT_LIMITS = (env_int("DJANGO_DB_LOCK_TIMEOUT_MS", 2000), env_int("DJANGO_DB_STATEMENT_TIMEOUT_MS", 20000))
DATABASES = {
    "default": database_from_url(
        env_str("DATABASE_URL", "sqlite:///db.sqlite3"), base_dir=BASE_DIR, wait_limits=DATABASE_WAIT_LIMITS
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

cache_url = env_redis_url("DJANGO_CACHE_URL")
if cache_url:
    # Failing open (clubsite/cache.py): with Redis down the site serves without its cache, after at most these
    # timeouts (seconds), and logs it.
    CACHES = {
        "default": {
            "BACKEND": "clubsite.cache.FailOpenRedisCache",
            "LOCATION": cache_url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    # Shared by every web process and worker through the database, as the counts of a rate limit must be; a
    # federation's deployment sets DJANGO_CACHE_URL to its Redis. The table comes from `createcachetable`.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "clubsite_cache"}}

# Sessions live in the database so that any gunicorn worker can serve any request.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The interface is written in English in the code and shown in French through gettext.
LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", "Français")]
USE_I18N = True
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Paris"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Hashed, compressed files need `collectstatic`; development and tests use the plain storage instead.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# The API only accepts small JSON bodies.
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024

# What anyone, without an account, may make the server compute. A search (the top finder, the word finder: the API
# and the pages) stops after this many seconds and says that its list is partial.
SEARCH_TIME_LIMIT = env_float("DJANGO_SEARCH_TIME_LIMIT", 3.0)
# Requests per client, counted by django-ninja's throttles in the default cache, which every process shares: a
# visitor by address, a member by account. "api" is the scoring API (/api/score), "search" the searches above.
# "mail" is every action that sends a mail (a sign-up, a forgotten password, a new address), counted by who asks
# and by the address mailed, whoever asks (clubsite/mail_limits.py): ten an hour from one address lets a club's
# members sign up together on its Wi-Fi, five an hour lets a member retype a new address he got wrong, three an
# hour to one mailbox lets its owner ask twice more for a mail slow to come, and nobody flood it.
# "draw" is each search of a duplicate draw's tops (the console, the API, an automatic game's "Coup suivant" on the
# player's page, which a visitor holding its link may press): a move takes a minute at the quickest, and thirty a
# minute leave room for a paper game of 25 moves entered in one go, or an automatic game played at a move every two
# seconds, while one client can keep at most a core and a half busy (each search stops at SEARCH_TIME_LIMIT).
# "sheet_copy" is a game copied from the sheet kept in the browser into an account (POST /api/sheets/local-games,
# members only): one a game played, sixty an hour for a member copying a whole evening's games and trying again.
# "club_invitation" is each form sent by a club's admin to invite someone to the club, a name refused included (so
# that the form tries no names quickly): sixty an hour, one a minute, lets an admin invite a whole club one by one.
# "invitation" is each action of a member that invites others to a seat (a new game or a game again naming members,
# a game file naming them, players pasted or a session again with members, by a page or the API): one action
# however many it names, so that an arbiter seats 200 players by @name in one paste, and thirty an hour, one every
# two minutes, for an evening's games, while one account fills nobody's account page (clubsite/invitations.py).
_CLUB_INVITATION_RATE = env_rate("DJANGO_RATE_CLUB_INVITATION_MEMBER", "60/hour")
_INVITATION_RATE = env_rate("DJANGO_RATE_INVITATION_MEMBER", "30/hour")
# "import" is a GCG file sent to "Importer un fichier GCG" (members only), each of its up to 400 moves re-scored:
# sixty an hour for a member bringing in a season's records one after the other.
# The three are members' actions: a visitor invites and imports nothing, and `throttling.refusal` reads his rate,
# the member's figure.
_IMPORT_RATE = env_rate("DJANGO_RATE_IMPORT_MEMBER", "60/hour")
NINJA_DEFAULT_THROTTLE_RATES = {
    "visitor_api": env_rate("DJANGO_RATE_API_VISITOR", "60/min"),
    "member_api": env_rate("DJANGO_RATE_API_MEMBER", "600/min"),
    "visitor_search": env_rate("DJANGO_RATE_SEARCH_VISITOR", "10/min"),
    "member_search": env_rate("DJANGO_RATE_SEARCH_MEMBER", "60/min"),
    "visitor_draw": env_rate("DJANGO_RATE_DRAW_VISITOR", "30/min"),
    "member_draw": env_rate("DJANGO_RATE_DRAW_MEMBER", "30/min"),
    "member_sheet_copy": env_rate("DJANGO_RATE_SHEET_COPY_MEMBER", "60/hour"),
    "visitor_mail": env_rate("DJANGO_RATE_MAIL_VISITOR", "10/hour"),
    "member_mail": env_rate("DJANGO_RATE_MAIL_MEMBER", "5/hour"),
    "recipient_mail": env_rate("DJANGO_RATE_MAIL_RECIPIENT", "3/hour"),
    "visitor_club_invitation": _CLUB_INVITATION_RATE,
    "member_club_invitation": _CLUB_INVITATION_RATE,
    "visitor_invitation": _INVITATION_RATE,
    "member_invitation": _INVITATION_RATE,
    "visitor_import": _IMPORT_RATE,
    "member_import": _IMPORT_RATE,
}
# A visitor's address, for the rate limits as for the log-in lockout: see TRUSTED_PROXIES below.
CLIENT_IP_CALLABLE = "clubsite.client_ip.client_ip"

# HTTPS hardening, on whenever DEBUG is off.
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", default=not DEBUG)
if env_bool("DJANGO_SECURE_PROXY_SSL_HEADER", default=False):
    # Only behind a proxy that terminates TLS and always sets this header: otherwise clients could forge it.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", default=0 if DEBUG else 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy: our own files only. No inline script, event handler or style attribute, no eval (htmx
# is told so in base.html's htmx-config); images also as data: URIs, which the API docs' stylesheet uses.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    # The service worker that keeps the counter for a visit without the network (clubsite/views/offline.py).
    "worker-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
if not DEBUG and not SECURE_SSL_REDIRECT:
    # Turned off on purpose: the proxy in front of the site redirects plain HTTP itself.
    SILENCED_SYSTEM_CHECKS = ["security.W008"]

# Development prints mail to the console; a deployment sends it through SMTP unless it picks a backend.
# Printed as its reader sees it (clubsite/console_mail.py): a link copied from the terminal works.
console_backend = "clubsite.console_mail.EmailBackend"
smtp_backend = "django.core.mail.backends.smtp.EmailBackend"
email_backend = env_str("DJANGO_EMAIL_BACKEND", console_backend if DEBUG else smtp_backend)
MAILERS = {"default": {"BACKEND": email_backend}}
if email_backend == smtp_backend:
    MAILERS["default"]["OPTIONS"] = {
        "host": env_str("DJANGO_EMAIL_HOST", "localhost"),
        "port": env_int("DJANGO_EMAIL_PORT", 25),
        "username": env_str("DJANGO_EMAIL_USER"),
        "password": env_str("DJANGO_EMAIL_PASSWORD"),
        "use_tls": env_bool("DJANGO_EMAIL_USE_TLS", default=False),
    }
DEFAULT_FROM_EMAIL = env_str("DJANGO_DEFAULT_FROM_EMAIL", "webmaster@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Without a broker, tasks run in-process at .delay(), so `make run` and the tests need no Redis.
broker_url = env_redis_url("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = not broker_url
# Eager tasks never reach a broker; naming an in-memory one stops Celery from looking for RabbitMQ
# (the host name only silences a kombu warning).
CELERY_BROKER_URL = broker_url or "memory://localhost"
CELERY_RESULT_BACKEND = broker_url or None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
# Queuing a task never holds a request for long (clubsite/queue.py): a broker that does not answer is given up
# after one retry, within two seconds, and the page says so. The tasks keep no result (their work is in the
# database), so sending one never touches the result store; a task whose caller waits says so itself.
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0.2, "interval_step": 0, "interval_max": 0.2}
CELERY_TASK_IGNORE_RESULT = True
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1
CELERY_REDIS_SOCKET_TIMEOUT = 5
# A task is acknowledged once it has finished, and given back to the queue when its worker process dies: a worker
# killed mid-task (out of memory, a restart) leaves it to another. Every task is safe to run twice. A worker that
# vanishes whole cannot give it back: Redis hands it out again after the visibility timeout, which must exceed the
# longest task (a word list's index, a couple of minutes).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 1,
    "socket_timeout": 1,
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 900),
    # How often a worker looks for such tasks to give back (kombu scans every tenth look by default: 100 s).
    "unacked_restore_interval": env_int("CELERY_UNACKED_RESTORE_SECONDS", 10),
    "unacked_restore_throttle": 1,
}

# Duplicate exports: a session with more players than this is exported by a worker, whose files (kept in the
# database) and jobs are deleted by the periodic task `duplicate.tasks.export_purge` once this many hours old.
DUPLICATE_EXPORT_INLINE_MAX_PLAYERS = 200
DUPLICATE_EXPORT_RETENTION_HOURS = env_int("DJANGO_EXPORT_RETENTION_HOURS", 24)
# Up to this many players, a session's file is built within the request when no worker can be reached.
DUPLICATE_EXPORT_FALLBACK_MAX_PLAYERS = 300
# A job that has not moved (queued, started, progressed) for this long is marked failed with its reason: its
# worker is gone. Its page offers to start it again, and Celery beat marks the ones nobody looks at.
DUPLICATE_EXPORT_STUCK_SECONDS = env_int("DJANGO_EXPORT_STUCK_SECONDS", 300)
# What the room's screens show of a session (the ranking of the moves closed, the grid) is kept this long in the
# shared cache for each version of the session: every player's page reads it there instead of ranking them all.
DUPLICATE_ROOM_CACHE_SECONDS = 3600

log_level = env_str("DJANGO_LOG_LEVEL", "INFO").upper()


def client_errors_in_one_line(record) -> bool:
    """A 4xx is the visitor's doing (a 403 for a page he may not use, a 404): Django logs PermissionDenied with
    its traceback, which says nothing more than its one line. 5xx keep theirs."""
    if getattr(record, "status_code", 500) < 500:
        record.exc_info = record.exc_text = None
    return True


LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}},
    "filters": {
        "client_errors_in_one_line": {"()": "django.utils.log.CallbackFilter", "callback": client_errors_in_one_line}
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["client_errors_in_one_line"]}
    },
    "root": {"handlers": ["console"], "level": log_level},
    "loggers": {
        # Django's own default sends errors by mail and logs only with DEBUG on; always log to the console.
        "django": {"handlers": ["console"], "level": log_level, "propagate": False},
        # django-axes logs every log-in at INFO; its lockouts are WARNING, which is what a deployment wants to see.
        "axes": {"handlers": ["console"], "level": "WARNING", "propagate": False},
    },
}

# Log-in throttling (django-axes): after AXES_FAILURE_LIMIT failed log-ins for one user name from one address, that
# name is refused from that address for the cool-off time, even with the right password. By the pair, not by the
# address alone: a club's members share its Wi-Fi's address, and one member's mistakes must not lock out the
# others. Attempts are rows in the database, so every web process counts the same ones.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = env_int("DJANGO_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("DJANGO_LOGIN_LOCKOUT_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# An attempt during the lockout, even with the right password, starts the cool-off again: a script that keeps trying
# stays locked out, and the refusal's Retry-After is always a whole cool-off.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = True
AXES_LOCKOUT_CALLABLE = "clubsite.views.accounts.login_locked_out"
AXES_CLIENT_IP_CALLABLE = "clubsite.client_ip.client_ip"
AXES_USERNAME_CALLABLE = "clubsite.client_ip.login_username"
# The client's address is REMOTE_ADDR unless the site says how many proxies it trusts in front of it: only then is
# it read from CLIENT_IP_HEADER, the entry the outermost trusted proxy wrote (what a client sends itself is ignored).
# Behind a proxy that terminates TLS (DJANGO_SECURE_PROXY_SSL_HEADER), one proxy unless told otherwise.
TRUSTED_PROXIES = env_int("DJANGO_TRUSTED_PROXIES", 1 if env_bool("DJANGO_SECURE_PROXY_SSL_HEADER", False) else 0)
CLIENT_IP_HEADER = env_str("DJANGO_CLIENT_IP_HEADER", "X-Forwarded-For")
if AXES_FAILURE_LIMIT < 1 or AXES_COOLOFF_TIME.total_seconds() < 60:
    raise ImproperlyConfigured("DJANGO_LOGIN_FAILURE_LIMIT and DJANGO_LOGIN_LOCKOUT_MINUTES must be 1 or more")
if TRUSTED_PROXIES < 0:
    raise ImproperlyConfigured("DJANGO_TRUSTED_PROXIES must be 0 or more")

# A sign-up is confirmed by a link mailed to its address, valid this many days.
SIGNUP_LINK_DAYS = env_int("DJANGO_SIGNUP_LINK_DAYS", 3)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "profile"
LOGOUT_REDIRECT_URL = "counter"
