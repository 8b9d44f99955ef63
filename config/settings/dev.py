"""Development: debug on, console e-mail, services started by ``make run``."""

from .base import *  # noqa: F403
from .base import env_bool

DEBUG = env_bool("DEBUG", True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# whitenoise serves from the finders here; nothing is collected
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True

# A mistyped URL shows the project's 404 page, as in production; errors keep
# Django's debug page with the traceback (config/devpages.py).
MIDDLEWARE = [*MIDDLEWARE, "config.devpages.ProjectNotFoundPageMiddleware"]  # noqa: F405

# A local LMS on http://127.0.0.1 may register the LTI tool (docs/lti.md).
LTI_ALLOW_HTTP_LOOPBACK = True
