"""Word lists the unit generator builds names from, one flavour per craft.

Nouns come in three sizes (by vitality: 1-3 small, 4-6 medium, 7-9 large) plus flyers for aviation
units, so a nine-vitality unit is a Mammoth and a one-vitality unit a Stoat.
"""

from __future__ import annotations

from typing import NamedTuple


class CraftWords(NamedTuple):
    adjectives: tuple[str, ...]
    small: tuple[str, ...]
    medium: tuple[str, ...]
    large: tuple[str, ...]
    flyers: tuple[str, ...]
    places: tuple[str, ...]


def _words(text: str) -> tuple[str, ...]:
    return tuple(w.strip() for w in text.split(",") if w.strip())


WORDS: dict[str, CraftWords] = {
    "artifice": CraftWords(
        adjectives=_words(
            "Veiled, Masked, Silent, Shrouded, Whispering, Duskbound, Gloaming, Hollow, Cunning, Sable, Umbral, "
            "Furtive, Velvet, Quiet, Mirrored, Faceless, Crooked, Inkbound, Lurking, Forked, Nameless, Smoke-Eyed, "
            "Sly, Midnight, Two-Faced, Gossamer, Lamplit, Black-Gloved, Sidelong, Dim"
        ),
        small=_words(
            "Cutpurse, Informant, Spy, Lookout, Pickpocket, Whisperer, Footpad, Trickster, Courier, Decoy, "
            "Infiltrator, Lurker, Eavesdropper, Knave, Urchin Spy, Tattler"
        ),
        medium=_words(
            "Assassin, Saboteur, Illusionist, Blackmailer, Duelist, Stalker, Mesmerist, Puppeteer, Forger, "
            "Poisoner, Nightblade, Deceiver, Agent, Shade, Veilwalker, Cardsharp"
        ),
        large=_words(
            "Spymaster, Mastermind, Nightmare, Doppelganger, Usurper, Kingbreaker, Deathmask, Veilmaster, "
            "Puppetmaster, Shadow Regent, Phantom Lord, Grand Deceiver, Hollow King, Mask Tyrant, Dusk Colossus"
        ),
        flyers=_words("Nightwing, Shadowbat, Raven, Gargoyle, Gloom Glider, Moth Swarm, Dusk Kite, Black Owl"),
        places=_words(
            "the Veil, Black Lanterns, the Silent Court, Hollow Street, the Ninth Mask, Ashfall Alley, "
            "the Glass Maze, Murmur, the Undercroft, Errod's Night, the Forked Tongue, the Velvet Knife, "
            "Candleless Hall, the Sealed Letter, the Last Secret"
        ),
    ),
    "champion": CraftWords(
        adjectives=_words(
            "Valiant, Iron, Bold, Stalwart, Scarred, Warborn, Fearless, Proud, Gallant, Sworn, Oathbound, Veteran, "
            "Reckless, Unbroken, Grim, Brazen, Hardened, Relentless, Bloodied, Roaring, Glorious, Ardent, Honed, "
            "Undaunted, Battle-Scarred, Greenmantle, Vowed, Steadfast, Triumphant, Hard-Bitten"
        ),
        small=_words(
            "Squire, Recruit, Skirmisher, Footman, Spearhand, Bladesman, Page, Militant, Runner, Slinger, "
            "Shieldmaid, Swordhand, Conscript, Aspirant, Drummer, Standard-Bearer"
        ),
        medium=_words(
            "Swordsman, Knight, Gladiator, Vanguard, Lancer, Berserker, Sergeant, Champion, Halberdier, Raider, "
            "Shieldbearer, Axeman, Duelmaster, Blademaster, Cavalier, Reaver"
        ),
        large=_words(
            "Warlord, Warmaster, Juggernaut, Conqueror, Battlelord, Destroyer, Marshal, Warchief, Slayer, "
            "High Champion, Warbringer, Giantslayer, Siegebreaker, Lord Commander, Bulwark Knight"
        ),
        flyers=_words("Griffin Rider, Skylancer, Wyvern Rider, Hawk Knight, Pegasus Lancer, Eagle Warden"),
        places=_words(
            "the Arena, the Third War, Galwyndor, the Iron Ring, the Last Charge, Broken Shields, the Green Banner, "
            "the Long Siege, Ten Battles, the Red Field, the Purge, Hammerfall, the Oath, the Shieldwall, "
            "the Breach"
        ),
    ),
    "divine": CraftWords(
        adjectives=_words(
            "Hallowed, Radiant, Blessed, Serene, Sainted, Gilded, Pious, Merciful, Luminous, Sacred, Dawnlit, "
            "Vigilant, Faithful, Silver, Celestial, Sanctified, Devout, Shining, Tranquil, Warding, Anointed, "
            "Solemn, Benevolent, Candlelit, Haloed, Steadfast, Lambent, Prayerful, Consecrated, Unwavering"
        ),
        small=_words(
            "Acolyte, Novice, Pilgrim, Chorister, Mendicant, Herald, Lightbearer, Wisp, Initiate, Almsgiver, "
            "Deacon, Candlekeeper, Healer, Sister, Bellringer, Lamplighter"
        ),
        medium=_words(
            "Cleric, Templar, Priestess, Warden, Crusader, Guardian, Chaplain, Exorcist, Oracle, Inquisitor, "
            "Sentinel, Mender, Protector, Zealot, Abbot, Shieldmonk"
        ),
        large=_words(
            "Archon, Seraph, Paladin, Hierarch, High Priest, Cathedral Golem, Patriarch, Matriarch, Aegis, Saint, "
            "Luminary, Exarch, Bastion, Reliquary Titan, Sanctum Warden"
        ),
        flyers=_words("Angel, Cherub, Dove Herald, Winged Sentinel, Sky Seraph, Choir Angel, Halo Wing, Skyward Saint"),
        places=_words(
            "the Dawn, the Silver Choir, Saint Ilvra, the Ninth Bell, the Pale Cloister, Mercy, the Halo, "
            "the Still Water, the First Light, the Open Hand, the Vigil, the Blue Chapel, the Last Prayer, "
            "Three Candles, the High Altar"
        ),
    ),
    "engineering": CraftWords(
        adjectives=_words(
            "Clockwork, Brass, Geared, Steam, Riveted, Ironclad, Copper, Pistoned, Blazing, Rattling, Forged, "
            "Sootstained, Armored, Welded, Tinkered, Overclocked, Furnace, Bolted, Hissing, Scrap, Galvanic, "
            "Cinder, Sparking, Oil-Black, Gearbound, Red-Hot, Smelted, Ratcheting, Volted, Iron-Lunged"
        ),
        small=_words(
            "Tinker, Sapper, Drone, Cogling, Mechanic, Spotter, Sparkwright, Welder, Rigger, Gearhand, "
            "Bombardier, Fusewright, Oiler, Scrapper, Lamp Drone, Rivet Boy"
        ),
        medium=_words(
            "Automaton, Engineer, Arbalest, Mortar, Ballista, Sentry, Gunner, Artificer, Siegewright, "
            "Boilerguard, Cannoneer, Pyrotechnist, Walker, Harpooner, Flamecaster, Turret"
        ),
        large=_words(
            "Siege Tower, Dreadnought, War Golem, Crawler, Bombard, Warmachine, Landship, Battering Ram, Ironhulk, "
            "Earthshaker, Locomotive, Foundry Titan, Steam Colossus, Trebuchet, Forge Engine"
        ),
        flyers=_words("Ornithopter, Gyrocopter, Skyship, Dirigible, Glider, Sky Skiff, Balloon Battery, Aerostat"),
        places=_words(
            "the Foundry, Gearhold, the Red Forge, Bolt Street, the Ninth Boiler, the Siegeworks, the Anvil, "
            "Cogsworth Yard, the Iron Bridge, the Smelter, the Proving Ground, the Slag Pits, the Crank, "
            "the Copper Gate, Steamhaven"
        ),
    ),
    "hinter": CraftWords(
        adjectives=_words(
            "Wild, Feral, Mossy, Thornback, Savage, Briar, Amber, Tawny, Howling, Prowling, Sunscale, Ancient, "
            "Fernshade, Rootbound, Barkskin, Tusked, Horned, Shaggy, Oaken, Autumn, Rustfur, Stormhide, Untamed, "
            "Ridgeback, Marsh, Lichen, Dappled, Burrowing, Bramble, Longtooth"
        ),
        small=_words(
            "Fox, Stoat, Weasel, Ferret, Badger, Lynx, Jackal, Beetle, Wasp Swarm, Toad, Viper, Marten, Hound, "
            "Forager, Trapper, Hedgehog"
        ),
        medium=_words(
            "Wolf, Stag, Boar, Panther, Ranger, Druid, Huntress, Elk, Wolverine, Beastmaster, Shaman, Tracker, "
            "Cougar, Warg, Crocodile, Packleader"
        ),
        large=_words(
            "Bear, Mammoth, Treant, Behemoth, Grizzly, Aurochs, Wyrm, Basilisk, Thornbeast, Troll, Hydra, "
            "Mastodon, Bramble Giant, Elder Boar, Stonehide Tortoise"
        ),
        flyers=_words("Hawk, Owl, Falcon, Kestrel, Harrier, Roc, Wyvern, Griffin, Eagle, Bat Swarm"),
        places=_words(
            "the Deepwood, the Wilds, the Amber Marsh, the Howling Hills, Thornmere, the Old Grove, the Long Grass, "
            "the Fen, the Mossfall, Red Canyon, the Timberline, the Rootdeep, the Hunter's Moon, the Wild Hunt, "
            "the Bramblewood"
        ),
    ),
    "sorcery": CraftWords(
        adjectives=_words(
            "Arcane, Starlit, Eldritch, Astral, Runic, Glyphbound, Voidborn, Mystic, Hexed, Ethereal, Spellwoven, "
            "Prismatic, Warped, Occult, Shimmering, Eclipsed, Aetheric, Nether, Stellar, Cursed, Enchanted, Riven, "
            "Violet, Chanting, Moonbound, Sigil-Marked, Unbound, Fateweaver, Star-Touched, Whorled"
        ),
        small=_words(
            "Adept, Familiar, Imp, Spark, Scribe, Hexling, Conjurer, Runecaster, Mote, Seer, Homunculus, "
            "Spellwright, Chanter, Wandbearer, Augur, Glyph Apprentice"
        ),
        medium=_words(
            "Mage, Sorcerer, Warlock, Witch, Elementalist, Diviner, Summoner, Enchantress, Evoker, Spellblade, "
            "Hexer, Invoker, Necromancer, Astromancer, Glyphwright, Geomancer"
        ),
        large=_words(
            "Archmage, Djinn, Elemental, Lich, Magus, Starcaller, Avatar, Demon, Aberration, Voidlord, "
            "Spellweaver, Dreadmage, Rune Colossus, Star Titan, Gate Horror"
        ),
        flyers=_words("Phoenix, Drake, Stormcrow, Harpy, Wisp Swarm, Skywhale, Void Manta, Spell Kite"),
        places=_words(
            "the Ninth Star, the Keldra Gate, the Violet Tower, Atury's Circle, the Void, the Seventh Sigil, "
            "the Moonwell, the Unwritten Page, the Starfall, the Last Glyph, the Shattered Orrery, Many Voices, "
            "the Silver Flame, the Open Book, the Great Purge"
        ),
    ),
    "universal": CraftWords(
        adjectives=_words(
            "Wandering, Hired, Weathered, Loyal, Ragged, Stout, Dusty, Common, Roving, Humble, Sturdy, Exiled, "
            "Lost, Frontier, Border, Roadworn, Grizzled, Thrifty, Rustic, Brave, Lucky, Old, Hungry, Surly, "
            "Homesick, Cheerful, Muddy, Stubborn, Nimble, Quiet-Footed"
        ),
        small=_words(
            "Peasant, Farmhand, Urchin, Porter, Militiaman, Drifter, Herder, Messenger, Refugee, Guide, Miner, "
            "Fisher, Woodcutter, Cook, Tanner, Stablehand"
        ),
        medium=_words(
            "Sellsword, Mercenary, Deserter, Bandit, Hunter, Watchman, Smuggler, Pikeman, Caravan Guard, "
            "Bounty Hunter, Blacksmith, Exile, Marauder, Outrider, Quartermaster, Crossbowman"
        ),
        large=_words(
            "Ogre, Giant, Brute, Hill Giant, Cyclops, Ettin, Minotaur, Bruiser, Gatekeeper, Stone Golem, "
            "Warband, Ironback Ox, Mercenary Captain, Bandit King, Caravan Beast"
        ),
        flyers=_words("Vulture, Crow, Gull, Kite Rider, Carrier Hawk, Sky Drifter, Balloonist"),
        places=_words(
            "the Gateway, Galwyndor, Errod, the Crossroads, the Long March, the Border, the Old Road, "
            "the Lost Legion, the Wayhouse, No Banner, the Far Camp, the Exile, Twenty Winters, the Ferry, "
            "the Muster"
        ),
    ),
}
