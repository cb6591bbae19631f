"""Cutthroat Kingdoms guided session: the rules functions, and the flow fed answer by answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee import scenarios
from referee.asks import Ask, Choice, Number, Parsed, TableStep
from referee.engine.cards import CardQuestion
from referee.engine.driver import Driver
from referee.errors import InvalidAdjustment, InvalidAnswer, SessionError
from referee.games.cutthroat import parse, rules
from referee.games.cutthroat.game import GAME
from referee.games.cutthroat.scoring import Holdings, PlayerHoldings, score
from referee.games.cutthroat.state import MERCENARY, SOLDIER, Kingdom, Player, Territory
from referee.outcome import Termination

PLAYERS = ["Ann", "Bo", "Cy"]
LAND = ["Three Rivers", "Nyghtwald", "The Hanging Tongue", "Marrow", "Stonehold"]


def ordinary(question: Ask[object] | None) -> Ask[object] | None:
    """The question a card question asks when the card is not named (a named territory's values)."""
    return question.inner if isinstance(question, CardQuestion) else question


def answer(driver: Driver, *answers: str) -> Driver:
    for text in answers:
        driver.answer(text)
    return driver


def started(characters: tuple[str, str, str] = ("Dravanof", "Slaine", "Brom"), events: int = 10,
            options: dict[str, object] | None = None) -> Driver:
    """Ann holds Three Rivers (2 soldiers), Bo Nyghtwald (1), Cy Marrow (3); Ann's first turn is next."""
    driver = Driver(GAME, PLAYERS, options or {})
    answer(driver, *characters, "no", str(events), *LAND, "Ann")
    answer(driver, "Three Rivers", "s s", "3", "Nyghtwald", "s", "2", "Marrow", "s s s", "4")
    return driver


def kingdom_of(*owners: tuple[str | None, list[str]], layout: str = "row") -> Kingdom:
    rulings = {"territory-layout": layout, "short-payment": "what-they-have", "empty-deck": "reshuffle"}
    kingdom = Kingdom([Player(name) for name in PLAYERS], rulings)
    for player, character in zip(kingdom.players, ("Dravanof", "Slaine", "Brom"), strict=True):
        rules.choose_character(player, character)
    for name, (owner, defenders) in zip(LAND, owners, strict=False):
        kingdom.territories.append(Territory(name, owner=owner, defenders=list(defenders)))
    return kingdom


# --- rules ----------------------------------------------------------------------------------------


def test_brom_starts_with_eight_soldiers_and_the_other_houses_with_six() -> None:
    assert rules.starting_soldiers("Brom") == 8
    assert {rules.starting_soldiers(name) for name in ("Cawdwell", "Dravanof", "Crone", "Slaine", "Tyber")} == {6}


def test_neighbours_in_a_row_and_in_a_ring() -> None:
    row = kingdom_of(*[(None, [])] * 5)
    assert rules.neighbours(row, 0) == [1] and rules.neighbours(row, 4) == [3] and rules.neighbours(row, 2) == [1, 3]
    ring = kingdom_of(*[(None, [])] * 5, layout="ring")
    assert rules.neighbours(ring, 0) == [1, 4]


def test_accessibility_follows_the_combat_examples() -> None:
    # Three Rivers (Ann), Nyghtwald (Bo), The Hanging Tongue (nobody), Marrow (Cy), Stonehold (nobody)
    kingdom = kingdom_of(("Ann", [SOLDIER]), ("Bo", [SOLDIER]), (None, []), ("Cy", [SOLDIER]), (None, []))
    three_rivers, nyghtwald, _, marrow, _ = kingdom.territories
    assert rules.passage_needed(kingdom, "Ann", nyghtwald) == []  # next door
    assert rules.passage_needed(kingdom, "Bo", marrow) == []  # through unoccupied land
    assert rules.passage_needed(kingdom, "Cy", three_rivers) == [nyghtwald]  # Bo must let Cy pass
    landless = kingdom_of((None, []), (None, []), (None, []), ("Cy", [SOLDIER]), (None, []))
    assert rules.passage_needed(landless, "Ann", landless.territories[3]) == []  # no land: all accessible


def test_partners_cannot_attack_each_other() -> None:
    kingdom = kingdom_of(("Ann", [SOLDIER]), ("Bo", [SOLDIER]), (None, []), ("Cy", [SOLDIER]), (None, []))
    assert [t.name for t in rules.attack_targets(kingdom, "Ann")] == ["Nyghtwald", "Marrow"]
    rules.marry(kingdom, kingdom.player("Ann"), kingdom.player("Bo"))
    assert [t.name for t in rules.attack_targets(kingdom, "Ann")] == ["Marrow"]
    # a partner's land still needs passage, like anyone else's
    assert rules.passage_needed(kingdom, "Ann", kingdom.territories[2]) == [kingdom.territories[1]]


def test_stacks_read_and_their_limits() -> None:
    assert parse.parse_stack("s m s", 2, 1, False) == [SOLDIER, MERCENARY, SOLDIER]
    assert parse.parse_stack("SMS", 2, 1, False) == [SOLDIER, MERCENARY, SOLDIER]
    assert parse.parse_stack("none", 2, 1, True) is None
    for bad, soldiers, mercenaries in (("s s s", 2, 0), ("m", 3, 0), ("s s s s s", 8, 0), ("x", 3, 3), ("none", 3, 0)):
        with pytest.raises(ValueError):
            parse.parse_stack(bad, soldiers, mercenaries, False)
    for example in parse.stack_examples(1, 2, True):
        parse.parse_stack(example, 1, 2, True)


def test_killing_the_last_defender_sends_the_token_home() -> None:
    kingdom = kingdom_of((None, []), ("Bo", [SOLDIER, MERCENARY, SOLDIER]))
    nyghtwald = kingdom.territories[1]
    assert rules.kill_top(kingdom, nyghtwald, 2) == [SOLDIER, MERCENARY]
    assert kingdom.player("Bo").dead == 1 and nyghtwald.owner == "Bo"
    rules.kill_top(kingdom, nyghtwald, 1)
    assert nyghtwald.owner is None and kingdom.player("Bo").dead == 2


def test_paying_the_bank_breaks_silver_and_short_payments_follow_the_ruling() -> None:
    player = Player("Ann", copper=1, silver=2)
    rules.pay(player, 4)
    assert (player.copper, player.silver) == (2, 1)
    poor = Player("Bo", copper=2)
    assert rules.payable(poor, 3, "what-they-have") == 2
    assert rules.payable(poor, 3, "nothing") == 0
    assert rules.payable(Player("Cy", copper=5), 3, "nothing") == 3


def test_a_dead_heir_dissolves_the_marriage_and_pays_slaine() -> None:
    kingdom = kingdom_of()
    ann, bo = kingdom.player("Ann"), kingdom.player("Bo")  # Bo is Slaine
    rules.marry(kingdom, ann, bo)
    notes = rules.kill_heir(kingdom, ann)
    assert not ann.heir_alive and ann.married_to is None and bo.married_to is None
    assert bo.copper == 3 and len(notes) == 2


# --- the session ------------------------------------------------------------------------------------


def test_setup_gives_houses_soldiers_territories_and_copper() -> None:
    driver = started()
    kingdom: Kingdom = driver.state
    assert [p.soldiers_total for p in kingdom.players] == [6, 6, 8]
    assert kingdom.player("Bo").ability_uses == {"venom": 2}
    assert [t.owner for t in kingdom.territories] == ["Ann", "Bo", None, "Cy", None]
    assert [p.copper for p in kingdom.players] == [3, 2, 4]
    assert kingdom.soldiers_in_hand(kingdom.player("Cy")) == 5
    assert kingdom.hireling_deck_size == 47
    assert kingdom.phase == "resources" and kingdom.active == "Ann"
    assert isinstance(ordinary(driver.pending), Number) and "gem value" in driver.pending.prompt


def test_taken_characters_and_names_are_not_offered_again() -> None:
    driver = Driver(GAME, PLAYERS, {})
    answer(driver, "Brom")
    assert isinstance(driver.pending, Choice) and "Brom" not in driver.pending.options
    answer(driver, "Crone", "Tyber", "no", "8", "Marrow")
    with pytest.raises(InvalidAnswer):
        driver.answer("marrow")
    with pytest.raises(InvalidAnswer):
        driver.answer("Ann")
    answer(driver, "")  # Enter: the slot's own name
    assert driver.state.territories[1].name == "Slot 2"


def test_resource_phase_gives_a_feast_card_and_the_chosen_resource() -> None:
    driver = answer(started(), "1")  # Three Rivers: 1 gem
    assert isinstance(driver.pending, Choice) and driver.pending.options == ("3 copper", "1 gem")
    answer(driver, "1 gem")
    ann = driver.state.player("Ann")
    assert (ann.feast_cards, ann.gems, ann.copper) == (1, 1, 3)
    assert driver.state.phase == "actions"


def test_cawdwell_opulence_gives_both_for_the_turn_and_uses_a_token() -> None:
    driver = answer(started(("Cawdwell", "Slaine", "Brom")), "2", "both")
    ann = driver.state.player("Ann")
    assert (ann.copper, ann.gems, ann.ability_uses["opulence"]) == (6, 2, 1)
    assert any("Opulence" in message for message in driver.take_messages())


def test_purchases_stop_at_three_and_the_dead_come_back_for_two_copper() -> None:
    driver = answer(started(), "1", "3 copper")  # Ann: 6 copper
    assert isinstance(driver.pending, Choice) and "collect the dead" not in driver.pending.options
    answer(driver, "buy mercenaries", "buy mercenaries")
    driver.adjust("Ann dead +2", "Stonehold made her discard two soldiers")
    ann = driver.state.player("Ann")
    assert driver.state.soldiers_in_hand(ann) == 2
    answer(driver, "buy a hireling", "2")
    assert (ann.mercenaries, ann.hirelings, ann.copper, driver.state.turn.purchases) == (4, 1, 2, 3)
    assert isinstance(driver.pending, TableStep) and "territory ability" in driver.pending.prompt
    answer(driver, "done")
    assert isinstance(driver.pending, Choice)
    assert "buy a hireling" not in driver.pending.options and "buy mercenaries" not in driver.pending.options
    answer(driver, "collect the dead")
    assert (ann.dead, ann.copper, driver.state.soldiers_in_hand(ann)) == (0, 0, 4)


def test_an_attack_kills_the_defenders_then_the_attacker_conquers() -> None:
    driver = answer(started(), "1", "3 copper", "buy mercenaries", "attack")
    assert driver.pending is not None and driver.pending.options == ("Nyghtwald", "Marrow")  # type: ignore[attr-defined]
    answer(driver, "Nyghtwald", "soldier, cancelled by Bo's soldier")
    kingdom = driver.state
    assert kingdom.player("Ann").dead == 1 and kingdom.player("Bo").dead == 1
    assert kingdom.territory("Nyghtwald").defenders == [SOLDIER]
    answer(driver, "mercenary, undefended")
    assert kingdom.territory("Nyghtwald").owner is None and kingdom.player("Bo").dead == 2
    assert isinstance(driver.pending, Parsed) and "conquers Nyghtwald now" in driver.pending.prompt
    answer(driver, "m s")
    nyghtwald = kingdom.territory("Nyghtwald")
    assert nyghtwald.owner == "Ann" and nyghtwald.defenders == [MERCENARY, SOLDIER]
    assert kingdom.player("Ann").mercenaries == 0
    answer(driver, "end the action phase", "5")  # Nyghtwald's gem value: its copper was given at setup
    assert isinstance(driver.pending, Choice) and driver.pending.options == ("Nyghtwald: 2 copper", "Nyghtwald: 5 gems")


def test_passage_refused_means_no_attack() -> None:
    driver = answer(started(), "1", "3 copper", "attack", "Marrow")
    assert "passage needed through Nyghtwald (Bo)" in driver.pending.prompt  # type: ignore[union-attr]
    answer(driver, "no")
    assert driver.pending is not None and "next action" in driver.pending.prompt
    assert driver.state.territory("Marrow").defenders == [SOLDIER] * 3


def test_tyber_pillages_and_takes_mercenaries_with_bedlam() -> None:
    driver = answer(started(("Tyber", "Slaine", "Brom")), "1", "3 copper", "attack", "Nyghtwald",
                    "soldier, undefended")
    kingdom = driver.state
    assert kingdom.player("Ann").copper == 8 and kingdom.player("Bo").copper == 0  # Bo had only 2
    assert any("ruling short-payment" in message for message in driver.take_messages())


def test_brom_fury_kills_two_next_door() -> None:
    driver = Driver(GAME, PLAYERS, {})
    answer(driver, "Brom", "Slaine", "Crone", "no", "6", *LAND, "Ann")
    answer(driver, "Three Rivers", "s", "3", "Nyghtwald", "s", "2", "The Hanging Tongue", "s s s", "4")
    answer(driver, "1", "3 copper", "attack", "Nyghtwald", "soldier, undefended")
    assert isinstance(driver.pending, Choice) and driver.pending.options == ("no", "The Hanging Tongue")
    answer(driver, "The Hanging Tongue")
    kingdom = driver.state
    assert kingdom.territory("The Hanging Tongue").defenders == [SOLDIER]
    assert kingdom.player("Cy").dead == 2 and kingdom.player("Ann").ability_uses["fury"] == 1


def test_events_welcome_wedding_alms_and_tribute() -> None:
    driver = answer(started(events=6), "1", "3 copper", "end")
    with pytest.raises(InvalidAnswer):
        driver.answer("Ann")  # one player alone cannot have made a deal
    answer(driver, "Ann Bo")
    kingdom = driver.state
    assert [p.copper for p in kingdom.players] == [11, 7, 4]
    answer(driver, "2", "2 copper", "end", "The Royal Wedding", "Ann", "Cy")  # Bo's turn, event 2
    assert kingdom.player("Ann").married_to == "Cy" and kingdom.wedding_drawn
    answer(driver, "0", "end")  # Cy's turn (Marrow yields no gems, so copper), event 3
    assert isinstance(driver.pending, Choice) and "The Royal Wedding" not in driver.pending.options
    answer(driver, "Alms of Lazarus")
    with pytest.raises(InvalidAnswer):
        driver.answer("Ann 6 Bo 5")
    answer(driver, "Ann 6, Bo 6")
    before = [p.copper for p in kingdom.players]
    answer(driver, "3 copper", "end", "Tribute")  # Ann's turn, event 4: Tribute gives coins and gems
    after = [p.copper for p in kingdom.players]
    assert [a - b for a, b in zip(after, before, strict=True)] == [6, 2, 4]
    assert [p.gems for p in kingdom.players] == [1, 2, 0]


def test_the_royal_wedding_is_forced_just_above_the_feast() -> None:
    driver = answer(started(events=3), "1", "3 copper", "end", "none", "2", "2 copper", "end")
    assert driver.state.wedding_drawn
    assert any("Only the Royal Wedding" in message for message in driver.take_messages())


def finish_short_game(driver: Driver, poisoned: str, *more: str) -> Driver:
    """Three events: Welcome to Aurum, the Royal Wedding (Ann marries Cy), the Royal Feast."""
    answer(driver, "1", "1 gems", "end", "none")
    answer(driver, "2", "2 gems", "end", "Ann", "Cy")
    answer(driver, "0", "end", poisoned, *more)
    return driver


def test_the_feast_poisons_the_heir_in_front_and_dissolves_the_marriage() -> None:
    driver = finish_short_game(started(events=3), "Cy")  # Cy holds Ann's heir after the wedding
    kingdom = driver.state
    assert not kingdom.player("Ann").heir_alive and kingdom.player("Cy").heir_alive
    assert kingdom.player("Ann").married_to is None and kingdom.player("Cy").married_to is None
    assert kingdom.player("Bo").copper == 2 + 3  # Slaine's Dark Influence
    assert isinstance(driver.pending, TableStep) and driver.pending.section == "score-coins"
    assert "Ann's purse by the referee's count holds 3 copper, 0 silver and 1 gem." in driver.pending.prompt


def test_a_bastard_saves_the_poisoned_heir() -> None:
    driver = started(events=3)
    driver.adjust("Ann hirelings +1", "drew her own bastard")
    finish_short_game(driver, "Cy", "yes")
    kingdom = driver.state
    assert kingdom.player("Ann").heir_alive and kingdom.player("Ann").married_to == "Cy"
    assert kingdom.player("Ann").hirelings == 0


def test_the_final_score_is_the_scoring_module_on_the_tracked_holdings() -> None:
    driver = finish_short_game(started(events=3), "none", "5", "0", "2")
    kingdom = driver.state
    # gem colours: Ann 1 gem, Bo 2 gems, Cy none
    assert isinstance(driver.pending, Number) and driver.pending.maximum == 1
    answer(driver, "0", "0", "1")  # Ann: no ruby, no sapphire, an emerald
    answer(driver, "2")  # Bo: two rubies
    assert driver.report is not None and kingdom.finished
    expected = score(Holdings((
        PlayerHoldings("Ann", 3, 0, (0, 0, 1, 0, 0, 0), 5, True, "Cy"),
        PlayerHoldings("Bo", 2, 0, (2, 0, 0, 0, 0, 0), 0, True, None),
        PlayerHoldings("Cy", 8, 0, (0, 0, 0, 0, 0, 0), 2, True, "Ann"),
    )))
    expected.termination = Termination("last-event-resolved", "the last event card, the Royal Feast, has resolved")
    assert driver.report.to_json() == expected.to_json()
    assert driver.report.winners == ["Ann", "Cy"]


def test_gem_colours_keep_to_six_of_a_colour_and_to_the_gems_held() -> None:
    driver = started(events=3)
    driver.adjust("Ann gems +7", "counted her purse")
    driver.adjust("Bo gems +5", "counted her purse")
    finish_short_game(driver, "none", "0", "0", "0")
    answer(driver, "6")  # Ann: 8 gems, 6 rubies
    assert isinstance(driver.pending, Number) and (driver.pending.minimum, driver.pending.maximum) == (0, 2)
    answer(driver, "0", "0", "0", "0")  # the last 2 must be topaz: not asked
    assert isinstance(driver.pending, Number) and "Bo" in driver.pending.prompt
    assert driver.pending.maximum == 6  # Bo's 7 gems: no ruby left for her, so sapphires are asked first
    answer(driver, "6", "1")
    assert driver.report is not None
    assert driver.report.player("Ann").breakdown["gem_groups"] == 36 + 4
    assert driver.report.player("Bo").breakdown["gem_groups"] == 36 + 1


# --- corrections, checks and views ------------------------------------------------------------------


def test_corrections_change_counts_territories_and_marriages() -> None:
    driver = started()
    kingdom = driver.state
    driver.adjust("Ann copper +5", "a deal")
    driver.adjust("Bo gems =3", "counted")
    driver.adjust("The Hanging Tongue plague", "a plague event")
    driver.adjust("Marrow kill 2", "an Assassin")
    driver.adjust("Ann marries Bo", "married outside the wedding")
    driver.adjust("Three Rivers return", "a Sneak")
    assert kingdom.player("Ann").copper == 8 and kingdom.player("Bo").gems == 3
    assert kingdom.territory("The Hanging Tongue").plagued
    assert kingdom.territory("Marrow").defenders == [SOLDIER] and kingdom.player("Cy").dead == 2
    assert kingdom.player("Ann").married_to == "Bo"
    assert kingdom.territory("Three Rivers").owner is None and kingdom.soldiers_in_hand(kingdom.player("Ann")) == 6
    driver.adjust("Ann hirelings +1", "bought through a deal")
    driver.adjust("Bo uses venom Ann", "Venom on the hireling Ann plays")
    assert kingdom.player("Ann").hirelings == 0 and kingdom.player("Bo").copper == 2 + 3  # Dark Influence
    assert kingdom.player("Bo").ability_uses["venom"] == 1
    driver.adjust("Cy uses fury Nyghtwald", "Fury")
    assert kingdom.territory("Nyghtwald").owner is None and kingdom.player("Cy").ability_uses["fury"] == 1


@pytest.mark.parametrize(
    "text",
    ["Zed copper +1", "Ann copper -9", "Ann gems +37", "Ann dead +7", "Ann uses fury Marrow", "Ann marries Ann",
     "Marrow kill 9", "Stonehold return", "Ann heir", "Ann copper", "Bo uses venom Cy", "Cy uses fury Marrow"],
)
def test_bad_corrections_are_refused_and_change_nothing(text: str) -> None:
    driver = started()
    before = GAME.to_json(driver.state)
    with pytest.raises(InvalidAdjustment):
        driver.adjust(text, "a reason")
    assert GAME.to_json(driver.state) == before


def test_rulings_can_be_overridden_and_bad_ones_refused() -> None:
    driver = started(options={"rulings": {"territory-layout": "ring", "tied-top": "nobody"}})
    assert driver.state.rulings["territory-layout"] == "ring"
    assert rules.neighbours(driver.state, 0) == [1, 4]
    with pytest.raises(SessionError):
        GAME.new_state(PLAYERS, {"rulings": {"territory-layout": "hex"}})
    for players in (["Ann", "Bo"], ["Ann", "ann", "Cy"], ["Ann", "Bo", "all"]):
        with pytest.raises(SessionError):
            GAME.check_players(players)


def test_batch_purchases_ask_the_copper_spent() -> None:
    driver = answer(started(options={"rulings": {"purchase-unit": "batch"}}), "1", "3 copper", "buy mercenaries")
    assert isinstance(driver.pending, Number) and driver.pending.maximum == 6
    answer(driver, "3")
    assert driver.state.player("Ann").mercenaries == 6 and driver.state.turn.purchases == 1


def test_the_public_view_hides_purses() -> None:
    driver = started()
    driver.adjust("Ann gems +4", "counted")
    view = GAME.public_view(driver.state)
    text = " ".join(" ".join(row) for row in view.rows) + " ".join(view.lines)
    assert "gem" not in text.replace("Purses are secret", "")
    assert "Three Rivers: Ann, defended top first by soldier, soldier" in view.lines
    assert GAME.hidden_view(driver.state, "Ann") == ["Ann: 3 copper, 0 silver, 4 gems"]
    assert GAME.invariant_errors(driver.state) == []


# --- the rulebook's worked examples as scenarios ----------------------------------------------------

SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "scenarios" / "cutthroat-kingdoms").glob("*.toml"))


