"""Teachers sign in with the school's account: Google Workspace, Microsoft 365
or any OpenID Connect provider, through django-allauth's ``openid_connect``
provider (docs/sso.md, docs/decisions.md "School sign-in").

- ``environment``: the providers a deployment turns on (``SSO_*`` variables);
  read by the settings, so it imports nothing from Django.
- ``provider`` / ``views`` / ``urls``: allauth's OpenID Connect provider with
  a nonce, PKCE and the ID token's signature always checked.
- ``policy``: what a verified token must say (school domain or tenant,
  verified e-mail) -- pure functions of the claims.
- ``adapter``: every decision after the token: sign in, new teacher account,
  link to an existing account only after its owner confirms, or a refusal.
- ``link``: the confirmation page; ``privacy``: export and deletion hooks.
"""
