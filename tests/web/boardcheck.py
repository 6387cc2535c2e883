"""Check a rendered board against the state JSON the API serves for the same step.

Renderers mark what they show: `[data-path][data-scalar]` holds one scalar of the view (its
`data-value` when the text is a label or a name, else its text), `[data-path][data-list]`
holds one `[data-item]` child per list element (JSON).
"""

from __future__ import annotations

import json
from typing import Any

PROBE_JS = """(board) => {
  const out = {scalars: [], lists: []};
  for (const el of board.querySelectorAll('[data-path][data-scalar]'))
    out.scalars.push([el.dataset.path, el.dataset.value ?? el.textContent]);
  for (const el of board.querySelectorAll('[data-path][data-list]'))
    out.lists.push([el.dataset.path, [...el.querySelectorAll(':scope > [data-item]')]
      .map((c) => JSON.parse(c.dataset.item))]);
  return out;
}"""


def at_path(view: Any, path: str) -> Any:
    value = view
    for key in path.split("."):
        if isinstance(value, list):
            value = value[int(key)]
        elif isinstance(value, dict):
            value = value[key]
        else:
            raise KeyError(path)
    return value


def text_of(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def check_board(page: Any, doc: dict[str, Any]) -> int:
    """Wait for step doc["seq"] on the board; assert every marked value; the count checked."""
    board = page.locator(f'#board[data-loaded="{doc["seq"]}"]')
    board.wait_for()
    probes = board.evaluate(PROBE_JS)
    view = doc["view"]
    for path, text in probes["scalars"]:
        assert text == text_of(at_path(view, path)), (doc["seq"], path, text)
    for path, items in probes["lists"]:
        want = at_path(view, path)
        assert items == (want if want is not None else []), (doc["seq"], path)
    count = len(probes["scalars"]) + len(probes["lists"])
    assert count > 0, "the board shows no value of the state"
    return count


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
