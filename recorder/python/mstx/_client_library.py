"""Finds and opens the mstx client library."""

import ctypes
import os
import warnings
from pathlib import Path

LIBRARY_NAMES = ("libms_tools_ext.so", "libmsprof_mstx.so")
LIBRARY_ENV = "MSTX_LIBRARY"


def _candidates():
    here = Path(__file__).resolve().parent
    # A copy beside the package (a wheel that bundles it), then the lib dir
    # of an installation: <libdir>/msprof-replay/python/mstx/ -> <libdir>.
    for folder in (here, here.parents[2]):
        for name in LIBRARY_NAMES:
            path = folder / name
            if path.is_file():
                yield str(path)
    # Last, whatever the system loader finds (LD_LIBRARY_PATH, ld.so.cache).
    yield from LIBRARY_NAMES


def _declare(library):
    void_p, char_p, u64 = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint64
    library.mstxRangeStartA.argtypes = [char_p, void_p]
    library.mstxRangeStartA.restype = u64
    library.mstxRangeEnd.argtypes = [u64]
    library.mstxRangeEnd.restype = None
    library.mstxMarkA.argtypes = [char_p, void_p]
    library.mstxMarkA.restype = None
    library.mstxGetToolId.argtypes = [ctypes.POINTER(u64)]
    library.mstxGetToolId.restype = None
    return library


def load():
    """Returns (library, path), or (None, None) when none can be used."""
    named = os.environ.get(LIBRARY_ENV)
    if named:
        # An explicit choice that fails is reported, not silently replaced.
        try:
            return _declare(ctypes.CDLL(named)), named
        except (OSError, AttributeError) as error:
            warnings.warn(
                f"mstx: cannot use {LIBRARY_ENV}={named}: {error}; annotations are off",
                RuntimeWarning,
                stacklevel=3,
            )
            return None, None
    for candidate in _candidates():
        try:
            return _declare(ctypes.CDLL(candidate)), candidate
        except (OSError, AttributeError):
            continue
    return None, None
