"""What a page looks like to a reader, measured in the browser from rendered boxes (never
from the CSS that is meant to produce them): text that overflows its box or is cut off, a
word broken across two lines, text smaller than 12 px on screen, a tap target smaller than
44 x 44 px, and axe-core's WCAG 2.1 AA rules.

The rules hold in any language: words are `Intl.Segmenter` word segments of the page's
`lang`. A segment with a Latin letter or digit must stay on one line; a break between two
Han characters is the Chinese typesetting convention (W3C clreq, "line breaking"), so a
CJK segment may wrap anywhere, exactly as a Chinese reader expects."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

#: every fault on the page: [kind, what, where] (kind: overflow, cut, broken, small, tap)
FAULTS_JS = r"""(opts) => {
  const out = [];
  const seen = new Set();
  const say = (kind, what, where) => {
    const key = kind + what;
    if (!seen.has(key)) { seen.add(key); out.push([kind, what.slice(0, 80), where]); }
  };
  const shown = (el) => {
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === 'none' || cs.visibility === 'hidden' || cs.opacity === '0') return false;
      if (e.classList.contains('visually-hidden')) return false;  // for screen readers only
    }
    return true;
  };
  const name = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    else if (el.classList.length) s += '.' + [...el.classList].join('.');
    const p = el.parentElement;
    return p && p !== document.body ? `${name(p).split(' ').slice(-1)[0]} > ${s}` : s;
  };
  // the scale an element is drawn at (a board shrunk to fit, an SVG drawn smaller)
  const scale = (el) => {
    if (el instanceof SVGElement) {
      const m = el.getScreenCTM();
      return m ? Math.hypot(m.a, m.b) : 1;
    }
    if (typeof el.currentCSSZoom === 'number') return el.currentCSSZoom;  // a board's zoom
    for (let e = el; e; e = e.parentElement) {
      if (e.offsetWidth > 20) return e.getBoundingClientRect().width / e.offsetWidth;
    }
    return 1;
  };
  const lang = document.documentElement.lang || 'en';
  const seg = new Intl.Segmenter(lang, {granularity: 'word'});
  const latin = /[\p{Script=Latin}\p{Nd}]/u;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const vw = document.documentElement.clientWidth;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.data;
    if (!text.trim()) continue;
    const el = node.parentElement;
    if (!el || ['SCRIPT', 'STYLE', 'TITLE', 'OPTION', 'NOSCRIPT'].includes(el.tagName)) continue;
    if (!shown(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    if (!rects.length) continue;
    // too small to read
    const px = parseFloat(getComputedStyle(el).fontSize) * scale(el);
    if (px < 11.95) say('small', `${text.trim()} (${px.toFixed(1)} px)`, name(el));
    // outside its box: past the element that holds it, or clipped by a box that does not
    // scroll, or past the window's edge
    for (const r of rects) {
      if (r.right > vw + 1 || r.left < -1)
        say('overflow', `${text.trim()} (past the window's edge)`, name(el));
      for (let a = el; a && a !== document.body; a = a.parentElement) {
        const cs = getComputedStyle(a);
        const clips = cs.overflowX !== 'visible' || cs.overflowY !== 'visible';
        if (!clips) continue;
        const scrolls = /(auto|scroll)/.test(cs.overflowX + cs.overflowY);
        if (scrolls) break;  // a box that scrolls shows all of it
        const b = a.getBoundingClientRect();
        if (r.right > b.right + 1 || r.bottom > b.bottom + 1
            || r.left < b.left - 1 || r.top < b.top - 1)
          say('cut', text.trim(), name(a));
        break;
      }
    }
    if (el instanceof HTMLElement && getComputedStyle(el).textOverflow === 'ellipsis'
        && el.scrollWidth > el.clientWidth + 1) say('cut', `${text.trim()} (…)`, name(el));
    if (el instanceof HTMLElement && el.scrollHeight > el.clientHeight + 1
        && getComputedStyle(el).overflowY === 'hidden') say('cut', text.trim(), name(el));
    // a word across two lines
    if (rects.length < 2) continue;
    for (const s of seg.segment(text)) {
      if (!s.isWordLike || !latin.test(s.segment)) continue;
      const r = document.createRange();
      r.setStart(node, s.index);
      r.setEnd(node, s.index + s.segment.length);
      const tops = new Set([...r.getClientRects()].filter((q) => q.width > 0)
                                                  .map((q) => Math.round(q.top)));
      if (tops.size > 1) say('broken', s.segment, name(el));
    }
  }
  // tap targets: whatever a finger presses, as large as a fingertip
  if (opts.taps) {
    const targets = 'a[href], button, select, input:not([type=hidden]), summary, textarea, '
      + '[role=button], [tabindex]:not([tabindex="-1"]), .events li, .pickable';
    for (const t of document.querySelectorAll(targets)) {
      if (!shown(t)) continue;
      // a checkbox or radio is pressed through its label
      const el = (t.matches('input[type=checkbox], input[type=radio]') && t.closest('label')) || t;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.width < 43.5 || r.height < 43.5)
        say('tap', `${(el.innerText || el.value || el.getAttribute('aria-label') || '').trim()} `
            + `(${Math.round(r.width)}x${Math.round(r.height)})`, name(el));
    }
  }
  return out;
}"""


def faults(page, taps: bool = True) -> list[list[str]]:
    """Every layout fault on the page as [kind, what, where]."""
    result: list[list[str]] = page.evaluate(FAULTS_JS, {"taps": taps})
    return result


@cache
def _axe_source() -> str:
    """axe-core's script, as the axe-playwright-python package ships it (PyPI): the one copy
    of axe on this machine, so nothing is fetched by the tests."""
    return (resources.files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")


#: WCAG 2.0 and 2.1, levels A and AA (axe's tags)
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_violations(page) -> list[dict[str, Any]]:
    """axe-core's violations of the WCAG 2.1 AA rules on the page as it is now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=_axe_source())
    result: list[dict[str, Any]] = page.evaluate(
        """(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags},
                                        resultTypes: ['violations']})
          .then((r) => r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
             nodes: v.nodes.slice(0, 40).map((n) => n.target.join(' ') + ': '
                                              + (n.failureSummary || '').slice(0, 160))})))""",
        AXE_TAGS)
    return result
