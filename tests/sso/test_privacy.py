"""allauth's tables are teacher data: in the export, gone with the account,
and no other row touched."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from allauth.socialaccount.models import SocialAccount, SocialToken

from accounts import teacher_data
from accounts.models import User

pytestmark = pytest.mark.django_db


def linked(email: str, uid: str) -> User:
    user = User.objects.create_user(email=email, password=None)
    account = SocialAccount.objects.create(
        user=user,
        provider="google",
        uid=uid,
        extra_data={"id_token": {"sub": uid, "email": email, "hd": "skola.example"}},
    )
    SocialToken.objects.create(account=account, token="access", token_secret="refresh")
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user


def test_export_has_the_school_accounts_once_and_no_tokens():
    user = linked("a@skola.example", "sub-a")
    data = teacher_data.export_account(user)
    accounts = data["school_sign_in"]["accounts"]
    assert [row["uid"] for row in accounts] == ["sub-a"]
    assert accounts[0]["claims"]["id_token"]["hd"] == "skola.example"
    assert data["school_sign_in"]["email_addresses"][0]["email"] == "a@skola.example"
    assert "socialaccount.SocialAccount.user" not in data["other"]
    assert "account.EmailAddress.user" not in data["other"]
    assert "access" not in str(data) and "refresh" not in str(data)


def test_deleting_the_account_deletes_its_school_sign_in_and_nothing_else():
    user = linked("a@skola.example", "sub-a")
    other = linked("b@skola.example", "sub-b")
    teacher_data.delete_account(user)
    assert not SocialAccount.objects.filter(uid="sub-a").exists()
    assert not SocialToken.objects.filter(account__uid="sub-a").exists()
    assert not EmailAddress.objects.filter(email="a@skola.example").exists()
    # The other teacher's rows are untouched.
    kept = SocialAccount.objects.get(uid="sub-b")
    assert kept.user == other
    assert kept.extra_data["id_token"]["email"] == "b@skola.example"
    assert SocialToken.objects.filter(account=kept).count() == 1
    assert EmailAddress.objects.filter(user=other).count() == 1
