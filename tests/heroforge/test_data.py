"""The shipped data and the enchantment-list language: what loads, what is refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import InvalidInput
from engine.heroforge.catalog import (
    EFFECT_LIMITS,
    STEP,
    EnchantmentSpec,
    list_text,
    load_catalog,
    parse_enchantment_line,
    parse_enchantment_list,
)
from engine.heroforge.options import HeroforgeOptions

CATALOG = load_catalog()


@pytest.mark.rule("heroforge:units")
def test_one_unit_per_level_one_to_ten_priced_in_steps_of_fifty() -> None:
    assert sorted(CATALOG.units) == list(range(1, 11))
    prices = [CATALOG.units[level].price for level in range(1, 11)]
    assert all(p % STEP == 0 for p in prices)
    assert prices == sorted(prices) and prices[0] == 50 and prices[-1] == 1000


@pytest.mark.rule("heroforge:lands")
def test_plain_lands_are_blank_and_the_others_have_stats_in_steps_of_fifty() -> None:
    plain = CATALOG.lands["plain"]
    assert (plain.economy, plain.fort_price, plain.cap_bonus, plain.red) == (0, None, 0, ())
    assert len(CATALOG.lands_of("basic")) >= 6 and len(CATALOG.lands_of("special")) >= 2
    for land in CATALOG.lands_of("basic") + CATALOG.lands_of("special"):
        assert land.fort_price is not None and land.fort_price % STEP == 0
        assert land.economy % STEP == 0 and land.economy > 0
    kinds = {r.kind for land in CATALOG.lands.values() for r in land.red} | {
        e.kind for land in CATALOG.lands.values() for e in land.owner
    }
    assert kinds == {"unit_level", "speed", "economy"}


@pytest.mark.rule("heroforge:basic-rules")
def test_weir_of_hopeseeking_is_the_rulebook_example() -> None:
    weir = CATALOG.heroes["weir"]
    assert (weir.name, weir.faction, weir.cap, weir.speed) == (
        "Weir Of HopeSeeking",
        "HighLands",
        5,
        -1,
    )
    assert [(a.kind, a.amount, a.face) for a in weir.abilities] == [
        ("unit_level", 1, None),
        ("combat_roll", 1, 1),
    ]
    assert len(CATALOG.heroes) >= 6


@pytest.mark.rule("heroforge:enchantment-lists")
def test_ready_lists_have_ten_each_and_read_back_from_their_text() -> None:
    for lst in CATALOG.lists.values():
        assert len(lst.enchantments) == 10
        again = parse_enchantment_list(list_text(lst))
        assert again.enchantments == lst.enchantments


@pytest.mark.rule("heroforge:enchantments")
def test_the_rulebook_examples_can_be_written() -> None:
    fort = parse_enchantment_line("1. Builder's Blessing (Instant): fort_cost -500", ())
    assert (fort.kind, fort.effect, fort.amount) == ("instant", "fort_cost", -500)
    tax = parse_enchantment_line("War Tax: unit_cost +100", ())
    assert (tax.kind, tax.effect, tax.amount) == ("permanent", "unit_cost", 100)
    stack = parse_enchantment_line(
        "Iron Banners (Stack) [highlands]: unit_level +1", ("HighLands",)
    )
    assert (stack.kind, stack.faction) == ("stack", "HighLands")


@pytest.mark.rule("heroforge:enchantment-lists")
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Windfall (Instant): economy +300", "exactly 10"),
        ("; ".join(f"E{i}: economy +75" for i in range(10)), "multiple of 50"),
        ("; ".join(f"E{i}: speed +9" for i in range(10)), "between -3 and 3"),
        ("; ".join("Same: economy +50" for _ in range(10)), "Two enchantments .* called 'Same'"),
        ("; ".join(f"E{i} [Nowhere]: economy +50" for i in range(10)), "unknown faction"),
        ("; ".join(f"E{i}: teleport +1" for i in range(10)), "unknown effect"),
        ("; ".join(f"E{i} (Forever): economy +50" for i in range(10)), "kind is"),
        ("just words", "exactly 10 enchantments .* this one has 1"),
        ("; ".join(f"E{i} economy +50" for i in range(10)), "Cannot read the enchantment 'E0"),
    ],
)
def test_player_lists_are_validated(text: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        parse_enchantment_list(text)


@pytest.mark.rule("heroforge:enchantment-lists")
def test_options_take_a_ready_list_or_a_written_one() -> None:
    written = "; ".join(f"Gift {i} (Instant): economy +{50 * i}" for i in range(1, 11))
    options = HeroforgeOptions(list1="shifting_sands", list5=written)
    assert options.list5 == written
    with pytest.raises(ValueError, match="Unknown enchantment list"):
        HeroforgeOptions(list1="nonsense")


_EFFECTS = st.sampled_from(sorted(EFFECT_LIMITS))


@st.composite
def _specs(draw: st.DrawFn) -> EnchantmentSpec:
    effect = draw(_EFFECTS)
    lo, hi, step = EFFECT_LIMITS[effect]
    amount = draw(st.integers(lo // step, hi // step).filter(lambda n: n != 0)) * step
    name = draw(st.from_regex(r"[A-Z][a-z]{2,12}( [A-Z][a-z]{2,10})?", fullmatch=True))
    return EnchantmentSpec(
        name=name,
        kind=draw(st.sampled_from(["permanent", "instant", "stack"])),
        faction=draw(st.sampled_from([None, *CATALOG.factions()])),
        effect=effect,
        amount=amount,
    )


@pytest.mark.rule("heroforge:enchantment-lists")
@given(_specs())
@settings(max_examples=60, deadline=None)
def test_any_valid_enchantment_reads_back_from_its_text(spec: EnchantmentSpec) -> None:
    assert parse_enchantment_line(spec.text(), CATALOG.factions()) == spec


@pytest.mark.rule("heroforge:enchantments")
@pytest.mark.parametrize(
    ("line", "summary"),
    [
        # the rulebook's two examples: "This turn your next fort cost 500e less", "units cost 100e more"
        (
            "Builder's Blessing (Instant): fort_cost -500",
            "Builder's Blessing (Instant): your next fort this turn costs 500e less",
        ),
        ("War Tax: unit_cost +100", "War Tax: units cost 100e more"),
        ("Tax Collector (Stack): economy +100", "Tax Collector (Stack): +100e each turn"),
        ("Windfall (Instant): economy +300", "Windfall (Instant): +300e"),
        ("Ambush (Instant): extra_rolls +2", "Ambush (Instant): +2 damage rolls this turn"),
        ("Landwalker: shift +1", "Landwalker: shift 1 land plate each turn"),
        ("Mud (Stack): speed -1", "Mud (Stack): speed -1"),
    ],
)
def test_an_enchantment_says_how_long_it_acts(line: str, summary: str) -> None:
    assert parse_enchantment_line(line, ()).summary() == summary


@pytest.mark.rule("heroforge:enchantments")
def test_effect_text_is_the_summary_without_the_label() -> None:
    """`effect_text` is what `summary` says after the label, and a Stack's total multiplies
    the first card's effect (the texts the /card reply and the stack event use)."""
    spec = parse_enchantment_line("Tax Collector (Stack): economy +100", ())
    assert spec.effect_text() == "+100e each turn"
    assert spec.summary() == f"{spec.label()}: {spec.effect_text()}"
    assert spec.stacked_effect(1) == "+100e each turn"
    assert spec.stacked_effect(3) == "+100e each turn x3 = +300e each turn"
    assert spec.stacked(3) == "Tax Collector (Stack): +100e each turn x3 = +300e each turn"
