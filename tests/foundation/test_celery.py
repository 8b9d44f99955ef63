import pytest

from config.health import add


@pytest.mark.live
def test_a_real_worker_executes_a_task(transactional_db, celery_worker_process):
    result = add.delay(19, 23)
    assert result.get(timeout=30) == 42
    assert result.successful()


def test_beat_uses_the_database_scheduler_editable_in_admin(settings):
    assert settings.CELERY_BEAT_SCHEDULER == "django_celery_beat.schedulers:DatabaseScheduler"
    assert "django_celery_beat" in settings.INSTALLED_APPS
