"""A small mutation run over the two game engines (`make mutate`, docs/testing.md).

`mutants.py` lists hand-written mutants: each breaks one rule of docs/rules.md in one place of an engine.
`run.py` applies them one at a time to a copy of the tree and runs that engine's scenario tests against each;
a mutant the tests still pass is a survivor, which either needs a test or is documented as equivalent.
"""