def test_every_reachable_worked_example_has_a_scenario() -> None:
    assert {path.stem for path in SCENARIOS} >= {
        "accessibility-and-tribute", "straight-combat", "combat-with-hirelings", "reinforcements",
        "vote-feast-and-score",
    }


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda path: path.stem)
def test_scenario(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scenarios, "load_game", lambda game_id: GAME)  # works before the registry names it
    scenario = scenarios.load_scenario(path)
    assert scenario.game == GAME.id
    run = scenarios.run_scenario(scenario)
    assert run.failures == [], "\n".join(run.transcript[-15:])


def test_every_question_names_a_section_of_the_rulebook() -> None:
    import random

    from referee.engine.simulate import play_random_game
    from referee.rules.parse import parse_rulebook

    markdown = (Path(__file__).resolve().parent.parent / "rulebooks" / "cutthroat-kingdoms.md").read_text()
    rulebook = parse_rulebook(markdown, "cutthroat-kingdoms", "cutthroat-kingdoms.md")
    sections: set[str] = set()

    def note(driver: Driver) -> None:
        if driver.pending is not None:
            sections.add(driver.pending.section)

    for seed in range(30):
        play_random_game(GAME, PLAYERS + ["Di"], random.Random(seed), after_each=note)
    assert {"resource-phase", "action-phase", "attack-and-defend", "royal-feast", "score-gems"} <= sections
    assert all(rulebook.has(section) for section in sections), sections


