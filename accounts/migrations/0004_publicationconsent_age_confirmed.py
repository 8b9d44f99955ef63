from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_nickname_skeleton_email_verified"),
    ]

    operations = [
        migrations.AddField(
            model_name="publicationconsent",
            name="age_confirmed",
            field=models.BooleanField(
                null=True,
                default=None,
                verbose_name="old enough or a parent agreed",
                help_text="GDPR Art. 8: asked with every yes (15 in Czechia, 16 in Slovakia).",
            ),
        ),
    ]
