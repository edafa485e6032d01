"""The form that asks for a version test, with the SPRT's settings and their defaults."""

from typing import Any

from django import forms
from ladders.models import Ladder

from arena.sprt import SprtSettings

DEFAULTS = SprtSettings()


class TestForm(forms.Form):
    ladder = forms.ModelChoiceField(
        queryset=Ladder.objects.filter(is_active=True).order_by("variant", "players"),
        empty_label=None,
        help_text="Its format and its typical opponents of this bot.",
    )
    e0 = forms.FloatField(
        initial=DEFAULTS.e0,
        min_value=-50,
        max_value=50,
        label="H0: edge at most (points per game)",
    )
    e1 = forms.FloatField(
        initial=DEFAULTS.e1,
        min_value=-50,
        max_value=50,
        label="H1: edge at least (points per game)",
    )
    alpha = forms.FloatField(
        initial=DEFAULTS.alpha,
        min_value=0.001,
        max_value=0.4,
        label="α (chance of calling it better when it is not)",
    )
    beta = forms.FloatField(
        initial=DEFAULTS.beta,
        min_value=0.001,
        max_value=0.4,
        label="β (chance of missing a real edge of e1)",
    )
    cap = forms.IntegerField(
        initial=DEFAULTS.cap,
        min_value=DEFAULTS.min_deals,
        max_value=2000,
        label="At most this many deals",
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not self.errors:
            try:
                cleaned["sprt"] = SprtSettings(
                    e0=cleaned["e0"],
                    e1=cleaned["e1"],
                    alpha=cleaned["alpha"],
                    beta=cleaned["beta"],
                    cap=cleaned["cap"],
                )
            except ValueError as error:
                raise forms.ValidationError(str(error).removeprefix("SprtSettings: ")) from None
        return cleaned
