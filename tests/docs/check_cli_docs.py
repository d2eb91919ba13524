"""The reference pages under docs/cli/ name every option each tool's --help
lists, and no option it does not: the two cannot drift apart.

For msprof-analyze the same holds per subcommand (the page's section of the
subcommand against `msprof-analyze SUBCOMMAND --help`), and the page has a
section for every subcommand.

usage: check_cli_docs.py DOCS_DIR RECORD REPLAY ANALYZE
"""
import pathlib
import re
import subprocess
import sys

OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")
SUBCOMMAND = re.compile(r"^  ([a-z]+) {2,}", re.M)


def help_text(argv):
    result = subprocess.run(argv + ["--help"], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(argv)} --help exited {result.returncode}: {result.stderr.strip()}")
    return result.stdout


def help_options(text):
    # Only the option names CLI11 prints at the start of an option line.
    names = set()
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("-"):
            head = stripped.split("  ")[0].split(" ")[0]
            names.update(OPTION.findall(head))
    return names


def documented(markdown):
    # Options in the first column of option tables, and in section titles
    # (msprof-analyze's `### \`info TRACE [--format text|json]\``).
    names = set()
    for line in markdown.splitlines():
        if line.startswith("| `"):
            names.update(OPTION.findall(line.split("|")[1]))
        elif line.startswith("#"):
            names.update(OPTION.findall(line))
    return names


def compare(page, where, in_help, in_doc):
    problems = []
    if in_help - in_doc:
        problems.append(f"{page} ({where}) does not document {', '.join(sorted(in_help - in_doc))}")
    if in_doc - in_help:
        problems.append(f"{page} ({where}) documents {', '.join(sorted(in_doc - in_help))}, "
                        "which --help does not list")
    return problems


def sections(markdown):
    # "### `info TRACE ...`" -> {"info": text of that section}
    out, name = {}, None
    for line in markdown.splitlines():
        m = re.match(r"^### `([a-z]+)", line)
        if m:
            name = m.group(1)
            out[name] = ""
        elif line.startswith("## "):
            name = None
        if name:
            out[name] += line + "\n"
    return out


def main():
    docs = pathlib.Path(sys.argv[1])
    record, replay, analyze = sys.argv[2:5]
    problems = []
    for page, tool in (("msprof-record.md", record), ("msprof-replay.md", replay)):
        text = (docs / page).read_text()
        problems += compare(page, "options", help_options(help_text([tool])), documented(text))
    text = (docs / "msprof-analyze.md").read_text()
    top = help_text([analyze])
    subcommands = set(SUBCOMMAND.findall(top.split("Subcommands:")[1]))
    per_section = sections(text)
    if subcommands != set(per_section):
        problems.append(f"msprof-analyze.md has sections for {sorted(per_section)}, --help lists "
                        f"{sorted(subcommands)}")
    for sub in sorted(subcommands & set(per_section)):
        in_help = help_options(help_text([analyze, sub])) - {"--help"}
        problems += compare("msprof-analyze.md", sub, in_help, documented(per_section[sub]))
    if problems:
        sys.exit("\n".join(problems))
    print(f"docs/cli: every option of the three tools documented ({len(subcommands)} subcommands)")


if __name__ == "__main__":
    main()
