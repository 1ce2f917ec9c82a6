"""The bottom of the house: the domain facts every app and both engines share, as plain Python.

Effect vocabulary, keywords, card types, crafts, formats and the domain error. This package imports
only the standard library (an import contract in pyproject.toml holds it to that), so the engines and
every app can depend on it and nothing here depends on them.
"""