def test_the_table_is_told_who_casts_the_extra_vote() -> None:
    driver = answer(started(events=6), "1", "3 copper", "end", "none", "2", "2 copper", "end", "Alms of Lazarus")
    messages = driver.take_messages()
    assert "Vote: 1 vote each, and 1 more for the fewest copper coins: Bo, Cy. A tied vote decides nothing." in messages
    assert not any("(4)" in message for message in messages)  # a purse is never told


def test_poison_before_a_player_without_a_living_heir_harms_nobody() -> None:
    driver = started(events=3)
    driver.adjust("Bo heir killed", "an Assassin")
    finish_short_game(driver, "Bo")
    assert "No living heir sits in front of Bo: the poison harms nobody." in driver.take_messages()
    assert [p.heir_alive for p in driver.state.players] == [True, False, True]


# --- questions rebuilt after a correction -----------------------------------------------------------


def test_a_plague_at_the_collection_question_offers_the_plagued_side_and_asks_its_value() -> None:
    driver = answer(started(), "1")  # Three Rivers, healthy: 3 copper or 1 gem
    driver.adjust("Three Rivers plague", "a plague card")
    assert isinstance(driver.pending, Choice)
    assert driver.pending.options == ("copper (plagued side, its value asked next)",
                                      "gems (plagued side, their value asked next)")
    with pytest.raises(InvalidAnswer):
        driver.answer("3 copper")  # the healthy side's value is no longer on offer
    answer(driver, "copper")
    assert isinstance(ordinary(driver.pending), Number) and "(plagued side): copper value" in driver.pending.prompt
    answer(driver, "1")
    ann = driver.state.player("Ann")
    assert ann.copper == 3 + 1 and driver.state.territory("Three Rivers").copper_value == {"healthy": 3, "plagued": 1}


