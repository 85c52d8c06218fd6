"""Settings for the club site, read from environment variables only (README.md lists them).

With no variable set, the site runs for local development: DEBUG on, SQLite in db.sqlite3, Celery tasks
run eagerly in-process, mail printed to the console.
"""

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from clubsite.env import database_from_url, env_bool, env_int, env_list, env_redis_url, env_str

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

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
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
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
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
            ],
        },
    },
]

DATABASES = {"default": database_from_url(env_str("DATABASE_URL", "sqlite:///db.sqlite3"), base_dir=BASE_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

cache_url = env_redis_url("DJANGO_CACHE_URL")
if cache_url:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": cache_url}}
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
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
if not DEBUG and not SECURE_SSL_REDIRECT:
    # Turned off on purpose: the proxy in front of the site redirects plain HTTP itself.
    SILENCED_SYSTEM_CHECKS = ["security.W008"]

# Development prints mail to the console; a deployment sends it through SMTP unless it picks a backend.
console_backend = "django.core.mail.backends.console.EmailBackend"
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

# Duplicate exports: a session with more players than this is exported by a worker, whose files (kept in the
# database) and jobs are deleted by the periodic task `duplicate.tasks.export_purge` once this many hours old.
DUPLICATE_EXPORT_INLINE_MAX_PLAYERS = 200
DUPLICATE_EXPORT_RETENTION_HOURS = env_int("DJANGO_EXPORT_RETENTION_HOURS", 24)
# A job still waiting or running this long after it was asked for is taken as stuck (its worker died).
DUPLICATE_EXPORT_STUCK_MINUTES = 10
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
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "profile"
LOGOUT_REDIRECT_URL = "counter"
