"""The admin site with optional TOTP two-factor (django-otp; docs/decisions.md).

A staff account that enrolled a TOTP device (``/accounts/two-factor/``) must
give its current code to reach the admin; one without a device logs in with
its password as before. django-otp's own ``OTPAdminSite`` requires a device of
every staff account, which would lock out everyone who has not enrolled yet.
"""

from typing import Any

from django.contrib.admin import AdminSite
from django.http import HttpRequest
from django_otp import user_has_device
from django_otp.admin import OTPAdminAuthenticationForm
from django_otp.middleware import is_verified


class OptionalOTPAuthenticationForm(OTPAdminAuthenticationForm):
    def clean(self) -> dict[str, Any]:
        # AdminAuthenticationForm's own checks (password, is_staff), then the
        # OTP step only for accounts that enrolled a device.
        cleaned = super(OTPAdminAuthenticationForm, self).clean()
        user = self.get_user()
        if user is not None and user_has_device(user, confirmed=True):
            self.clean_otp(user)
        return cleaned


class OptionalOTPAdminSite(AdminSite):
    login_form = OptionalOTPAuthenticationForm
    login_template = "otp/admin111/login.html"

    def has_permission(self, request: HttpRequest) -> bool:
        if not super().has_permission(request):
            return False
        user = request.user
        # OTPMiddleware's ``user.is_verified()``, as the function it binds
        return not user_has_device(user, confirmed=True) or bool(is_verified(user))
