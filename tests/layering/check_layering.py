#!/usr/bin/env python3
"""The device-neutral folders use no device API and no backend.

format/, analyzer/, recorder/core/ and replayer/core/ (each with all its
subfolders) may include no device API header (OpenCL's CL/..., cl.h, ...;
CUDA's, HIP's, ...) and no file of a backend folder (recorder/opencl/...,
replayer/opencl/..., any */opencl/ or */cuda/ ...). With --links, the CMake
targets defined in those folders may not link OpenCL or a backend target
either. Every violation is printed as file:line (or the target) and the
check fails; it also fails when a folder has no source file or no include
to check, or when its own rules do not catch known violations, so that it
cannot pass by checking nothing.
"""

import argparse
import os
import re
import sys

# The device-neutral folders, relative to the repository root.
NEUTRAL_FOLDERS = ("format", "analyzer", "recorder/core", "replayer/core")

# A folder of this name holds a device backend, wherever it is.
BACKEND_FOLDERS = {"opencl", "cuda", "hip", "level_zero", "sycl", "vulkan", "metal",
                   # counter backends of the host CPU (--metrics)
                   "perf", "callgrind"}

SOURCE_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".inl", ".ipp", ".c", ".cc", ".cpp", ".cxx")

# Device API headers, known by the first folder of the include path (CL/...)
# or by the file's name (cl.h, cuda_runtime.h, ...).
DEVICE_API_FOLDERS = {
    "cl": "OpenCL",
    "opencl": "OpenCL",
    "hip": "HIP",
    "level_zero": "Level Zero",
    "sycl": "SYCL",
    "vulkan": "Vulkan",
}
DEVICE_API_FILES = (
    (re.compile(r"^(cl(_\w+)?\.h|cl2?\.hpp|opencl\.h(pp)?)$", re.IGNORECASE), "OpenCL"),
    (re.compile(r"^(cuda|cupti|nvrtc|nvml)\w*\.(h|hpp)$", re.IGNORECASE), "CUDA"),
    (re.compile(r"^ze_\w*api\.h$", re.IGNORECASE), "Level Zero"),
)

INCLUDE = re.compile(r'^\s*#\s*(?:include|include_next|import)\s*([<"])([^>"]+)[>"]')
HAS_INCLUDE = re.compile(r'__has_include(?:_next)?\s*\(\s*([<"])([^>"]+)[>"]')


def include_problem(path):
    """Why including `path` breaks the layering, or None."""
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    if not parts:
        return None
    folders, name = parts[:-1], parts[-1]
    # <CL/cl.h>: the API's own folder comes first; a backend folder of ours
    # comes after the component's (replayer/opencl/...) or after "..".
    if folders and folders[0].lower() in DEVICE_API_FOLDERS:
        return "a header of the %s API" % DEVICE_API_FOLDERS[folders[0].lower()]
    for folder in folders:
        if folder.lower() in BACKEND_FOLDERS:
            return "a file of the backend folder %s/" % "/".join(folders)
    for pattern, api in DEVICE_API_FILES:
        if pattern.match(name):
            return "a header of the %s API" % api
    return None


def includes_of(text):
    """(line number, included path, as written) of every include in a file."""
    for number, line in enumerate(text.splitlines(), 1):
        directive = INCLUDE.match(line)
        for match in [directive] if directive else HAS_INCLUDE.finditer(line):
            opening = match.group(1)
            closing = ">" if opening == "<" else '"'
            yield number, match.group(2), opening + match.group(2) + closing


def check_rules():
    """The rules catch what they must and let pass what they must."""
    caught = ["CL/cl.h", "CL/opencl.hpp", "OpenCL/opencl.h", "cl.h", "cl_ext.h",
              "CL/cl2.hpp", "cl2.hpp", "cuda.h", "cuda_runtime_api.h", "hip/hip_runtime.h",
              "recorder/opencl/cl_recorder.h", "replayer/opencl/opencl_device.h",
              "../opencl/memory_copy.h", "replayer/cuda/cuda_device.h", "opencl.h", "cl.hpp"]
    passed = ["format/trace_reader.h", "replayer/core/plan/range_plan.h", "vector",
              "CLI/CLI.hpp", "nlohmann/json.hpp", "format/frame.h", "zstd.h",
              "thread_name/thread_name.h", "analyzer/core/chrome_trace.h", "closure.h",
              "format/opencl_names.h", "clock.h"]
    wrong = [p for p in caught if include_problem(p) is None]
    wrong += [p for p in passed if include_problem(p) is not None]
    sample = '#include <CL/cl.h>\n  #  include "replayer/opencl/x.h"\n#if __has_include(<cuda.h>)\n'
    if [n for n, _, _ in includes_of(sample)] != [1, 2, 3]:
        wrong.append("the include parser")
    return wrong