def test_a_plague_at_a_value_question_asks_the_plagued_side_instead() -> None:
    driver = started()
    assert isinstance(ordinary(driver.pending), Number) and "(healthy side): gem value" in driver.pending.prompt
    driver.adjust("Three Rivers plague", "a plague card")
    assert isinstance(ordinary(driver.pending), Number) and "(plagued side): gem value" in driver.pending.prompt
    answer(driver, "2")
    three_rivers = driver.state.territory("Three Rivers")
    assert three_rivers.gem_value == {"plagued": 2}
    assert isinstance(ordinary(driver.pending), Number) and "(plagued side): copper value" in driver.pending.prompt


def test_the_stack_question_follows_the_hand_after_a_correction() -> None:
    driver = answer(started(), "1", "3 copper", "conquer", "The Hanging Tongue", "yes")  # passage through Bo's
    assert isinstance(driver.pending, Parsed) and "at most 4 soldier(s)" in driver.pending.allowed()
    driver.adjust("Ann dead +4", "an Assassin")
    assert isinstance(driver.pending, Parsed) and driver.pending.allowed() == (
        "1 to 4 cards, at most 0 soldier(s) and 0 mercenary card(s), or 'none'")
    answer(driver, "none")
    assert driver.state.territory("The Hanging Tongue").owner is None


