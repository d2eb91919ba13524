"""An annotated program runs plainly, without msprof-record: the set-up
installs the mstx module into python3's own site-packages (a wheel of
recorder/python), and without a tool every call is a no-op.

usage: check_plain_example.py EXAMPLES_DIR
"""
import os
import pathlib
import subprocess
import sys

examples = pathlib.Path(sys.argv[1])
env = {k: v for k, v in os.environ.items()
       if k not in ("PYTHONPATH", "MSTX_INJECTION_PATH", "MSTX_LIBRARY")}
# From a folder of its own, so nothing of the source tree is importable.
where = subprocess.run([sys.executable, "-c", "import mstx; print(mstx.__file__)"], env=env,
                       cwd="/", capture_output=True, text=True)
if where.returncode != 0:
    sys.exit("import mstx fails outside msprof-record: " + where.stderr.strip().splitlines()[-1] +
             "; run scripts/setup.sh, which installs the module")
if "site-packages" not in where.stdout and "dist-packages" not in where.stdout:
    sys.exit(f"mstx comes from {where.stdout.strip()}, not from the installed wheel")
run = subprocess.run([sys.executable, str(examples / "test.py")], env=env, cwd="/",
                     capture_output=True, text=True)
if run.returncode != 0:
    sys.exit(f"python3 examples/test.py exited {run.returncode}: {run.stderr.strip()}")
if "f [2. 4. 6. 8.]" not in run.stdout:
    sys.exit("python3 examples/test.py printed something else:\n" + run.stdout)
print("examples/test.py runs plainly with", where.stdout.strip())
