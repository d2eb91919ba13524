"""Maps the client's 64-bit range ids to the 32-bit ids Python code sees."""

import threading

_MASK = 0xFFFFFFFF


class RangeHandles:
    """An open range is handed out as the low 32 bits of its id (the id
    itself when it fits), or as another free 32-bit number when those bits
    are zero or taken by another open range; range_end maps it back."""

    def __init__(self):
        self._open = {}  # handle -> full id
        self._lock = threading.Lock()
        self._next_spare = 1

    def hand_out(self, full_id):
        if full_id == 0:
            return 0
        with self._lock:
            handle = full_id & _MASK
            if handle == 0 or handle in self._open:
                handle = self._spare_handle()
            self._open[handle] = full_id
            return handle

    def take(self, handle):
        """The full id behind `handle`; an unknown handle passes through."""
        with self._lock:
            return self._open.pop(handle, handle)

    def _spare_handle(self):
        handle = self._next_spare
        while handle in self._open:
            handle = handle % _MASK + 1
        self._next_spare = handle % _MASK + 1
        return handle
