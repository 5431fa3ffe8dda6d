#!/usr/bin/env bash
# Build the course website's two editions from the committed executed notebooks (nothing is
# re-executed); any Sphinx warning fails the build. Needs the site (or dev) extra.
#   site/_build/html/             the student's site, the one to publish: no solution in its pages,
#                                 one download per chapter (the student's notebook)
#   site/_build/teacher/html/     the teacher's site: solutions folded, the teacher's notebooks too;
#   site/_build/teacher.zip       the same as one archive to hand to teachers. No student page links it.
# Extra arguments go to both sphinx-build runs.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p site/play/tables
PYTHON="${PYTHON:-.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3
# the "Play and ask" page's tables: every state value of each rule set, gzip-compressed (about 5 MB)
echo "site: the play page's tables (each solved first when not cached: about a minute in all)"
for rules in yahtzee yahtzee-no-bonus yatzy; do
    "$PYTHON" -m yatzy_core export --what values --rules "$rules" --force "site/play/tables/$rules.values.gz"
done
echo "site: building the teacher's edition, then the student's, with Sphinx (a few minutes each; its progress below)"
"$PYTHON" -m sphinx -b html -W --keep-going -t teacher site site/_build/teacher/html "$@"
rm -f site/_build/teacher.zip.partial
(cd site/_build/teacher && "$PYTHON" -m zipfile -c ../teacher.zip.partial html)
mv site/_build/teacher.zip.partial site/_build/teacher.zip
"$PYTHON" -m sphinx -b html -W --keep-going site site/_build/html "$@"
echo "student site: $(pwd)/site/_build/html/index.html"
echo "teacher site: $(pwd)/site/_build/teacher/html/index.html (archive: site/_build/teacher.zip)"
