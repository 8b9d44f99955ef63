"""The signed ``LtiDeepLinkingResponse`` (Deep Linking 2.0): one
``ltiResourceLink`` to the homework, with a ``lineItem`` for the gradebook."""

import secrets
from typing import Any

from django.conf import settings
from django.http import HttpRequest

from homework.models import Assignment

from . import keys, launch
from .models import DeepLinkRequest
from .services import CUSTOM_ASSIGNMENT

DL = "https://purl.imsglobal.org/spec/lti-dl/claim/"


def score_maximum(assignment: Assignment) -> int:
    """The gradebook column's maximum: one constant for every line item
    (``LTI_SCORE_MAXIMUM``, 100), whatever the game; scores are sent as the
    share of the homework's full marks on it (``ags.score_given``, docs/lti.md)."""
    maximum: int = getattr(settings, "LTI_SCORE_MAXIMUM", 100)
    return int(maximum)


def content_item(request: HttpRequest, assignment: Assignment) -> dict[str, Any]:
    return {
        "type": "ltiResourceLink",
        "title": assignment.title,
        "url": launch.launch_url(request),
        "custom": {CUSTOM_ASSIGNMENT: str(assignment.pk)},
        "lineItem": {
            "scoreMaximum": score_maximum(assignment),
            "label": assignment.title,
            "resourceId": f"matika-assignment-{assignment.pk}",
            "tag": "matika",
        },
        "window": {"targetName": "_blank"},
    }


def response_jwt(request: HttpRequest, deep_link: DeepLinkRequest, assignment: Assignment) -> str:
    platform = deep_link.course.deployment.platform
    claims = {
        "iss": platform.client_id,
        "aud": platform.issuer,
        "azp": platform.client_id,
        "nonce": secrets.token_urlsafe(16),
        launch.MESSAGE_TYPE: "LtiDeepLinkingResponse",
        launch.VERSION: "1.3.0",
        launch.DEPLOYMENT_ID: deep_link.course.deployment.deployment_id,
        DL + "content_items": [content_item(request, assignment)],
    }
    if deep_link.data:
        claims[DL + "data"] = deep_link.data
    return keys.sign(claims)
