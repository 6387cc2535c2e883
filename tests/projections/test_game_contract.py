"""One battery for every registered game: random legal play and the engine's invariants.

Each game module adds its own invariants (conservation of cards and tokens) in its own
test file; this file proves what every reducer owes the engine.
"""

from __future__ import annotations

import ast
import copy
import importlib
import importlib.util
import json
import pkgutil
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections import GAMES, get_rules
from projections.playout import created_for, play
from projections.replay import Folder
from projections.rules import Action, IllegalAction

CASES = [(slug, n) for slug, cls in sorted(GAMES.items()) for n in cls.player_counts]
MAX_STEPS = 3000


def _play(slug: str, players: int, seed: int):
    rules = get_rules(slug)
    rng = random.Random(seed)
    return rules, play(rules, created_for(rules, players), rng.randrange, f"seed-{seed}",
                       max_steps=MAX_STEPS)


def _envelopes(created, actions):
    envs = [{"seq": 0, "type": "game_created", "actor": "table", "data": created}]
    envs += [{"seq": i + 1, **a.to_json()} for i, a in enumerate(actions)]
    return envs


@pytest.mark.parametrize(("slug", "players"), CASES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_finishes_with_a_result(slug, players, seed):
    rules, game = _play(slug, players, seed)
    result = rules.result(game.final)
    assert result is not None, f"{slug} did not finish in {MAX_STEPS} steps"
    assert len(result["scores"]) == players
    assert set(result["winners"]) <= set(range(players))
    assert rules.to_act(game.final) == () or rules.legal_actions(game.final) == []
    json.dumps(result)


@pytest.mark.parametrize(("slug", "players"), CASES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_replay_is_deterministic_and_survives_a_json_round_trip(slug, players, seed):
    rules, game = _play(slug, players, seed)
    as_json = json.loads(json.dumps([a.to_json() for a in game.actions]))
    state = rules.initial_state(json.loads(json.dumps(game.created)))
    for raw, expected in zip(as_json, game.states[1:], strict=True):
        state = rules.apply(state, Action.of(raw["type"], raw["actor"], raw["data"]))
        assert state == expected


@pytest.mark.parametrize(("slug", "players"), CASES)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_undo_after_any_action_restores_the_exact_previous_state(slug, players, seed):
    rules, game = _play(slug, players, seed)
    envs = _envelopes(game.created, game.actions)
    folder = Folder(rules, "table")
    for i, env in enumerate(envs):
        folder.feed(env)
        if i == 0:
            continue
        before, after = game.states[i - 1], game.states[i]
        undo = {"seq": len(folder.envelopes) + 1000 * i, "type": "undo", "actor": "table",
                "data": {}}
        scratch = Folder(rules, "table", fallback=folder.lookup, event_at=folder.envelopes.get)
        scratch.resume(folder.last)
        undo["seq"] = folder.last.seq + 1
        assert scratch.feed(undo).state == before
        redo = {"seq": undo["seq"] + 1, "type": "redo", "actor": "table", "data": {}}
        assert scratch.feed(redo).state == after


@pytest.mark.parametrize(("slug", "players"), CASES)
def test_apply_never_mutates_its_inputs(slug, players):
    rules, game = _play(slug, players, 7)
    for state, action in zip(game.states, game.actions, strict=False):
        snapshot = copy.deepcopy(state)
        rules.apply(state, action)
        assert state == snapshot


@pytest.mark.parametrize(("slug", "players"), CASES)
def test_views_are_json_for_every_seat_and_spectators(slug, players):
    rules, game = _play(slug, players, 11)
    for state in game.states[:: max(1, len(game.states) // 20)]:
        for seat in [None, "all", *range(players)]:
            json.dumps(rules.view(state, seat))
        json.dumps(rules.legal_actions(state, None))


@pytest.mark.parametrize(("slug", "players"), CASES)
def test_an_unknown_action_type_is_refused_by_name(slug, players):
    rules, game = _play(slug, players, 3)
    with pytest.raises(IllegalAction) as err:
        rules.apply(game.states[min(2, len(game.states) - 1)],
                    Action.of("fly_to_the_moon", 0, {}))
    assert "fly_to_the_moon" in err.value.message


@pytest.mark.parametrize(("slug", "players"), CASES)
def test_every_listed_action_type_has_a_data_schema(slug, players):
    rules, game = _play(slug, players, 5)
    for state in game.states[:: max(1, len(game.states) // 20)]:
        for proposal in rules.legal_actions(state, None):
            assert proposal["type"] in rules.action_schemas


# -- one shape for every game (issue #22, SHAPE.md) -----------------------------------------
#: SHAPE.md's table, written from it: each module of a game package and the public names it
#: must define (the package's own class and `__all__` are checked apart)
#: a game's packages beyond the shape: Thrones' card abilities as data (issue #30, the
#: contract docs/games/thrones-abilities.md), which the edition loads before apply/
EXTRA = {"thrones": {"abilities"}}
SHAPE = {
    "state": ("State", "initial_state"),
    "actions": ("ACTIONS",),
    "apply": (),
    "legal": ("to_act", "legal_actions"),
    "chance": ("fill_chance", "chance_slots"),
    "scoring": ("result",),
    "views": ("view",),
    "words": ("labels",),
    "edition": ("Components", "edition_problems"),
}
MAX_FUNCTION_LINES = 40


def _package_dir(slug: str) -> Path | None:
    """The game's package directory, or None when the game is still a single module."""
    spec = importlib.util.find_spec(f"projections.{slug}")
    locations = spec.submodule_search_locations if spec else None
    return Path(next(iter(locations))) if locations else None


def _shape_problems(slug: str) -> list[str]:
    """What the game's package lacks of SHAPE.md's table, one line per missing piece."""
    if _package_dir(slug) is None:
        return [f"projections/{slug} is a module, not a package"]
    package = importlib.import_module(f"projections.{slug}")
    cls = GAMES[slug]
    problems = [] if getattr(package, cls.__name__, None) is cls else [
        f"__init__ does not define {cls.__name__}"]
    if getattr(package, "__all__", None) != [cls.__name__]:
        problems.append(f"__init__.__all__ is not [{cls.__name__!r}]")
    present = {m.name for m in pkgutil.iter_modules(package.__path__)}
    problems += [f"no module {name}" for name in sorted(set(SHAPE) - present)]
    extra = set(SHAPE) | EXTRA.get(slug, set())
    problems += [f"a module outside the shape: {name}" for name in sorted(present - extra)]
    for name in sorted(set(SHAPE) & present):
        module = importlib.import_module(f"projections.{slug}.{name}")
        problems += [f"{name} does not define {public}" for public in SHAPE[name]
                     if not hasattr(module, public)]
    if "apply" in present:
        problems += _applier_problems(slug, cls)
    return problems


def _applier_problems(slug: str, cls) -> list[str]:
    """One record per action type (actions.ACTIONS, the class's `actions`), its rule
    apply.apply_<type>, its choices legal.<type>_steps, its sentence words.<type>_sentence:
    a part of an action is found where its name says."""
    actions = importlib.import_module(f"projections.{slug}.actions")
    declared = getattr(actions, "ACTIONS", ())
    problems = [] if tuple(cls.actions) == tuple(declared) and declared else [
        f"{cls.__name__}.actions is not actions.ACTIONS"]
    where = {"apply": ("apply", "apply_{}"), "steps": ("legal", "{}_steps"),
             "sentence": ("words", "{}_sentence")}
    for record in declared:
        for part, (module_name, pattern) in where.items():
            module = importlib.import_module(f"projections.{slug}.{module_name}")
            expected = getattr(module, pattern.format(record.name), None)
            if getattr(record, part) is not expected:
                problems.append(f"{record.name}.{part} is not {module_name}."
                                f"{pattern.format(record.name)}")
    return problems


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_game_is_a_package_with_the_same_modules_and_public_names(slug):
    if not GAMES[slug].actions:  # issue #29: the games are declared one by one
        pytest.xfail(f"{slug} does not declare its actions as records yet")
    problems = _shape_problems(slug)
    assert not problems, f"{slug} is not in the shape of SHAPE.md: " + "; ".join(problems)


def _game_files(slug: str) -> list[Path]:
    """Every source file of the game: its package, or while it is still flat, its module
    and the `<slug>_*.py` modules beside it."""
    package = _package_dir(slug)
    if package is not None:
        return sorted(package.rglob("*.py"))
    here = Path(importlib.util.find_spec("projections").origin).parent
    return sorted([here / f"{slug}.py", *here.glob(f"{slug}_*.py")])


def _long_functions(path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"))
    return [f"{path.name}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_no_function_in_a_game_is_over_40_lines(slug):
    long = [entry for path in _game_files(slug) for entry in _long_functions(path)]
    assert not long, f"{slug} has functions over {MAX_FUNCTION_LINES} lines: " + "; ".join(long)
