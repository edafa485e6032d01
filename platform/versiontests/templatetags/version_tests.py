"""``{% version_tests version %}``: a version's tests and the form to ask for one, on its page
(shown to the bot's owner only)."""

import math
from typing import Any

from core.charts import line_chart
from django import template
from submissions.models import BotVersion

from versiontests.forms import TestForm
from versiontests.models import VersionTest

register = template.Library()

VERDICTS = {
    "h1": "better: H1 accepted (the edge is at least e1)",
    "h0": "not better: H0 accepted (the edge is at most e0)",
    "inconclusive": "inconclusive: the cap was reached first",
}


def describe(test: VersionTest) -> dict[str, Any]:
    """What the page shows of ``test``."""
    sprt, evidence = test.settings, test.evidence
    ci = evidence.ci95
    history = [(int(deals), float(llr)) for deals, llr in test.history]
    return {
        "test": test,
        "lower": sprt.lower,
        "upper": sprt.upper,
        "games": 2 * test.deals * test.ladder.players,
        "edge": None if not evidence.deals else evidence.mean,
        "interval": None if math.isnan(ci) else (evidence.mean - ci, evidence.mean + ci),
        "verdict": VERDICTS.get(test.verdict, ""),
        "chart": line_chart([llr for _, llr in history], x_labels=[str(d) for d, _ in history]),
        "history": history[-12:],
    }


@register.inclusion_tag("versiontests/panel.html", takes_context=True)
def version_tests(context: template.Context, version: BotVersion) -> dict[str, Any]:
    if not context.get("is_owner"):
        return {"shown": False}
    tests = list(VersionTest.objects.filter(candidate=version).select_related("baseline", "ladder"))
    bot = version.bot
    can_test = (
        not any(not test.is_over for test in tests)  # one test of a version at a time
        and not bot.is_retired
        and bot.active_version_id is not None
        and bot.active_version_id != version.pk
        and version.status != BotVersion.FAILED
    )
    return {
        "shown": True,
        "version": version,
        "tests": [describe(t) for t in tests],
        "form": TestForm() if can_test else None,
        "csrf_token": context.get("csrf_token"),
    }
