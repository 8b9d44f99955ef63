"""Homework that resource links already lead to is marked ``lms_linked`` (the
grade hook reads nothing for homework that is not, issue 41)."""

from django.db import migrations


def mark_linked(apps, schema_editor):
    Assignment = apps.get_model("homework", "Assignment")
    ResourceLink = apps.get_model("lti", "ResourceLink")
    linked = ResourceLink.objects.exclude(assignment=None).values("assignment_id")
    Assignment.objects.filter(pk__in=linked).update(lms_linked=True)


class Migration(migrations.Migration):
    dependencies = [("lti", "0002_frame_grants"), ("homework", "0005_assignment_lms_linked")]

    operations = [migrations.RunPython(mark_linked, migrations.RunPython.noop)]