def test_a_player_named_like_an_option_word_can_be_chosen_by_name() -> None:
    driver = Driver(GAME, ["Ann", "No", "Cy"], {})
    answer(driver, "Dravanof", "Slaine", "Brom", "no", "6", *LAND, "Ann")
    answer(driver, "Three Rivers", "s s", "3", "Nyghtwald", "s", "2", "Marrow", "s s s")
    driver.adjust("Ann hirelings +1", "the bastard of No's house")
    answer(driver, "4")
    assert isinstance(driver.pending, Choice) and driver.pending.options == ("no blackmail", "No", "Cy")
    answer(driver, "No", "1", "3 copper")  # Ann blackmails the player named No for Three Rivers' copper
    assert [p.copper for p in driver.state.players] == [3 + 2, 0, 4]


@pytest.mark.parametrize("name", ["pay", "Pay Day", "bank"])
def test_names_that_would_read_as_a_payment_or_an_answer_word_are_refused(name: str) -> None:
    with pytest.raises(SessionError):
        GAME.check_players(["Ann", "Bo", name])


# --- the action phase -------------------------------------------------------------------------------


def actions_offered(driver: Driver) -> dict[str, int]:
    assert isinstance(driver.pending, Choice) and "action phase" in driver.pending.prompt
    return dict(zip(driver.pending.options, driver.pending.numbers, strict=True))


