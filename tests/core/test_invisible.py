"""core/invisible.py: the characters drawn as nothing are taken out of a text, but those that shape what stands
around them stay between two characters."""

import pytest

from core.invisible import seen_as, without_invisible

pytestmark = pytest.mark.config_independent

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # an emoji family: three people joined
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"  # a flag of tag characters


@pytest.mark.parametrize("text, kept", [
    ("4 Shaggy Beetle", "4 Shaggy Beetle"),
    ("Sha\u200bggy\u00adBee\u2060tle\ufeff", "ShaggyBeetle"),  # zero-width space, soft hyphen, word joiner, BOM
    ("\u3164Ramp\u115f", "Ramp"),  # Hangul fillers
    ("Ramp\u2062\u2063", "Ramp"),  # invisible operators
    ("\u200dRamp\u200c", "Ramp"),  # a joiner at either end joins nothing
    (FAMILY, FAMILY),
    ("\u2764\ufe0f", "\u2764\ufe0f"),  # a heart drawn as a picture
    (SCOTLAND, SCOTLAND),
    ("Écume de l’Ombre", "Écume de l’Ombre"),
])
def test_what_is_drawn_as_nothing_goes_and_what_shapes_its_neighbours_stays(text, kept):
    assert without_invisible(text) == kept


def test_two_labels_that_differ_only_by_what_is_drawn_as_nothing_or_by_case_are_seen_alike():
    assert seen_as("Ra\u200dmp") == seen_as("RAMP") == seen_as("ramp\ufe0f") == "ramp"
    assert seen_as("Ramp") != seen_as("Rump")
