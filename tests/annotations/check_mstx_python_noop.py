"""(d) The mstx module without a tool, and without a client library: every
call is a no-op (ids 0, tool id 0), and nothing breaks."""

import shutil
import tempfile
from pathlib import Path

from annotation_log import (
    CLIENT_LIBRARY,
    PYTHON_SOURCE,
    check,
    finish,
    python_child,
    python_env,
    run,
)

missing = run(
    python_child("mstx_noop_program.py", "none"),
    env=python_env(MSTX_LIBRARY="/nonexistent/libms_tools_ext.so"),
    python=True,
)
check(missing.returncode == 0, "unusable MSTX_LIBRARY: no-op")
check("warned: mstx: cannot use MSTX_LIBRARY" in missing.stdout, "unusable MSTX_LIBRARY: warned")

no_tool = run(
    python_child("mstx_noop_program.py", "client"),
    env=python_env(MSTX_LIBRARY=CLIENT_LIBRARY),
    python=True,
)
check(no_tool.returncode == 0, "client library without a tool: no-op")

# A copy of the package with no library beside it or in ../../..
with tempfile.TemporaryDirectory(prefix="msprof-mstx-alone-") as folder:
    alone = Path(folder) / "a" / "b" / "python"
    shutil.copytree(Path(PYTHON_SOURCE) / "mstx", alone / "mstx")
    bare = run(
        python_child("mstx_noop_program.py", "any"),
        env=python_env(PYTHONPATH=str(alone)),
        python=True,
    )
    check(bare.returncode == 0, "no library found: no-op")

finish()
