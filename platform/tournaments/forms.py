"""The organiser's form for a new tournament."""

from typing import Any

from django import forms
from submissions.models import BotVersion

from arena.engine.variants import VARIANT_NAMES
from arena.engine.variants import variant as get_variant
from tournaments.models import Tournament


class EntrantChoice(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: BotVersion) -> str:
        return f"{obj.bot.name} v{obj.number} ({obj.bot.owner.username})"


def entrant_choices() -> Any:
    """Versions that passed validation, of bots not retired, by bot name then newest first."""
    return (
        BotVersion.objects.filter(status=BotVersion.PASSED, bot__retired_at__isnull=True)
        .select_related("bot", "bot__owner")
        .order_by("bot__name", "-number")
    )


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=100)
    variant = forms.ChoiceField(choices=[(v, v) for v in VARIANT_NAMES], initial="basic")
    players = forms.IntegerField(
        min_value=2,
        max_value=10,
        initial=2,
        label="Bots per game",
        help_text="2–6 on the board; the card game (classic) takes 2–10.",
    )
    format = forms.ChoiceField(
        choices=Tournament.FORMATS,
        initial=Tournament.ROUND_ROBIN,
        widget=forms.RadioSelect,
        help_text="Round robin: every table of entrants meets. Swiss: rounds of similar "
        "standing. Duplicate: every deal is replayed with the seats rotated, so the luck of "
        "the deal cancels out.",
    )
    games_per_pairing = forms.IntegerField(
        min_value=1,
        max_value=100,
        initial=2,
        label="Games per pairing",
        help_text="Games each table plays (duplicate: deals, each played in every rotation).",
    )
    rounds = forms.IntegerField(
        min_value=1, max_value=50, initial=3, required=False, help_text="Swiss only."
    )
    entrants = EntrantChoice(
        queryset=BotVersion.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text="Bot versions that passed validation.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["entrants"]
        assert isinstance(field, EntrantChoice)
        field.queryset = entrant_choices()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        variant, players = data.get("variant"), data.get("players")
        if variant and players:
            allowed = get_variant(variant).players
            if players not in allowed:
                self.add_error(
                    "players",
                    f"{variant} is played by {allowed.start} to {allowed.stop - 1} bots.",
                )
        if data.get("format") == Tournament.SWISS and not data.get("rounds"):
            self.add_error("rounds", "A Swiss tournament needs a number of rounds.")
        return data
