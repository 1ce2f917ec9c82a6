"""The crafts of the seed, their colours and icons: fixed game data, not curation."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models


class Craft(models.TextChoices):
    ARTIFICE = "artifice", "Artifice"
    CHAMPION = "champion", "Champion"
    DIVINE = "divine", "Divine"
    ENGINEERING = "engineering", "Engineering"
    HINTER = "hinter", "Hinter"
    SORCERY = "sorcery", "Sorcery"
    UNIVERSAL = "universal", "Universal"


@dataclass(frozen=True, slots=True)
class CraftInfo:
    craft: Craft
    colour: str  # the seed's colour name, searchable with c:
    hex: str  # frame colour of the card face
    icon: str  # name of the icon drawn beside the colour, so colour is never the only cue
    speciality: str


CRAFTS: dict[str, CraftInfo] = {
    info.craft.value: info
    for info in (
        CraftInfo(Craft.ARTIFICE, "black", "#2b2b2e", "mask", "deception and opponent control, maneuver"),
        CraftInfo(Craft.CHAMPION, "green", "#2f7d32", "sword", "battle"),
        CraftInfo(Craft.DIVINE, "blue", "#1f5fa8", "halo", "protection and healing, maneuver"),
        CraftInfo(Craft.ENGINEERING, "red", "#b3261e", "gear", "machines, equipment and battlefield control"),
        CraftInfo(Craft.HINTER, "orange", "#d9730d", "leaf", "creatures and the power of nature"),
        CraftInfo(Craft.SORCERY, "purple", "#6a3d9a", "star", "magic, spells and abilities"),
        CraftInfo(Craft.UNIVERSAL, "brown", "#7a5230", "circle",
                  "universal cards, payable with influence of any colour"),
    )
}
