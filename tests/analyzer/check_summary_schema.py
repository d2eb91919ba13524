#!/usr/bin/env python3
"""msprof-analyze reads summary.json as schemas/summary.schema.json defines it.

1. The schema catches what it must: documents with an unknown field, a
   missing field, a verdict that does not exist or a number of the wrong
   type fail it (so a check against it can fail at all).
2. Every summary.json the analyzer's tests read (tests/analyzer/data)
   follows the schema.
3. Every key the analyzer's reader reads is a field of the schema: each
   function of the reader names, after "// schema:", the definitions of the
   objects it reads, and each key it reads there must be one of theirs.
4. A document whose fields the analyzer reads have the wrong type fails the
   schema and is refused by msprof-analyze as a damaged replay result.
"""

import argparse
import copy
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "schemas"))
import check_summary  # noqa: E402  (schemas/, found through the path above)

MARKER = re.compile(r"^\s*//\s*schema:\s*(.*)$")
# How the reader reads a key: number(j, "key"), count(...), text(...),
# stats(...), flag(...), list<T>(...), object_at(...), array_at(...), j.at("key"),
# j.contains("key"), j["key"], j.value("key", ...).
KEY_READS = (
    re.compile(r'\b(?:number|count|text|stats|flag|object_at|array_at|list<[^>]*>)\(\s*[^,()]+(?:\([^()]*\))?\s*,\s*"([^"]+)"'),
    re.compile(r'\.(?:at|contains|value|find)\(\s*"([^"]+)"'),
    re.compile(r'\[\s*"([^"]+)"\s*\]'),
)


def fail(message):
    print(message)
    return False


def properties_of(schema, name):
    """The fields of definition `name`; "variant.launch_metrics" names the
    object a definition's field holds (the items, for an array)."""
    if name == "(root)":
        return set(schema["properties"])
    path = name.split(".")
    definition = schema["$defs"].get(path[0])
    for field in path[1:]:
        if definition is None:
            return None
        definition = definition.get("properties", {}).get(field)
        if definition is not None and definition.get("type") == "array":
            definition = definition.get("items")
    if definition is None:
        return None
    # A definition that may also be null (cache_level) has its object
    # among the alternatives.
    found = [definition] + definition.get("oneOf", []) + definition.get("anyOf", [])
    found = [d for d in found if "properties" in d]
    if not found:
        return None
    return set().union(*(d["properties"] for d in found))


def key_reads(text):
    """(line number, key) of every key read in `text`."""
    for number, line in enumerate(text.splitlines(), 1):
        for pattern in KEY_READS:
            for match in pattern.finditer(line):
                yield number, match.group(1)


def reader_problems(reader_text, schema):
    """What the reader reads that the schema does not define."""
    problems = []
    blocks = []  # (first line, definitions, lines)
    current = (1, None, [])
    for number, line in enumerate(reader_text.splitlines(), 1):
        marker = MARKER.match(line)
        if marker:
            blocks.append(current)
            names = [n.strip() for n in marker.group(1).split(",") if n.strip()]
            current = (number, names, [])
        current[2].append(line)
    blocks.append(current)
    marked = [b for b in blocks if b[1] is not None]
    if not marked:
        return ["the reader names no schema definition (no '// schema:' line)"]
    keys_checked = 0
    for first, names, lines in blocks:
        reads = list(key_reads("\n".join(lines)))
        if names is None:
            problems += ["line %d: reads \"%s\" before any '// schema:' line" % (first + n - 1, k)
                         for n, k in reads]
            continue
        if names == ["(none)"]:
            problems += ["line %d: reads \"%s\" where it says it reads no schema object" %
                         (first + n - 1, k) for n, k in reads]
            continue
        allowed = set()
        for name in names:
            props = properties_of(schema, name)
            if props is None:
                problems.append("line %d: the schema has no object definition %s" % (first, name))
            else:
                allowed |= props
        for n, key in reads:
            keys_checked += 1
            if key not in allowed:
                problems.append("line %d: reads \"%s\", which %s does not define" %
                                (first + n - 1, key, ", ".join(names)))
    if keys_checked == 0:
        problems.append("no key read was found in the reader: the patterns miss its calls")
    return problems