def source_files(folder):
    for directory, subfolders, files in os.walk(folder):
        subfolders.sort()
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES):
                yield os.path.join(directory, name)


def check_sources(root):
    problems, summary = [], []
    for relative in NEUTRAL_FOLDERS:
        folder = os.path.join(root, relative)
        if not os.path.isdir(folder):
            problems.append("%s/: no such folder; update NEUTRAL_FOLDERS in %s"
                            % (relative, os.path.basename(__file__)))
            continue
        files = includes = 0
        for path in source_files(folder):
            files += 1
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for number, target, written in includes_of(text):
                includes += 1
                why = include_problem(target)
                if why:
                    problems.append("%s:%d: includes %s, %s; %s/ is device-neutral"
                                    % (os.path.relpath(path, root), number, written, why,
                                       relative))
        if files == 0 or includes == 0:
            problems.append("%s/: %d source files, %d includes: nothing to check"
                            % (relative, files, includes))
        summary.append("%s/ (%d files, %d includes)" % (relative, files, includes))
    return problems, summary


def check_links(root, links_path):
    """The links file, from CMakeLists.txt: per folder a line
    folder <TAB> configured (or: not configured), and per target in it and
    item it links, directly or not, a line
    folder <TAB> target <TAB> item <TAB> the item's source folder, or -."""
    problems, targets, configured = [], {}, {}
    with open(links_path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 2 and fields[1] in ("configured", "not configured"):
                configured[fields[0]] = fields[1] == "configured"
            elif len(fields) == 4:
                folder, target, item, item_folder = fields
                targets.setdefault((folder, target), [])
                if item:
                    targets[(folder, target)].append((item, item_folder))
            else:
                problems.append("%s: malformed line %r" % (links_path, line))
    for folder in NEUTRAL_FOLDERS:
        if folder not in configured:
            problems.append("%s: says nothing of %s/" % (links_path, folder))
        elif configured[folder] and not any(f == folder for f, _ in targets):
            problems.append("%s/: configured but defines no target to check" % folder)
    if not configured.get("format"):
        problems.append("%s: format/ is not configured; the link check saw nothing"
                        % links_path)
    for (folder, target), items in sorted(targets.items()):
        wrong = []
        for item, item_folder in items:
            if re.search(r"opencl", item, re.IGNORECASE):
                wrong.append(item)
            elif item_folder != "-":
                relative = os.path.relpath(item_folder, root).replace(os.sep, "/")
                if any(p.lower() in BACKEND_FOLDERS for p in relative.split("/")):
                    wrong.append("%s (of %s/)" % (item, relative))
        if wrong:
            problems.append("target %s (%s/) links %s; %s/ is device-neutral"
                            % (target, folder, ", ".join(wrong), folder))
    return problems, "their %d targets" % len(targets)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", help="the repository root")
    parser.add_argument("--links", help="the targets' links, written by CMakeLists.txt")
    parser.add_argument("--print-folders", action="store_true",
                        help="print the device-neutral folders, for CMakeLists.txt")
    args = parser.parse_args()
    if args.print_folders:
        print(";".join(NEUTRAL_FOLDERS))
        return 0
    if not args.root:
        parser.error("--root is required")

    wrong = check_rules()
    if wrong:
        print("layering: the check's own rules are wrong about: " + ", ".join(wrong))
        return 1
    problems, summary = check_sources(args.root)
    linked = ""
    if args.links:
        link_problems, linked = check_links(args.root, args.links)
        problems += link_problems
    for problem in problems:
        print(problem)
    if problems:
        print("layering: %d problem%s; a device API is used only in backend folders "
              "(docs/contributing.md)" % (len(problems), "" if len(problems) == 1 else "s"))
        return 1
    print("layering: no device API header and no backend folder in " + ", ".join(summary)
          + ("; %s link neither OpenCL nor a backend" % linked if linked else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
