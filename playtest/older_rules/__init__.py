"""The Dreadgate rules of older engine versions, each a frozen copy of the engine package as it was when the
version was bumped (docs/rules.md, RV-2): `playtest.dreadgate.versions.ENGINES` maps a stored record's version to
the package that replays it. A copy is never edited (nor linted or restyled); it goes only together with a data
migration that deletes or converts the records that name its version.
"""
