"""Driving the move builder (api/static/choices.js) as a person does: tapping its labelled
buttons, never posting a move. Shared by the browser tests."""

from __future__ import annotations

import json
from typing import Any

from projections import GAMES

#: wait until the builder has its answer from the rules (a tap asks them again)
SETTLE_JS = """async () => {
  for (let i = 0; i < 800 && document.querySelector('#actions[data-loading]'); i++)
    await new Promise((r) => setTimeout(r, 15));
  return !document.querySelector('#actions[data-loading]');
}"""

#: one tap towards `want` ({type, actor, data}): the action type in the menu, then at each
#: choice the option the move's data holds at the choice's place (a list: the next of its
#: items not yet picked), "done" once a list holds them all, Record once the move is it
TOWARDS_JS = """async (want) => {
  const canon = (v) => JSON.stringify(v, (k, x) => (x && typeof x === 'object' && !Array.isArray(x)
    ? Object.fromEntries(Object.keys(x).sort().map((y) => [y, x[y]])) : x));
  const same = (a, b) => canon(a) === canon(b);
  const box = document.getElementById('actions');
  const at = (path) => {
    let v = want.data;
    for (const p of path.split('.').map((x) => (/^\\d+$/.test(x) ? Number(x) : x))) {
      v = v === undefined || v === null ? undefined : v[p];
    }
    return v;
  };
  const menu = box.querySelector('.move-menu');
  if (menu) {
    // the action's first choice offered in the menu: its option, in one tap
    const inline = [...menu.querySelectorAll('button[data-action-option]')].find((x) =>
      x.dataset.actionOption === want.type && same(JSON.parse(x.dataset.actor), want.actor) &&
      same(JSON.parse(x.dataset.value), at(x.dataset.choice)));
    if (inline) { inline.click(); return {tap: 'choose'}; }
    const b = [...menu.querySelectorAll('button[data-action]')].find((x) =>
      x.dataset.action === want.type && same(JSON.parse(x.dataset.actor), want.actor));
    if (!b) return {tap: 'stuck', why: 'not in the menu'};
    b.click(); return {tap: 'menu'};
  }
  const builder = box.querySelector('.move-builder');
  if (!builder) return {tap: 'stuck', why: 'no builder'};
  if (builder.dataset.type !== want.type || !same(JSON.parse(builder.dataset.actor), want.actor)) {
    const back = builder.querySelector('[data-back]');
    if (back) { back.click(); return {tap: 'back'}; }
    return {tap: 'stuck', why: `building ${builder.dataset.type}`};
  }
  const move = builder.dataset.move ? JSON.parse(builder.dataset.move) : null;
  const record = builder.querySelector('.record-action[data-ready]:not([disabled])');
  const choice = builder.querySelector('.choice');
  if (move && same(move.data, want.data) && record) { record.click(); return {tap: 'record'}; }
  if (!choice) return {tap: 'stuck', why: 'complete, but not the move wanted', move};
  const path = choice.dataset.choice.split('.').map((p) => (/^\\d+$/.test(p) ? Number(p) : p));
  let target = want.data;
  for (const p of path) target = target === undefined || target === null ? undefined : target[p];
  const picks = JSON.parse(builder.dataset.picks).filter((p) => p.choice === choice.dataset.choice);
  const outcome = Boolean(choice.dataset.outcome);
  const options = [...choice.querySelectorAll('button.option')];
  const tapValue = (v) => {
    const b = options.find((o) => same(JSON.parse(o.dataset.value), v));
    if (!b) return {tap: 'stuck', why: `${choice.dataset.choice}: ${canon(v)} is not offered`,
      offered: options.map((o) => o.dataset.value)};
    b.click(); return {tap: outcome ? 'pick' : 'choose'};
  };
  if (choice.dataset.kind === 'one') return tapValue(target);
  const have = picks.filter((p) => !p.end).map((p) => p.value);
  const wanted = Array.isArray(target) ? target : [];
  let next;
  if (choice.dataset.kind === 'tally') {  // counts: a value still short of its count
    const counts = target && typeof target === 'object' ? target : {};
    const tallied = {};
    for (const v of have) tallied[v] = (tallied[v] || 0) + 1;
    next = Object.keys(counts).filter((k) => counts[k] > (tallied[k] || 0));
  } else if (choice.dataset.kind === 'sequence') {
    next = have.length < wanted.length ? [wanted[have.length]] : [];
  }
  else {
    const left = [...wanted];
    for (const v of have) {
      const i = left.findIndex((x) => same(x, v));
      if (i >= 0) left.splice(i, 1);
    }
    // the first still wanted that is offered now (a subset's order is the tapper's)
    next = left.filter((v) => options.some((o) => same(JSON.parse(o.dataset.value), v)));
    if (left.length && !next.length) next = left;
  }
  if (next.length) return tapValue(next[0]);
  const end = builder.querySelector('[data-end]');
  if (end) { end.click(); return {tap: 'done'}; }
  return {tap: 'stuck', why: `${choice.dataset.choice}: all picked, but no way to end`};
}"""

