"""``{{ version|build_log }}``: the log of a version's build, for its owner's page."""

from django import template

from submissions import builds
from submissions.models import BotVersion

register = template.Library()


@register.filter
def build_log(version: BotVersion) -> str | None:
    """The log of ``version``'s build, ``None`` if it has none."""
    return builds.build_log(version)
