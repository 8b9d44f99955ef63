"""School sign-in's personal data: allauth's tables, in the teacher's export
and gone with the teacher's account (``accounts.privacy``; docs/privacy.md).

- ``socialaccount_socialaccount``: which school account (provider, subject)
  signs a teacher in, with the few claims kept (``policy.KEPT_CLAIMS``);
- ``socialaccount_socialtoken``: not written (``SOCIALACCOUNT_STORE_TOKENS``
  is off), deleted anyway should an admin have stored one;
- ``account_emailaddress`` (+ confirmations): not written by Matika's flows,
  deleted with the account all the same.

Pupils never sign in this way, so a player's erasure has nothing to do here.
"""

from __future__ import annotations

from typing import Any

from accounts.privacy import PrivacyHooks


def export_account(user: Any) -> dict[str, Any]:
    from allauth.account.models import EmailAddress
    from allauth.socialaccount.models import SocialAccount

    accounts = [
        {
            "provider": account.provider,
            "uid": account.uid,
            "claims": account.extra_data,
            "linked_at": account.date_joined.isoformat(),
            "last_login": account.last_login.isoformat() if account.last_login else None,
        }
        for account in SocialAccount.objects.filter(user=user).order_by("pk")
    ]
    addresses = [
        {"email": row.email, "verified": row.verified, "primary": row.primary}
        for row in EmailAddress.objects.filter(user=user).order_by("pk")
    ]
    return {"school_sign_in": {"accounts": accounts, "email_addresses": addresses}}


def delete_account(user: Any) -> None:
    from allauth.account.models import EmailAddress
    from allauth.socialaccount.models import SocialAccount, SocialToken

    SocialToken.objects.filter(account__user=user).delete()
    SocialAccount.objects.filter(user=user).delete()
    EmailAddress.objects.filter(user=user).delete()


HOOKS = PrivacyHooks(
    app="accounts.sso",
    export_account=export_account,
    delete_account=delete_account,
    exported_account_relations={
        "socialaccount.SocialAccount.user": "school_sign_in",
        "account.EmailAddress.user": "school_sign_in",
    },
)
