"""The installed layout: `cmake --install --component mstx` puts the client
library (both names), the header and the Python module where the launcher
expects them, and the installed module finds the installed library."""

import subprocess
import sys
import tempfile
from pathlib import Path

from annotation_log import LOG_LIBRARY, check, check_events, finish, python_env, run

build_dir, libdir, cmake = sys.argv[1], sys.argv[2], sys.argv[3]

with tempfile.TemporaryDirectory(prefix="msprof-mstx-install-") as prefix:
    installed = subprocess.run(
        [cmake, "--install", build_dir, "--component", "mstx", "--prefix", prefix],
        capture_output=True,
        text=True,
    )
    check(installed.returncode == 0, f"cmake --install: {installed.stderr.strip()}")
    lib = Path(prefix) / libdir
    check((lib / "libms_tools_ext.so").is_file(), "libms_tools_ext.so installed")
    check((lib / "libmsprof_mstx.so").is_symlink(), "libmsprof_mstx.so is a link")
    check((lib / "libmsprof_mstx.so").resolve() == (lib / "libms_tools_ext.so").resolve(),
          "libmsprof_mstx.so names the same library")
    check((Path(prefix) / "include" / "ms_tools_ext.h").is_file(), "header installed")
    python_dir = lib / "msprof-replay" / "python"
    check((python_dir / "mstx" / "__init__.py").is_file(), "Python module installed")

    # Both names open one library, hence one client per process.
    same = run(
        [
            sys.executable,
            "-c",
            "import ctypes, sys; a, b = (ctypes.CDLL(p) for p in sys.argv[1:]); "
            "f = lambda l: ctypes.cast(l.mstxRangeStartA, ctypes.c_void_p).value; "
            "sys.exit(0 if f(a) == f(b) else 1)",
            str(lib / "libms_tools_ext.so"),
            str(lib / "libmsprof_mstx.so"),
        ],
        python=True,
    )
    check(same.returncode == 0, "both names load the same client")

    program = (
        "import mstx; print(mstx.library_path()); "
        "mstx.range_end(mstx.range_start('installed'))"
    )
    result = run(
        [sys.executable, "-c", program],
        env=python_env(PYTHONPATH=str(python_dir), MSTX_INJECTION_PATH=LOG_LIBRARY),
        python=True,
    )
    check(result.returncode == 0, "installed module runs")
    check(result.stdout.strip() == str(lib / "libms_tools_ext.so"),
          f"installed module finds the installed library: {result.stdout.strip()}")
    check_events(result.events, [("start", 1, "", "installed", 0), ("end", 1, "")], "installed")

finish()
