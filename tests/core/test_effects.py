"""The effect vocabulary's validator: valid abilities pass, each kind of mistake is named."""

from __future__ import annotations

import copy

import pytest

from core.effects import OPS, validate_ability, validate_card_abilities

SHIELD_WALL = {
    "name": "Shield Wall",
    "trigger": "activated",
    "cost": 1,
    "text": "Friendly units within 1 cell get +2 defense until end of turn.",
    "effect": {
        "op": "modify",
        "stat": "defense",
        "amount": 2,
        "duration": "end_of_turn",
        "target": {"select": "all", "side": "friendly", "filter": {"within": 1}},
    },
}


def with_effect(effect, **fields):
    ability = copy.deepcopy(SHIELD_WALL)
    ability["effect"] = effect
    ability.update(fields)
    return ability


def test_a_valid_ability_has_no_errors():
    assert validate_ability(SHIELD_WALL) == []


def test_vocabulary_stays_small():
    assert 10 <= len(OPS) - 1 <= 15  # primitives, without the sequence combinator


def test_missing_and_unknown_fields_are_named():
    ability = copy.deepcopy(SHIELD_WALL)
    del ability["text"]
    ability["colour"] = "red"
    errors = validate_ability(ability)
    assert "text: is required" in errors
    assert "colour: unknown ability field" in errors


def test_unknown_op_and_bad_amount_name_their_path():
    errors = validate_ability(with_effect({"op": "explode", "target": {"select": "self"}}))
    assert len(errors) == 1
    assert errors[0].startswith("effect.op: 'explode' is not one of action_points, damage, destroy,")
    errors = validate_ability(with_effect({"op": "damage", "amount": 0, "target": {"select": "self"}}))
    assert errors == ["effect.amount: must be an integer from 1 to 9, got 0"]


def test_cost_must_fit_the_trigger():
    assert validate_ability({**SHIELD_WALL, "cost": 0}) == ["cost: an activated ability costs 1..4 (action points)"]


def test_sequence_steps_and_previous_target():
    effect = {
        "op": "sequence",
        "steps": [
            {"op": "damage", "amount": 2, "target": {"select": "chosen", "side": "enemy", "filter": {"within": 2}}},
            {"op": "stun", "duration": "end_of_turn", "target": {"select": "previous"}},
        ],
    }
    assert validate_ability(with_effect(effect)) == []
    effect["steps"].reverse()
    assert "effect.steps[0].target.select: 'previous' needs an earlier step with unit targets in the same sequence" in (
        validate_ability(with_effect(effect))
    )


def test_continuous_abilities_only_modify_for_while_source():
    aura = with_effect(
        {"op": "modify", "stat": "attack", "amount": 1, "duration": "while_source", "target": {"select": "bearer"}},
        trigger="equipped",
        cost=0,
    )
    assert validate_ability(aura) == []
    burst = with_effect({"op": "draw", "player": "self", "amount": 1}, trigger="static", cost=0)
    assert any("can only use" in e for e in validate_ability(burst))
    lingering = with_effect(
        {"op": "modify", "stat": "attack", "amount": 1, "duration": "end_of_turn", "target": {"select": "self"}},
        trigger="static",
        cost=0,
    )
    assert validate_ability(lingering) == ["effect.duration: a static or equipped ability lasts 'while_source'"]


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ({"select": "chosen"}, "side: chosen targets need a side"),
        ({"select": "self", "side": "enemy"}, "side: not allowed with select 'self'"),
        ({"select": "all", "side": "any", "filter": {"keyword": "flying"}}, "unknown keyword 'flying'"),
        ({"select": "all", "side": "any", "filter": {"craft": "divine"}}, "craft: must be a non-empty list"),
        ({"select": "chosen", "side": "any", "count": 9}, "count: must be an integer from 1 to 3"),
    ],
)
def test_target_mistakes(target, message):
    errors = validate_ability(with_effect({"op": "destroy", "target": target}))
    assert any(message in e for e in errors), errors


def test_card_checks_need_the_card_type():
    talent = {"type": "talent", "abilities": [SHIELD_WALL]}
    errors = validate_card_abilities(talent)
    assert "abilities[0].trigger: 'activated' is not a trigger a talent card can have" in errors
    assert "abilities[0].effect.target.filter.within: a talent has no cell to measure from" in errors
    legend = {"type": "legend", "abilities": [SHIELD_WALL] * 3}
    assert "abilities: a legend has at most two abilities" in validate_card_abilities(legend)
    assert validate_card_abilities({"type": "legend", "abilities": [SHIELD_WALL]}) == []
