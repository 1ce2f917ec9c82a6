from __future__ import annotations

import unicodedata

from django import forms
from django.contrib.auth import authenticate
from django.contrib.auth.forms import UserCreationForm

# The scripts whose letters pass for each other's ("а", Cyrillic, is "a"): a name mixing two of them can pass for
# another player's on every public deck (Unicode TR39's mixed-script rule, for these three).
LOOK_ALIKE_SCRIPTS = frozenset(("LATIN", "CYRILLIC", "GREEK"))


def look_alike_scripts(name: str) -> list[str]:
    """The look-alike scripts a name's letters are written in, when it mixes two or more of them; else []."""
    scripts = {unicodedata.name(ch, "").split(" ")[0] for ch in name if ch.isalpha()} & LOOK_ALIKE_SCRIPTS
    return sorted(scripts) if len(scripts) > 1 else []


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Optional; needed to reset a forgotten password.")

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_username(self):
        username = super().clean_username()  # None, with the form's error, for a name taken in any case
        if username and (mixed := look_alike_scripts(username)):
            raise forms.ValidationError(
                f"This name mixes {' and '.join(s.title() for s in mixed)} letters, which can make it pass for "
                "another player's; write it in the letters of one of them.", code="mixed_scripts")
        return username


class BrowserLinkForm(forms.Form):
    username = forms.CharField(max_length=150, help_text="The account to e-mail a link to (its address is not shown).")


class DeleteAccountForm(forms.Form):
    """Deleting an account asks for its password again (through the throttled backend)."""

    password = forms.CharField(widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
                               help_text="Your current password, to confirm.")

    def __init__(self, request, *args, **kwargs):
        self.request = request
        super().__init__(*args, **kwargs)

    def clean_password(self):
        password = self.cleaned_data["password"]
        user = self.request.user
        if authenticate(self.request, username=user.get_username(), password=password) is None:
            refusal = getattr(self.request, "login_refusal", None)
            if refusal is not None:
                raise forms.ValidationError(refusal.message, code="locked")
            raise forms.ValidationError("That is not your password; nothing was deleted.", code="wrong_password")
        return password


class AccessTokenForm(forms.Form):
    name = forms.CharField(max_length=100, help_text="What the token is for, e.g. the script that uses it.")
