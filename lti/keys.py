"""The tool's signing keys and the JWTs it signs (PyJWT, RS256).

A key pair is made on first need; every key not retired is published at
``/lti/jwks/``. Rotation: add a key (``rotate()``), keep the old one published
until platforms' caches have let it go, then retire it.
"""

import json
import secrets
import time
import uuid
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from django.db import IntegrityError, transaction
from django.utils import timezone

from .models import ToolKey

# Loading a PEM checks the key (about half a second of CPU on a busy machine);
# a key never changes under its kid, so each process loads it once.
_LOADED: dict[str, rsa.RSAPrivateKey] = {}


def _loaded(key: ToolKey) -> rsa.RSAPrivateKey:
    private = _LOADED.get(key.kid)
    if private is None:
        loaded = serialization.load_pem_private_key(key.private_pem.encode(), password=None)
        if not isinstance(loaded, rsa.RSAPrivateKey):  # the tool's keys are RSA (_new_key)
            raise TypeError(f"tool key {key.kid} is not an RSA key")
        private = _LOADED[key.kid] = loaded
    return private


def _new_key() -> ToolKey:
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    kid = uuid.uuid4().hex
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(private.public_key()))
    jwk.update({"kid": kid, "alg": "RS256", "use": "sig"})
    made: ToolKey = ToolKey.objects.create(kid=kid, private_pem=pem, public_jwk=jwk)
    return made


def signing_key() -> ToolKey:
    key: ToolKey | None = ToolKey.objects.filter(retired_at__isnull=True).first()
    if key is not None:
        return key
    try:
        with transaction.atomic():
            return _new_key()
    except IntegrityError:  # another process made one at the same moment
        key = ToolKey.objects.filter(retired_at__isnull=True).first()
        if key is None:
            raise
        return key


def rotate() -> ToolKey:
    """A new signing key; the old ones stay published until retired."""
    return _new_key()


def retire(kid: str) -> int:
    retired: int = ToolKey.objects.filter(kid=kid, retired_at__isnull=True).update(
        retired_at=timezone.now()
    )
    return retired


def jwks() -> dict[str, Any]:
    signing_key()
    return {"keys": [key.public_jwk for key in ToolKey.objects.filter(retired_at__isnull=True)]}


def sign(claims: dict[str, Any], *, lifetime: int = 300) -> str:
    key = signing_key()
    now = int(time.time())
    body = {"iat": now, "exp": now + lifetime, "jti": secrets.token_urlsafe(16), **claims}
    return jwt.encode(body, _loaded(key), algorithm="RS256", headers={"kid": key.kid})
