"""Forms of the bot pages."""

from django import forms

from submissions.models import Bot, BotVersion


class NewBotForm(forms.Form):
    name = forms.CharField(
        max_length=40,
        required=False,
        help_text="Letters, digits, '.', '_' and '-'. Empty: the name in nimmt-bot.toml.",
    )
    file = forms.FileField(
        help_text="A .zip or .tar.gz with nimmt-bot.toml at the top, or a single .py file."
    )


class UploadForm(forms.Form):
    file = forms.FileField(
        help_text="A .zip or .tar.gz with nimmt-bot.toml at the top, or a single .py file."
    )
    activate = forms.BooleanField(
        required=False, initial=True, label="Make it the active version once it passes"
    )


class ActivateForm(forms.Form):
    version = forms.UUIDField()

    def __init__(self, bot: Bot, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.bot = bot

    def clean_version(self) -> BotVersion:
        try:
            return self.bot.versions.get(uuid=self.cleaned_data["version"])
        except BotVersion.DoesNotExist:
            raise forms.ValidationError("No such version of this bot.") from None
