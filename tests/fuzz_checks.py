"""The API fuzz's one allowance, defined once for the suite's fuzz (tests/security/test_api_fuzz.py) and the full
run (`make fuzz`); schemathesis.toml loads this module into both.

Schemathesis's positive_data_acceptance fails a 400 to data that fits the schema. The schema states every rule it
can (config/api_schema.py); these refusals are of rules it cannot, each a 400 with its own code, and any other 400
to schema-valid data is still a failure:

- the text of a language: a search query that does not parse (invalid_query), a deck list or deck code that does
  not read (invalid_deck_list, invalid_deck_code), an action's notation (bad_notation);
- the catalog and the decks as they stand: a card that does not exist (unknown_card), a gateway that is no
  gateway card or a JSON deck of another shape (invalid_deck), a deck the engine cannot play (deck_unplayable),
  a deck listed twice with the starters or not legal for a gauntlet (invalid_params);
- a game as it stands: a decision or action its rules refuse (illegal_decision, illegal_action);
- a rule between values that OpenAPI 3.0 cannot write: exactly one of two query parameters
  (exactly_one_parameter), a table's pairs times its games a pair over the run limit (games_out_of_range).

And a 412 where the operation documents it: If-Match naming a version the deck is not at (its state, as a 409).
"""

from __future__ import annotations

import json

import schemathesis
from schemathesis.specs.openapi.checks import positive_data_acceptance

BEYOND_THE_SCHEMA = frozenset({
    "invalid_query", "invalid_deck_list", "invalid_deck_code", "bad_notation",
    "unknown_card", "invalid_deck", "deck_unplayable", "invalid_params",
    "illegal_decision", "illegal_action",
    "exactly_one_parameter", "games_out_of_range",
})


@schemathesis.check
def positive_data_acceptance_but_rules_beyond_the_schema(ctx, response, case):
    """positive_data_acceptance, but for a 400 carrying one of the codes of BEYOND_THE_SCHEMA."""
    if response.status_code == 412 and "412" in case.operation.responses.status_codes:
        return True
    if response.status_code == 400:
        try:
            code = json.loads(response.content)["error"]["code"]
        except (ValueError, KeyError, TypeError):
            code = None
        if code in BEYOND_THE_SCHEMA:
            return True
    return positive_data_acceptance(ctx, response, case)
