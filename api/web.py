"""The web pages: the games index and the replay viewer (static HTML + a little JS)."""

from __future__ import annotations

from flask import Blueprint, redirect

web = Blueprint("web", __name__, static_folder="static", template_folder="templates")


@web.get("/")
def index():  # type: ignore[no-untyped-def]
    return redirect("/docs")
