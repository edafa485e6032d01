"""The organisers' form for a new season."""

from typing import Any

from django import forms
from ladders.models import Ladder


class SeasonForm(forms.Form):
    ladder = forms.ModelChoiceField(
        queryset=Ladder.objects.filter(is_active=True), empty_label=None
    )
    name = forms.CharField(max_length=100, required=False)
    starts_at = forms.DateTimeField(label="Starts (UTC)")
    freezes_at = forms.DateTimeField(
        label="Freezes (UTC)",
        help_text="From then on, no bot takes a new version until the season is over.",
    )
    ends_at = forms.DateTimeField(label="Ends (UTC)", help_text="Then the final plays.")
    finalists = forms.IntegerField(min_value=2, max_value=32, initial=4)
    final_deals = forms.IntegerField(min_value=1, max_value=20, initial=2, label="Deals per table")
    carry_over = forms.BooleanField(
        required=False, help_text="Keep the ratings for the next season (else they start afresh)."
    )
    repeat = forms.BooleanField(
        required=False, initial=True, help_text="Start the next season at the end."
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        start, freeze, end = (cleaned.get(k) for k in ("starts_at", "freezes_at", "ends_at"))
        if start and freeze and end and not (start <= freeze <= end and start < end):
            raise forms.ValidationError("A season starts, then freezes, then ends.")
        return cleaned