def test_attacking_is_closed_once_the_player_moves_on() -> None:
    driver = answer(started(), "1", "3 copper")
    driver.adjust("Ann dead +1", "lost a soldier to an Assassin")
    answer(driver, "attack", "Nyghtwald", "stop attacking")
    assert actions_offered(driver)["attack"] == 4  # the attack action is still under way
    answer(driver, "collect the dead")
    offered = actions_offered(driver)
    assert "attack" not in offered and "collect the dead" not in offered
    assert offered == {"buy a hireling": 1, "buy mercenaries": 2, "conquer": 3, "end the action phase": 0}


def test_purchases_are_closed_once_the_player_attacks() -> None:
    driver = answer(started(), "1", "3 copper", "buy mercenaries")
    assert "buy mercenaries" in actions_offered(driver)
    answer(driver, "attack", "Nyghtwald", "stop attacking")
    offered = actions_offered(driver)
    assert "buy a hireling" not in offered and "buy mercenaries" not in offered
    answer(driver, "conquer", "The Hanging Tongue", "yes", "s")
    offered = actions_offered(driver)
    assert "attack" not in offered and offered["conquer"] == 3
    answer(driver, "end the action phase")
    assert driver.state.turn.finished_actions == ["purchase", "attacks", "conquest"]


def test_each_action_keeps_its_number_and_0_always_ends() -> None:
    driver = answer(started(("Cawdwell", "Slaine", "Brom")), "1", "3 copper")
    assert actions_offered(driver) == {"buy a hireling": 1, "buy mercenaries": 2, "conquer": 3, "attack": 4,
                                       "taxes": 6, "end the action phase": 0}
    driver.adjust("Ann dead +1", "a soldier lost")
    assert actions_offered(driver)["collect the dead"] == 5
    answer(driver, "6", "Bo")  # taxes, from Bo next door: Taxes leaves the actions open
    assert "taxes" not in actions_offered(driver) and actions_offered(driver)["buy mercenaries"] == 2
    answer(driver, "0")
    assert driver.state.phase == "event"


# --- Stonehold, Bedlam, Fury ---------------------------------------------------------------------------


def stonehold_driver(options: dict[str, object] | None = None) -> Driver:
    """Ann (Dravanof) on Marrow next to Cy's Stonehold, held by 2 soldiers; Ann's actions are next."""
    driver = Driver(GAME, PLAYERS, options or {})
    answer(driver, "Dravanof", "Slaine", "Brom", "no", "6", *LAND, "Ann")
    answer(driver, "Marrow", "s s", "2", "Three Rivers", "s", "3", "Stonehold", "s s", "2")
    return answer(driver, "1", "2 copper")


def test_a_plagued_stonehold_takes_one_card_and_a_hand_of_one_kind_is_not_asked() -> None:
    driver = stonehold_driver()
    driver.adjust("Stonehold plague", "a plague card")
    answer(driver, "attack", "Stonehold")
    ann = driver.state.player("Ann")
    assert ann.dead == 1  # only soldiers in hand: the one card is taken without a question
    assert isinstance(driver.pending, Choice) and "Attack on Stonehold" in driver.pending.prompt
    assert ("Stonehold: Ann discards 1 soldier before attacking (ruling stonehold-discard: once-per-turn)."
            in driver.take_messages())


def test_stonehold_can_be_left_alone_instead_of_paid() -> None:
    driver = answer(stonehold_driver(), "buy mercenaries", "attack", "Stonehold")
    assert isinstance(driver.pending, Parsed) and "discards 2 military card(s)" in driver.pending.prompt
    with pytest.raises(InvalidAnswer):
        driver.answer("s")  # two cards are due
    answer(driver, "none")
    assert driver.state.player("Ann").dead == 0 and driver.state.player("Ann").mercenaries == 2
    assert "attack" in actions_offered(driver)


def test_each_defender_ruling_takes_the_price_again_for_the_next_defender() -> None:
    driver = stonehold_driver({"rulings": {"stonehold-discard": "each-defender"}})
    answer(driver, "buy mercenaries", "attack", "Stonehold", "s s", "soldier, undefended")
    ann = driver.state.player("Ann")
    assert ann.dead == 3 and driver.state.territory("Stonehold").defenders == [SOLDIER]
    assert isinstance(driver.pending, Parsed) and "discards 2 military card(s)" in driver.pending.prompt
    answer(driver, "m m", "soldier, undefended")  # the second defender's price, then the attack
    assert (ann.dead, ann.mercenaries) == (4, 0) and driver.state.territory("Stonehold").owner is None
    paid = [message for message in driver.take_messages() if "before attacking" in message]
    assert paid == ["Stonehold: Ann discards 2 soldiers before attacking (ruling stonehold-discard: each-defender).",
                    "Stonehold: Ann discards 2 mercenaries before attacking (ruling stonehold-discard: each-defender)."]


