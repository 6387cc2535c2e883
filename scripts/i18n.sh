#!/usr/bin/env bash
# Rebuild the message catalogs after changing a sentence (docs/design.md, "Sentences as data"):
# extract every marked message of the rules, shells, templates and pages into messages.pot,
# then merge it into each language's .po (new keys arrive untranslated; the catalog test
# fails until they are translated). The .po files are the source; nothing compiled is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
PYBABEL="${PYBABEL:-.venv/bin/pybabel}"
"$PYBABEL" extract -F babel.cfg --no-wrap \
    --sort-by-file --project chronicle --omit-header -o projections/locale/messages.pot .
for po in projections/locale/*/LC_MESSAGES/messages.po; do
    "$PYBABEL" update --no-wrap --no-fuzzy-matching --ignore-obsolete -i projections/locale/messages.pot -o "$po" \
        -l "$(basename "$(dirname "$(dirname "$po")")")"
done
