"""A watchdog for collectives: report (and optionally end) a rank stuck waiting on the others.

A collective returns only when every rank has entered it. When one rank has crashed without
taking the job down, or took another branch of the program and never calls the collective, the
others wait forever in silence. Every blocking collective of `Collectives` runs inside
`watch(description)`, which records what this rank waits on and since when; a daemon thread
wakes twice a second and, when the wait passes `report_after` seconds, prints once to stderr

    wengert.distribute: rank 1 of 4 has waited 60 s in allreduce of gradients (collective #812)

naming the rank, the collective and its sequence number (equal on all ranks for the same
collective, so the reports of several ranks can be matched). With `abort_after` set, the thread
ends the whole job (MPI_Abort) when the wait passes that many seconds, so a batch system gets
its allocation back instead of a hang.

Settings: `set_watchdog(report_after=60, abort_after=None)`, or the environment variables
WENGERT_WATCHDOG_SECONDS and WENGERT_WATCHDOG_ABORT_SECONDS read when the job starts.
"""
import os
import sys
import threading
import time

__all__ = ["Watchdog"]


def _seconds(name, default):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return float(value)
    except ValueError:
        raise ValueError(f"{name}={value!r} is not a number of seconds.") from None


class Watchdog:
    """Watches the collective this rank is in (one at a time: collectives are issued from one
    thread, in program order)."""

    def __init__(self, comm, report_after=None, abort_after=None, stream=None):
        self._comm = comm
        self.report_after = (report_after if report_after is not None
                             else _seconds("WENGERT_WATCHDOG_SECONDS", 60.0))
        self.abort_after = (abort_after if abort_after is not None
                            else _seconds("WENGERT_WATCHDOG_ABORT_SECONDS", None))
        self._stream = stream
        self._current = None      # (description, sequence number, start time)
        self._reported = None
        self._sequence = 0
        self._thread = None
        self._lock = threading.Lock()

    def configure(self, report_after=60.0, abort_after=None):
        if report_after is not None and report_after <= 0:
            raise ValueError(f"set_watchdog: report_after must be positive, got {report_after}.")
        if abort_after is not None and abort_after <= 0:
            raise ValueError(f"set_watchdog: abort_after must be positive, got {abort_after}.")
        self.report_after, self.abort_after = report_after, abort_after

    @property
    def sequence(self):
        """How many collectives this rank has entered."""
        return self._sequence

    def watch(self, description):
        return _Watch(self, description)

    def _enter(self, description):
        self._sequence += 1
        self._current = (description, self._sequence, time.monotonic())
        if self._thread is None and self._comm.size > 1:
            self._thread = threading.Thread(target=self._run, name="wengert-watchdog",
                                            daemon=True)
            self._thread.start()

    def _exit(self):
        self._current = None

    def _run(self):
        while True:
            time.sleep(0.5)
            current = self._current
            if current is None:
                continue
            description, sequence, start = current
            waited = time.monotonic() - start
            if (self.report_after is not None and waited >= self.report_after
                    and self._reported != sequence):
                self._reported = sequence
                self._say(f"rank {self._comm.rank} of {self._comm.size} has waited "
                          f"{waited:.0f} s in {description} (collective #{sequence}); the ranks "
                          "not reporting this may have failed, taken another branch of the "
                          "program, or be much slower.")
            if self.abort_after is not None and waited >= self.abort_after:
                self._say(f"rank {self._comm.rank} ends the job: it waited {waited:.0f} s in "
                          f"{description} (collective #{sequence}), more than abort_after="
                          f"{self.abort_after:g} s.")
                self._comm.abort(1)
                return

    def _say(self, message):
        stream = self._stream or sys.stderr
        print(f"wengert.distribute: {message}", file=stream, flush=True)


class _Watch:
    __slots__ = ("_dog", "_description")

    def __init__(self, dog, description):
        self._dog, self._description = dog, description

    def __enter__(self):
        self._dog._enter(self._description)

    def __exit__(self, *exc):
        self._dog._exit()
        return False