#: one tap of a patient player or recorder: the first action type that is not giving up,
#: the first option, else Record once ready, else "done"
PATIENT_JS = """async (r) => {
  const box = document.getElementById('actions');
  const menu = box.querySelector('.move-menu');
  if (menu) {
    const all = [...menu.querySelectorAll('button[data-action]')]
      .filter((b) => !['concede', 'abandon'].includes(b.dataset.action));
    if (!all.length) return 'none';
    all[r === undefined ? 0 : Math.floor(r * all.length)].click(); return 'choose';
  }
  const builder = box.querySelector('.move-builder');
  if (!builder) return 'none';
  const ready = builder.querySelector('.record-action[data-ready]:not([disabled])');
  const choice = builder.querySelector('.choice');
  const options = choice ? [...choice.querySelectorAll('button.option')] : [];
  if (ready && (!options.length || r === undefined || r < 0.3)) { ready.click(); return 'record'; }
  if (options.length) {
    options[r === undefined ? 0 : Math.floor(r * options.length)].click();
    return choice.dataset.outcome ? 'pick' : 'choose';
  }
  const end = builder.querySelector('[data-end]');
  if (end) { end.click(); return 'choose'; }
  return 'stuck';
}"""


def declared(slug: str) -> bool:
    """Whether `slug`'s moves are built from declared choices (the new screen)."""
    return bool(GAMES[slug].actions) if slug in GAMES else False


def settle(page) -> None:
    assert page.evaluate(SETTLE_JS), "the move builder is still waiting for the rules"


def tap_towards(page, want: dict[str, Any]) -> str:
    """One tap towards the move `want`; what was tapped (menu, choose, pick, done, record)."""
    settle(page)
    got = page.evaluate(TOWARDS_JS, want)
    assert got["tap"] != "stuck", (got, want)
    return str(got["tap"])


def enter(page, want: dict[str, Any], seq: int) -> dict[str, int]:
    """Enter the move `want` by tapping its choices, then Record; the taps by kind. Waits
    for the log to move on past `seq`, and no refusal."""
    taps: dict[str, int] = {}
    for _ in range(400):
        tapped = tap_towards(page, want)
        taps[tapped] = taps.get(tapped, 0) + 1
        if tapped == "record":
            page.wait_for_function(
                f"document.getElementById('record').dataset.seq !== '{seq}' "
                "|| !document.getElementById('error').hidden")
            assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
            return taps
    raise AssertionError(f"{want} not entered in 400 taps")


def build(page, want: dict[str, Any]) -> int:
    """Tap the move `want`'s choices up to Record, not Record itself; the taps."""
    for n in range(400):
        settle(page)
        move = page.evaluate("() => { const b = document.querySelector('#actions .move-builder');"
                             " return b && b.dataset.move ? JSON.parse(b.dataset.move) : null; }")
        if move is not None and as_json(move["data"]) == as_json(want["data"]):
            return n
        assert tap_towards(page, want) != "record"
    raise AssertionError(f"{want} not built in 400 taps")


def patient_tap(page, r: float | None = None) -> str:
    """One tap of PATIENT_JS (`r` in [0, 1): a whim among the buttons instead of the first)."""
    settle(page)
    return str(page.evaluate(PATIENT_JS, r))


def as_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
