"""The form that makes a challenge."""

from typing import Any

from accounts.models import User
from django import forms
from django.conf import settings
from django.db.models import Exists, OuterRef
from submissions.models import Bot

from arena.engine.variants import VARIANT_NAMES
from challenges.models import ChallengeRefusal


class OpponentChoice(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: Any) -> str:
        bot: Bot = obj
        label = f"{bot.name} ({bot.owner.username})"
        if bot.is_house:
            return f"{label} · house bot"
        if getattr(bot, "refuses", False):
            return f"{label} · does not accept challenges"
        return label


class ChallengeForm(forms.Form):
    bot = forms.ModelChoiceField(
        queryset=Bot.objects.none(), empty_label=None, label="Your bot (its active version)"
    )
    variant = forms.ChoiceField(choices=[(v, v) for v in VARIANT_NAMES], initial="basic")
    players = forms.IntegerField(
        min_value=2, max_value=10, initial=2, help_text="Your bot and its opponents."
    )
    opponents = OpponentChoice(
        queryset=Bot.objects.none(),
        widget=forms.SelectMultiple(attrs={"size": 8}),
        help_text="Players − 1 of them: the house bots, and bots whose owners accept challenges.",
    )
    deals = forms.IntegerField(
        min_value=1,
        max_value=1000,
        initial=2,
        help_text="Each deal is played once per seat rotation (deals × players games); at most "
        f"{settings.CHALLENGE_MAX_GAMES} games.",
    )

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        bot_field: Any = self.fields["bot"]
        bot_field.queryset = (
            Bot.objects.playing().filter(owner=user).select_related("active_version")
        )
        opponents: Any = self.fields["opponents"]
        opponents.queryset = (
            Bot.objects.playing()
            .annotate(refuses=Exists(ChallengeRefusal.objects.filter(bot=OuterRef("pk"))))
            .select_related("owner")
            .order_by("-is_house", "name")
        )
