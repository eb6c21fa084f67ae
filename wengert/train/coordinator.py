"""`compat.v1.train.Coordinator`: stopping a group of threads together, and passing on the
first exception one of them raised.

Threads poll `should_stop()`; any of them (or the main thread) calls `request_stop(ex)`; the
main thread `join(threads)`s them and, if a thread stopped with an exception, join re-raises
it there. `stop_on_exception()` wraps a thread's body so that an exception requests the stop
(the clean stop types, OutOfRangeError by default, stop without being re-raised).
`LooperThread` runs a function repeatedly, or on a timer (at once, then every interval), until
the coordinator stops.
"""
import contextlib
import sys
import threading
import time

from ..framework.errors import OutOfRangeError

__all__ = ["Coordinator", "LooperThread"]


class Coordinator:
    """A stop flag for threads, with the first exception that caused a stop."""

    def __init__(self, clean_stop_exception_types=None):
        self._clean_stop_exception_types = tuple(
            (OutOfRangeError,) if clean_stop_exception_types is None
            else clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise = None
        self._joined = False
        self._registered_threads = set()

    def _filtered(self, ex):
        if isinstance(ex, tuple):
            ex = ex[1]
        return None if isinstance(ex, self._clean_stop_exception_types) else ex

    def request_stop(self, ex=None):
        """Ask every thread to stop; the first exception given is kept for `join`."""
        with self._lock:
            ex = self._filtered(ex)
            if self._joined:
                if isinstance(ex, BaseException):
                    raise ex
                return
            if not self._stop_event.is_set():
                if ex is not None and self._exc_info_to_raise is None:
                    self._exc_info_to_raise = ex if isinstance(ex, tuple) \
                        else (type(ex), ex, ex.__traceback__)
                self._stop_event.set()

    def clear_stop(self):
        """Forget the stop request and the exception (to use the coordinator again)."""
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            self._stop_event.clear()

    def should_stop(self):
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self):
        """A block whose exception (other than SystemExit) requests the stop."""
        try:
            yield
        except Exception:  # noqa: BLE001 - any error of a thread's body stops them all
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout=None):
        """Wait until a stop is requested (or `timeout` seconds); returns whether it was."""
        return self._stop_event.wait(timeout)

    def register_thread(self, thread):
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        """Wait for a stop request, then for the threads (at most the grace period after the
        request); re-raise the exception that requested the stop, if any."""
        threads = set(threads or []) | self._registered_threads
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
            pass
        deadline = time.time() + stop_grace_period_secs
        for thread in threads:
            thread.join(max(0.0, deadline - time.time()))
        stragglers = [t.name for t in threads if t.is_alive()]
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            if self._exc_info_to_raise is not None:
                raise self._exc_info_to_raise[1].with_traceback(self._exc_info_to_raise[2])
        if stragglers and not ignore_live_threads:
            raise RuntimeError(f"Coordinator stopped with threads still running: "
                               f"{' '.join(stragglers)}")

    @property
    def joined(self):
        return self._joined

    def raise_requested_exception(self):
        """Re-raise the exception passed to request_stop, if any."""
        with self._lock:
            if self._exc_info_to_raise is not None:
                raise self._exc_info_to_raise[1].with_traceback(self._exc_info_to_raise[2])


class LooperThread(threading.Thread):
    """A daemon thread calling `target(*args, **kwargs)` every `timer_interval_secs` (or
    back to back when None) until `coord` stops."""

    def __init__(self, coord, timer_interval_secs, target=None, args=None, kwargs=None):
        if not isinstance(coord, Coordinator):
            raise ValueError(f"'coord' argument must be a Coordinator: {coord}")
        super().__init__()
        self.daemon = True
        self._coord = coord
        self._timer_interval_secs = timer_interval_secs
        self._target = target
        self._args, self._kwargs = args or (), kwargs or {}
        if target is not None:
            self._coord.register_thread(self)

    def run(self):
        with self._coord.stop_on_exception():
            self.start_loop()
            if self._timer_interval_secs is None:
                while not self._coord.should_stop():
                    self.run_loop()
            else:  # the first call at once, then one per interval, as TensorFlow's
                next_time = time.time()
                while not self._coord.wait_for_stop(max(0.0, next_time - time.time())):
                    next_time += self._timer_interval_secs
                    self.run_loop()
            self.stop_loop()

    def start_loop(self):
        pass

    def stop_loop(self):
        pass

    def run_loop(self):
        if self._target is not None:
            self._target(*self._args, **self._kwargs)

    @staticmethod
    def loop(coord, timer_interval_secs, target, args=None, kwargs=None):
        """Start a LooperThread running `target`; returns it."""
        looper = LooperThread(coord, timer_interval_secs, target=target, args=args,
                              kwargs=kwargs)
        looper.start()
        return looper
