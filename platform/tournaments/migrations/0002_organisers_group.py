# ruff: noqa: RUF012  (Django's own migration attributes)
"""The group ``organisers``: its members create and run tournaments (without being staff)."""

from typing import Any

from django.contrib.auth.management import create_permissions
from django.db import migrations


def add_group(apps: Any, schema_editor: Any) -> None:
    # Permissions are made after all migrations ran; this one is needed now.
    config = apps.get_app_config("tournaments")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="organisers")
    group.permissions.add(
        Permission.objects.get(
            codename="organise_tournaments", content_type__app_label="tournaments"
        )
    )


def remove_group(apps: Any, schema_editor: Any) -> None:
    apps.get_model("auth", "Group").objects.filter(name="organisers").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(add_group, remove_group)]