def test_a_hand_too_small_for_stonehold_cannot_attack_it() -> None:
    driver = stonehold_driver()
    driver.adjust("Ann dead +3", "lost soldiers")
    answer(driver, "attack", "Stonehold")
    assert driver.state.player("Ann").dead == 3 and "attack" in actions_offered(driver)
    assert ("Ann cannot discard the 2 military card(s) Stonehold demands: no attack (ruling stonehold-discard: "
            "once-per-turn).") in driver.take_messages()


def tyber_driver(options: dict[str, object] | None = None) -> Driver:
    """Ann (Tyber) on Three Rivers (a mercenary over a soldier) next to Bo's Nyghtwald (1 soldier),
    whose other neighbour, Cy's The Hanging Tongue, holds a soldier over a mercenary."""
    driver = Driver(GAME, PLAYERS, options or {})
    answer(driver, "Tyber", "Slaine", "Brom", "no", "6", *LAND, "Ann")
    driver.adjust("Ann mercenaries +2", "a deal")
    answer(driver, "Three Rivers", "m s", "3", "Nyghtwald", "s", "2")
    driver.adjust("Cy mercenaries +1", "a deal")
    answer(driver, "The Hanging Tongue", "s m", "2")
    return answer(driver, "1", "3 copper", "attack", "Nyghtwald", "soldier, undefended")


def test_bedlam_takes_every_mercenary_of_the_one_other_territory_next_door_unasked() -> None:
    """#lady-tyber: Bedlam is not optional; with Tyber's own land spared, one territory is left."""
    driver = tyber_driver()
    kingdom = driver.state
    assert isinstance(driver.pending, Parsed) and "conquers Nyghtwald now" in driver.pending.prompt
    assert kingdom.territory("The Hanging Tongue").defenders == [SOLDIER]
    assert kingdom.territory("Three Rivers").defenders == [MERCENARY, SOLDIER]
    assert kingdom.player("Ann").mercenaries == 2


def test_bedlam_may_empty_tybers_own_land_under_the_ruling_and_offers_no_none() -> None:
    """#ruling-bedlam-own-land, included: both neighbours are offered, and Tyber must pick one."""
    driver = tyber_driver({"rulings": {"bedlam-own-land": "included"}})
    assert isinstance(driver.pending, Choice) and driver.pending.options == (
        "Three Rivers (1 mercenary card(s))", "The Hanging Tongue (1 mercenary card(s))")
    with pytest.raises(InvalidAnswer):
        driver.answer("none")
    answer(driver, "Three Rivers")
    assert driver.state.territory("Three Rivers").defenders == [SOLDIER]
    assert driver.state.player("Ann").mercenaries == 2


def test_fury_and_death_never_strike_their_users_land_and_a_useless_fury_is_not_spent() -> None:
    driver = started()
    for text, problem in (("Ann uses death Three Rivers", "their own territory"),
                          ("Cy uses fury The Hanging Tongue", "not spent"),
                          ("Cy uses fury Marrow", "their own territory")):
        with pytest.raises(InvalidAdjustment, match=problem):
            driver.adjust(text, "a reason")
    assert driver.state.player("Cy").ability_uses["fury"] == 2
    assert driver.state.player("Ann").ability_uses["death"] == 2
    driver.adjust("Ann uses death Nyghtwald", "Death")
    nyghtwald = driver.state.territory("Nyghtwald")
    assert nyghtwald.plagued and nyghtwald.owner is None and driver.state.player("Ann").ability_uses["death"] == 1


# --- payments --------------------------------------------------------------------------------------------


def test_pay_moves_coins_and_gems_between_players_and_the_bank() -> None:
    driver = started()
    driver.adjust("pay Cy Ann 3", "pay")
    driver.adjust("pay bank Bo 2 gems", "Bo draws 2 gems for a card")
    driver.adjust("pay Bo bank 1 gem", "returned")
    kingdom = driver.state
    assert [p.copper for p in kingdom.players] == [6, 2, 1] and kingdom.player("Bo").gems == 1
    assert driver.take_messages()[-1] == "Correction: Bo pays the bank 1 gem (returned)"
    for text in ("pay Ann Bo 99", "pay Ann Ann 1", "pay Zed Bo 1", "pay Ann Bo 1 rubies", "pay Ann Bo",
                 "pay bank Bo 40 gems", "pay Ann Bo 0"):
        with pytest.raises(InvalidAdjustment):
            driver.adjust(text, "pay")
    assert [p.copper for p in kingdom.players] == [6, 2, 1]


def test_purse_corrections_are_hidden_on_the_shared_screen() -> None:
    driver = started()
    driver.take_messages()
    driver.adjust("Ann copper +5", "a deal")
    said = driver.take_messages()
    assert said == ["Correction: Ann's copper changed (hidden) (a deal)"]
    with pytest.raises(InvalidAdjustment) as refused:
        driver.adjust("Ann silver -1", "a deal")
    assert "it is" not in str(refused.value)


# --- the rules the planted bugs showed untested ------------------------------------------------------


