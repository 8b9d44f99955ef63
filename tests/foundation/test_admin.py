import pytest
from django.apps import apps
from django.contrib import admin

from accounts.models import User

pytestmark = pytest.mark.django_db

PROJECT_APPS = ("accounts", "classrooms", "games")


def test_every_project_model_is_in_the_admin():
    missing = [
        model.__name__
        for app in PROJECT_APPS
        for model in apps.get_app_config(app).get_models()
        if model not in admin.site._registry
    ]
    assert missing == []


def test_admin_list_and_add_pages_load_for_every_project_model(client):
    client.force_login(User.objects.create_superuser("admin@matika.test", "Admin-heslo-1"))
    for model in admin.site._registry:
        if model._meta.app_label not in PROJECT_APPS:
            continue
        base = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        assert client.get(base).status_code == 200, base
        assert client.get(base + "add/").status_code == 200, base
