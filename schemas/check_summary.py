#!/usr/bin/env python3
"""Validates msprof-replay's summary.json files against summary.schema.json.

    check_summary.py OPPROF_.../summary.json [more ...]

Prints one line per violation (file, where in the document, what is wrong)
and exits 1 when there is any, 0 when every file follows the schema. An
OPPROF_* folder stands for its summary.json. Needs Python's jsonschema
(scripts/setup.sh installs it).
"""

import json
import os
import sys

import jsonschema

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "summary.schema.json")


def load_schema(path=SCHEMA):
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def problems(document, schema):
    """'where: what' for each violation of `schema` in `document`, in order."""
    validator = jsonschema.Draft202012Validator(schema)
    found = []
    for error in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path)):
        where = "".join("[%d]" % p if isinstance(p, int) else ".%s" % p
                        for p in error.absolute_path) or "(the document)"
        found.append("%s: %s" % (where, error.message))
    return found


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    schema = load_schema()
    failed = False
    for path in argv:
        if os.path.isdir(path):
            path = os.path.join(path, "summary.json")
        try:
            with open(path, encoding="utf-8") as f:
                document = json.load(f)
        except (OSError, ValueError) as e:
            print("%s: cannot be read as JSON (%s)" % (path, e))
            failed = True
            continue
        for problem in problems(document, schema):
            print("%s: %s" % (path, problem))
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
