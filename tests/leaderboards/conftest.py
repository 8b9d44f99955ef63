import pytest


@pytest.fixture
def admin_client(db, django_user_model):
    from django.test import Client

    client = Client(headers={"accept-language": "en"})
    client.force_login(django_user_model.objects.create_superuser("admin@skola.cz", "Adm-1234"))
    return client
