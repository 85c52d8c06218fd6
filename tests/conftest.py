import pytest
from django.test import override_settings


@pytest.fixture(autouse=True, scope="session")
def _static_files_without_collectstatic():
    """Find static files in the apps and static/, as runserver does, even when DJANGO_DEBUG is off."""
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=storages, WHITENOISE_AUTOREFRESH=True, WHITENOISE_USE_FINDERS=True):
        yield


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Tests create many users: a fast hasher keeps the suite quick (production keeps Django's default)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