CACHE_LEVEL = {"size_bytes": 32768, "ways": 8, "line_bytes": 64}
METRICS = {
    "groups": ["L2Cache", "Instructions"],
    "backends": {"L2Cache": "sim", "Instructions": "sim"},
    "counting_passes": 0,
    "cache_model": {"I1": CACHE_LEVEL, "D1": CACHE_LEVEL,
                    "LL": {"size_bytes": 33554432, "ways": 16, "line_bytes": 64}},
    "simulated_device": "pthread-haswell-AMD EPYC",
    "notes": [],
}
KERNEL_METRICS = {
    "L2Cache": {"backend": "sim", "read_cache_hit": 32768, "read_cache_miss": 0,
                "write_cache_hit": 0, "write_cache_miss": 32768, "total_hit_rate(%)": 50},
    "Instructions": {"backend": "sim", "instructions": 253952, "loads": 106496, "stores": 65536,
                     "branches": 0, "branch_misses": 0},
}

STATS = {"min": 111.061, "median": 116.478, "mean": 125.662, "max": 149.447, "stddev": 16.96}
# A workbench variant whose changed launch was counted, cut from a real
# `msprof-replay pc.fb --metrics L2Cache,Instructions --metrics-backend sim
# --local-size consume=256` result (tests/analyzer/metric_results.cc's shape).
VARIANT = {
    "label": "consume:local-size=256", "status": "measured", "reason": "", "build_log": "",
    "changed_kernels": ["consume"], "changed_us": STATS, "recorded_changed_us": STATS,
    "wall_us": STATS, "changed_passes_us": [116.478], "recorded_changed_passes_us": [112.212],
    "wall_passes_us": [344.457], "ratio": 0.973, "changed_ratio": 1.038, "beyond_spread": False,
    "verification": {"status": "bit-exact", "reason": "", "pass": 0, "passes_compared": 1,
                     "buffers": []},
    "launch_metrics": [{"seq": 1, "name": "consume", "metrics": KERNEL_METRICS}],
}


def check_schema_catches(schema, valid):
    """The schema rejects what it must, and takes the valid document."""
    ok = True
    if check_summary.problems(valid, schema):
        ok = fail("the reference document does not follow the schema")

    def mutated(change):
        doc = copy.deepcopy(valid)
        change(doc)
        return doc

    range0 = lambda d: d["ranges"][0]  # noqa: E731
    kernel0 = lambda d: d["ranges"][0]["kernels"][0]  # noqa: E731
    wrong = {
        "an unknown top-level field": lambda d: d.update(extra=1),
        "an unknown field of a range": lambda d: range0(d).update(wall_ms=1.0),
        "an unknown field of a kernel": lambda d: kernel0(d).update(duration=1.0),
        "an unknown field of the statistics": lambda d: range0(d)["wall_us"].update(p99=1.0),
        "a missing range field": lambda d: range0(d).pop("restore"),
        "a missing option": lambda d: d["options"].pop("restore"),
        "a verdict that does not exist": lambda d: range0(d)["verification"].update(status="ok"),
        "a range verdict on a buffer": lambda d: range0(d)["verification"]["buffers"][0].update(
            status="not verified"),
        "a range status that does not exist": lambda d: range0(d).update(status="done"),
        "a replay mode that does not exist": lambda d: d["options"].update(replay_mode="graph"),
        "a count as text": lambda d: range0(d).update(passes="5"),
        "a negative count": lambda d: kernel0(d).update(bytes=-1),
        "a time as text": lambda d: range0(d)["wall_us"].update(median="30.5"),
        "another version": lambda d: d.update(version=3),
        "another format": lambda d: d.update(format="msprof-replay"),
        "a created time that is not UTC ISO 8601": lambda d: d.update(created="2026-12-02 18:15"),
        "a program source that does not exist": lambda d: range0(d).update(program_source="jit"),
    }
    for what, change in wrong.items():
        if not check_summary.problems(mutated(change), schema):
            ok = fail("the schema takes %s" % what)
    # What it must take: nulls for numbers that were not finite, a tolerance.
    right = {
        "a null time": lambda d: kernel0(d).update(original_us=None),
        "a tolerance": lambda d: d["options"].update(tolerance={"atol": 1e-6, "rtol": 0}),
        "joined program sources": lambda d: range0(d).update(program_source="binary,source"),
        # The shape of tests/analyzer/metric_results.cc, the analyzer's metric fixtures.
        "metrics, top level and per kernel": lambda d: (d.update(metrics=METRICS),
                                                        kernel0(d).update(metrics=KERNEL_METRICS)),
        "a variant with its changed launch counted": lambda d: range0(d).update(
            variants=[VARIANT]),
    }
    for what, change in right.items():
        problems = check_summary.problems(mutated(change), schema)
        if problems:
            ok = fail("the schema refuses %s: %s" % (what, problems[0]))
    return ok


