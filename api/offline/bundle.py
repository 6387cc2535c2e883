"""What the offline recorder loads into the browser, and where it comes from.

Two parts (README, "Recording offline"):
- the Pyodide runtime (CPython compiled to WebAssembly), installed from the npm registry by
  scripts/offline-deps.sh into vendor/pyodide, pinned by version; served as it is, gzipped
  where the script compressed it;
- the rules: an archive that chronicle packs from its own code at the first request —
  the `projections` package with its edition data, its one pure-Python dependency
  (marshmallow, as installed beside the server), the server's input checks (events/shape.py
  with schemas.py and errors.py) and the offline table (table.py) — so the
  tablet always folds with exactly the code the server runs. The archive is reproducible
  (sorted entries, fixed times), so every worker process serves the same bytes under the
  same name, and its name carries its hash, so a browser caches it for ever.

Nothing here is a rule; this module only lists and packs files.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import os
import zipfile
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
STATIC = Path(__file__).resolve().parents[1] / "static"
#: the files of the npm package the browser loads (scripts/offline-deps.sh copies them)
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
#: the pages' own files the recorder needs offline (the service worker keeps them)
PAGE_FILES = ("app.js", "choices.js", "record.js", "style.css", "offline/offline.js",
              "offline/offline.css", "offline/worker.js", "offline/icon.svg", "offline/home.html",
              "offline/home.js")
#: top-level packages of the rules archive: the rules and what they import beyond the stdlib
PACKAGES = ("projections", "marshmallow")
SUFFIXES = (".py", ".json", ".typed", ".po", ".pot")  # .po: the catalogs render offline too
#: the modules of events/ the offline table imports: the shape of an action, its schemas
EVENTS_MODULES = ("errors.py", "schemas.py", "shape.py")
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def pyodide_dir() -> Path:
    """Where scripts/offline-deps.sh unpacked Pyodide (CHRONICLE_PYODIDE_DIR overrides)."""
    return Path(os.environ.get("CHRONICLE_PYODIDE_DIR") or ROOT / "vendor" / "pyodide")


def pyodide_version() -> str | None:
    """The installed Pyodide version, or None when the offline recorder is not installed."""
    marker = pyodide_dir() / ".installed"
    if not marker.is_file():
        return None
    found = marker.read_text().strip()
    return found if all((pyodide_dir() / name).is_file() for name in PYODIDE_FILES) else None


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"the offline rules archive needs the package {name!r}")
    return Path(next(iter(spec.submodule_search_locations)))


def _entries() -> list[tuple[str, bytes]]:
    """(name in the archive, content) of every file the browser's Python imports."""
    out: list[tuple[str, bytes]] = []
    for name in PACKAGES:
        base = _package_dir(name)
        for path in sorted(base.rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES and "__pycache__" not in path.parts:
                out.append((f"{name}/{path.relative_to(base).as_posix()}", path.read_bytes()))
    licence = _licence("marshmallow")
    if licence is not None:
        out.append(("marshmallow/LICENSE", licence))
    # the server's own input checks, so the tablet refuses what the server would refuse:
    # these modules of events/ import only marshmallow, projections and each other (a test
    # keeps it so), under an events package that holds nothing else
    out.append(("events/__init__.py", b'"""The server\'s input checks, for the tablet."""\n'))
    for name in EVENTS_MODULES:
        out.append((f"events/{name}", (ROOT / "events" / name).read_bytes()))
    out.append(("offline_table.py", (Path(__file__).parent / "table.py").read_bytes()))
    return out


def _licence(dist: str) -> bytes | None:
    try:
        files = metadata.distribution(dist).files or []
    except metadata.PackageNotFoundError:
        return None
    for file in files:
        if file.name.upper().startswith(("LICENSE", "LICENCE")):
            return Path(str(file.locate())).read_bytes()
    return None


@cache
def rules_archive() -> bytes:
    """The rules as one zip, packed once per process, byte for byte the same in each."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, content in _entries():
            info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, content)
    return buf.getvalue()


@cache
def rules_version() -> str:
    return hashlib.sha256(rules_archive()).hexdigest()[:16]


@cache
def _page_files_hash() -> str:
    """The page files as this process serves them (read once: every game page names the
    offline version, and the files do not change under a running server)."""
    digest = hashlib.sha256()
    for name in (*PAGE_FILES, "offline/sw.js"):
        digest.update(name.encode() + b"\0" + (STATIC / name).read_bytes())
    return digest.hexdigest()


def version() -> str | None:
    """One name for everything the service worker keeps: a new Pyodide, new rules or new
    page files give a new name, so the tablet replaces its copy the next time it is online."""
    pyodide = pyodide_version()
    if pyodide is None:
        return None
    text = json.dumps([pyodide, rules_version(), _page_files_hash()])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def assets(games: list[str]) -> dict[str, Any]:
    """What the service worker keeps for offline use, and where the worker finds Pyodide and
    the rules; `{"available": false, ...}` when Pyodide is not installed."""
    current = version()
    if current is None:
        return {"available": False, "reason": "the offline recorder is not installed on this "
                "server (scripts/offline-deps.sh installs it; ./run and ./test run it)"}
    pages = [f"/static/web/{name}" for name in PAGE_FILES]
    boards = [f"/static/web/boards/{slug}.{ext}" for slug in games for ext in ("js", "css")]
    return {
        "available": True, "version": current, "pyodide_version": pyodide_version(),
        "pyodide": "/offline/pyodide/", "rules": f"/offline/rules-{rules_version()}.zip",
        "precache": [*(f"/offline/pyodide/{name}" for name in PYODIDE_FILES),
                     f"/offline/rules-{rules_version()}.zip", *pages, *boards,
                     "/games-catalog", "/manifest.webmanifest", "/i18n/en.json",
                     "/i18n/zh_Hans.json"],
    }


def manifest() -> dict[str, Any]:
    """The web app manifest: the recorder installs like an app and opens on the games."""
    return {
        "name": "chronicle: record table games", "short_name": "chronicle",
        "description": "Record a table game move by move, with or without a connection.",
        "start_url": "/", "scope": "/", "display": "standalone",
        "background_color": "#ffffff", "theme_color": "#2a4d69",
        "icons": [{"src": "/static/web/offline/icon.svg", "sizes": "any",
                   "type": "image/svg+xml", "purpose": "any"}],
    }


__all__ = ["PYODIDE_FILES", "assets", "manifest", "pyodide_dir", "pyodide_version",
           "rules_archive", "rules_version", "version"]