def landless_ann(characters: tuple[str, str, str] = ("Dravanof", "Slaine", "Brom"), events: int = 10,
                 options: dict[str, object] | None = None) -> Driver:
    """Ann's soldiers are all dead before she places any, so she starts without land; Bo holds
    Nyghtwald (2 copper), Cy Marrow (4 copper). Ann's first turn is next."""
    driver = Driver(GAME, PLAYERS, options or {})
    answer(driver, *characters, "no", str(events), *LAND, "Ann")
    driver.adjust("Ann dead +6", "a plague of the camp")
    answer(driver, "Three Rivers")  # no military card to place: she starts without a territory
    answer(driver, "Nyghtwald", "s", "2", "Marrow", "s s s", "4")
    return driver


def test_a_player_without_land_takes_exactly_3_copper() -> None:
    driver = landless_ann()
    kingdom = driver.state
    assert kingdom.owned_by("Ann") == [] and kingdom.player("Ann").copper == 3
    assert kingdom.phase == "actions" and kingdom.player("Ann").feast_cards == 0


def test_a_player_without_land_blackmails_exactly_3_copper() -> None:
    driver = landless_ann()  # Ann took her 3 copper; now she holds Cy's bastard for her next turn
    driver.adjust("Ann hirelings +1", "drew the bastard of Cy's house")
    answer(driver, "end the action phase", "none")
    answer(driver, "2", "2 copper", "end the action phase", "another event", "done")  # Bo's turn
    answer(driver, "0", "end the action phase", "another event", "done")  # Cy's turn: 4 + 4 copper
    assert driver.state.player("Cy").copper == 8
    answer(driver, "Cy")  # Ann blackmails Cy: no land, so 3 copper from him
    assert [driver.state.player(name).copper for name in ("Ann", "Cy")] == [6, 5]
    assert "Ann owns no territory: 3 copper from Cy (blackmail)." in driver.take_messages()


def test_tribute_gives_a_player_without_land_4_copper() -> None:
    driver = landless_ann()
    answer(driver, "end the action phase", "none", "2", "2 copper", "end the action phase", "Tribute")
    answer(driver, "1")  # Marrow's gem value, for Cy's share of the Tribute; Ann comes last
    assert driver.state.player("Ann").copper == 3 + 4
    assert "Tribute: Ann owns no territory and takes 4 copper." in driver.take_messages()


def test_cawdwell_without_land_may_tax_any_player() -> None:
    driver = landless_ann(("Cawdwell", "Slaine", "Brom"))
    answer(driver, "taxes")
    assert isinstance(driver.pending, Choice) and driver.pending.options == ("Bo", "Cy")
    answer(driver, "Cy")
    assert [p.copper for p in driver.state.players] == [3 + 3, 2, 4 - 3]


def test_the_34th_and_last_feast_card_is_dealt() -> None:
    driver = Driver(GAME, PLAYERS, {})
    answer(driver, "Dravanof", "Slaine", "Brom", "no", "10", *LAND, "Ann")
    answer(driver, "Three Rivers", "s s", "3", "Nyghtwald", "s", "2", "Marrow", "s s s")
    driver.adjust("Bo feast +33", "the feast deck as it stands")
    answer(driver, "4", "1", "3 copper")  # Ann's resource phase takes the one card left
    kingdom = driver.state
    assert kingdom.player("Ann").feast_cards == 1 and kingdom.feast_cards_drawn == 34
    assert "Ann takes a feast card and 3 copper for Three Rivers." in driver.take_messages()


def test_once_the_feast_deck_is_used_up_no_feast_card_is_dealt() -> None:
    driver = Driver(GAME, PLAYERS, {})
    answer(driver, "Dravanof", "Slaine", "Brom", "no", "10", *LAND, "Ann")
    answer(driver, "Three Rivers", "s s", "3", "Nyghtwald", "s", "2", "Marrow", "s s s")
    driver.adjust("Bo feast +34", "the feast deck as it stands")
    answer(driver, "4", "1", "3 copper")  # Ann's resource phase: no card left to take
    kingdom = driver.state
    assert kingdom.player("Ann").feast_cards == 0 and kingdom.feast_cards_drawn == 34
    messages = driver.take_messages()
    assert "The feast deck is used up: no feast card this time." in messages
    assert "Ann takes 3 copper for Three Rivers." in messages


def test_under_short_payment_nothing_a_player_holding_exactly_the_amount_pays_it() -> None:
    driver = Driver(GAME, PLAYERS, {"rulings": {"short-payment": "nothing"}})
    answer(driver, "Tyber", "Slaine", "Brom", "no", "6", *LAND, "Ann")
    answer(driver, "Three Rivers", "s s", "3", "Nyghtwald", "s", "3", "Marrow", "s s s", "4")
    answer(driver, "1", "3 copper", "attack", "Nyghtwald", "soldier, undefended")  # Bo holds exactly 3
    assert [p.copper for p in driver.state.players[:2]] == [3 + 3 + 3, 0]
    assert "Pillage: Bo pays Ann 3 copper." in driver.take_messages()
    poorer = Player("Cy", copper=2)
    assert rules.payable(poorer, 3, "nothing") == 0 and rules.payable(Player("Di", copper=3), 3, "nothing") == 3


def test_the_feast_waits_for_the_tasting_before_the_poison() -> None:
    driver = started(events=3)
    driver.adjust("Ann hirelings +1", "her own bastard")
    answer(driver, "1", "1 gems", "end", "none", "2", "2 gems", "end", "Ann", "Cy", "0", "end")
    assert isinstance(driver.pending, TableStep) and "Serve and taste" in driver.pending.prompt
    driver.adjust("Ann hirelings -1", "discarded to taste a card")
    answer(driver, "done", "Cy")  # Cy sits with Ann's heir: poisoned, and no bastard left to save it
    assert not driver.state.player("Ann").heir_alive