def check_analyzer_refuses(schema, valid, analyze):
    """Wrong types in fields the analyzer reads: the schema and the analyzer refuse."""
    ok = True
    range0 = lambda d: d["ranges"][0]  # noqa: E731
    kernel0 = lambda d: d["ranges"][0]["kernels"][0]  # noqa: E731
    wrong = {
        "ranges[0].passes as text": lambda d: range0(d).update(passes="five"),
        "ranges[0].kernels[0].name as a number": lambda d: kernel0(d).update(name=7),
        "ranges[0].wall_us.median as text": lambda d: range0(d)["wall_us"].update(median="fast"),
        "options.launch_count as text": lambda d: d["options"].update(launch_count="ten"),
        "ranges[0].verification.status as a number": lambda d: range0(d)["verification"].update(
            status=1),
        "ranges[0].kernels as an object": lambda d: range0(d).update(kernels={"a": 1}),
        "a variant's launch_metrics as an object": lambda d: range0(d).update(
            variants=[dict(VARIANT, launch_metrics={"seq": 1})]),
        "a variant's counted launch's seq as text": lambda d: range0(d).update(
            variants=[dict(VARIANT, launch_metrics=[dict(VARIANT["launch_metrics"][0], seq="1")])]),
    }
    with tempfile.TemporaryDirectory() as tmp:
        for what, change in wrong.items():
            doc = copy.deepcopy(valid)
            change(doc)
            if not check_summary.problems(doc, schema):
                ok = fail("the schema takes %s" % what)
            path = os.path.join(tmp, "summary.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(doc, f)
            run = subprocess.run([analyze, "export", path, "--format", "chrome", "-o",
                                  os.path.join(tmp, "out.json"), "-f"],
                                 capture_output=True, text=True, timeout=60)
            if run.returncode == 0 or "damaged replay result" not in run.stderr:
                ok = fail("msprof-analyze takes a summary.json with %s (exit %d: %s)" %
                          (what, run.returncode, run.stderr.strip()))
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", required=True)
    parser.add_argument("--reader", required=True, help="analyzer/core/replay_result_reader.cc")
    parser.add_argument("--data", required=True, help="tests/analyzer/data")
    parser.add_argument("--analyze", required=True, help="the msprof-analyze executable")
    args = parser.parse_args()

    schema = check_summary.load_schema(args.schema)
    ok = True

    inputs = sorted(glob.glob(os.path.join(args.data, "**", "summary.json"), recursive=True))
    if not inputs:
        ok = fail("no summary.json under %s" % args.data)
    documents = {}
    for path in inputs:
        with open(path, encoding="utf-8") as f:
            documents[path] = json.load(f)
        for problem in check_summary.problems(documents[path], schema):
            ok = fail("%s: %s" % (path, problem))
    if not documents:
        return 1
    reference = next(iter(documents.values()))

    ok = check_schema_catches(schema, reference) and ok

    with open(args.reader, encoding="utf-8") as f:
        reader_text = f.read()
    bogus = '// schema: kernel\nResultKernel kernel(const json& j) {\n  k.x = count(j, "launches");\n}\n'
    if not reader_problems(bogus, schema):
        ok = fail("the reader check does not catch a key the schema lacks")
    for problem in reader_problems(reader_text, schema):
        ok = fail("%s: %s" % (args.reader, problem))

    ok = check_analyzer_refuses(schema, reference, args.analyze) and ok

    if ok:
        print("%d summary.json inputs follow the schema; the reader reads only its fields; "
              "the analyzer refuses wrong types" % len(documents))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
