"""The crafts of the seed in their fixed order, with their colours and icons: game data, not curation."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CraftInfo:
    slug: str
    label: str
    colour: str  # the seed's colour name, searchable with c:
    hex: str  # frame colour of the card face
    icon: str  # name of the icon drawn beside the colour, so colour is never the only cue
    speciality: str


UNIVERSAL = "universal"

# The order is the rules' and the engine's (craft indexes, influence vectors): never reorder.
CRAFTS: dict[str, CraftInfo] = {
    info.slug: info
    for info in (
        CraftInfo("artifice", "Artifice", "black", "#2b2b2e", "mask", "deception and opponent control, maneuver"),
        CraftInfo("champion", "Champion", "green", "#2f7d32", "sword", "battle"),
        CraftInfo("divine", "Divine", "blue", "#1f5fa8", "halo", "protection and healing, maneuver"),
        CraftInfo("engineering", "Engineering", "red", "#b3261e", "gear",
                  "machines, equipment and battlefield control"),
        CraftInfo("hinter", "Hinter", "orange", "#d9730d", "leaf", "creatures and the power of nature"),
        CraftInfo("sorcery", "Sorcery", "purple", "#6a3d9a", "star", "magic, spells and abilities"),
        CraftInfo(UNIVERSAL, "Universal", "brown", "#7a5230", "circle",
                  "universal cards, payable with influence of any colour"),
    )
}
CRAFT_ORDER: tuple[str, ...] = tuple(CRAFTS)
CRAFT_INDEX = {c: i for i, c in enumerate(CRAFT_ORDER)}
