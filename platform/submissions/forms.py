"""Forms of the bot pages."""

from typing import Any

from accounts.models import User
from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.http import QueryDict

from submissions import held, services
from submissions.models import Bot, BotVersion

FILE_HELP = "A .zip or .tar.gz with nimmt-bot.toml at the top, or a single .py file."


class NewBotForm(forms.Form):
    """A new bot: its name is checked first (before the file is unpacked), and a file sent
    with a refused name is kept (:mod:`submissions.held`) so that it need not be chosen again."""

    name = forms.CharField(
        max_length=40,
        required=False,
        help_text="Letters, digits, '.', '_' and '-'. Empty: the name in nimmt-bot.toml.",
    )
    file = forms.FileField(required=False, help_text=FILE_HELP)
    held = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.held_upload: held.HeldUpload | None = None
        if self.is_bound:
            self.held_upload = held.find(user, str(self.data.get("held", "")))

    def clean_name(self) -> str:
        name = str(self.cleaned_data.get("name", "")).strip()
        if name:
            try:
                services.check_bot_name(name)
                services.check_name_free(name)
            except services.NameRefused as refusal:
                raise forms.ValidationError(str(refusal)) from None
        return name

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not cleaned.get("file") and self.held_upload is None and "file" not in self.errors:
            self.add_error("file", "Choose the bot's file.")
        return cleaned

    def upload(self) -> UploadedFile[bytes]:
        """The chosen file, or else the one kept from the last try (then no longer kept)."""
        chosen = self.cleaned_data.get("file")
        if chosen:
            return chosen  # type: ignore[no-any-return]
        assert self.held_upload is not None
        taken = held.take(self.user, self.held_upload.token)
        if taken is None:
            raise services.SubmissionError("The kept file is gone; choose the file again.")
        return taken

    def keep_file(self, upload: UploadedFile[bytes] | None = None) -> None:
        """Keep the file sent with a refused form, for the next try."""
        upload = upload or self.files.get("file")
        if upload is None:
            return
        self.held_upload = held.hold(self.user, upload)
        data = QueryDict(mutable=True)
        data.update(self.data)
        data["held"] = self.held_upload.token if self.held_upload else ""
        self.data = data


class UploadForm(forms.Form):
    file = forms.FileField(help_text=FILE_HELP)
    activate = forms.BooleanField(
        required=False, initial=True, label="Make it the active version once it passes"
    )
    test = forms.BooleanField(
        required=False,
        label="Test it against the active version once it passes (then it is not made active)",
        help_text="On the ladder this bot plays most, with the default settings; its page shows "
        "the test. Other settings: ask for a test on the version's page.",
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
