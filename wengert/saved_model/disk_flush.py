"""Making a written checkpoint durable: its files are flushed to disk after they are in place, in
the background.

A checkpoint is written whole to temporary files that are then renamed over the final names
(checkpoint_format.py), so an error while writing (a full disk, an interrupt) leaves the previous
checkpoint as it was. The rename alone does not survive a power cut: until the kernel has written
the pages, a machine that loses power may come back with the new names pointing at empty or partial
files. `fsync` makes the files durable, at the disk's speed (about 170 ms per 100 MB on the
development machine, half of a save), which is why TensorFlow's own saver skips it.

wengert fsyncs the files (and their directory) in a thread once they are renamed, so a save returns
as soon as the bytes are in the kernel's hands, as TensorFlow's does, and:
  - the next checkpoint write waits for the previous flushes before it starts: at most one
    checkpoint (its files and the `checkpoint` state file) is being flushed, and every checkpoint
    but the newest is on disk when a new one is begun;
  - `Checkpoint.sync()`, `CheckpointManager.sync()` and the interpreter's exit wait for it;
  - an error from the flush (an I/O error of the disk) is raised by whichever of those waits
    next, as an OSError naming the files.

Freeing the blocks of a replaced file is slow too (about 90 ms for 100 MB: the filesystem's
journal, not the CPU), and a rename over a file frees them at once. So a checkpoint written over
an old one first gives the old data file a second, hidden name beside it (`aside`), and the flush
thread deletes that name once the new files are on disk: the old bytes live until the new ones
are durable, and the save does not wait for the freeing. A process killed before then leaves the
hidden file behind (`.NAME.<hex>.replaced`); deleting it is always safe.
"""
import _thread
import atexit
import os
import sys
import threading

__all__ = ["flush_later", "wait_for_disk", "aside"]

_lock = threading.Lock()
_pending = []  # (finished event, paths, errors) of the flushes not yet waited for


def fsync_directory(directory):
    """Make a rename in `directory` durable (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # e.g. Windows
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def aside(path):
    """A second, hidden name for the file at `path` (a hard link beside it), so that replacing
    `path` does not free its blocks; None when there is no file or no hard links there. Hand the
    name to `flush_later(..., remove=...)`."""
    head, tail = os.path.split(path)
    for _ in range(8):
        name = os.path.join(head, f".{tail}.{os.urandom(4).hex()}.replaced")
        try:
            os.link(path, name)
            return name
        except FileExistsError:
            continue
        except (OSError, NotImplementedError):  # no file yet, or a filesystem without links
            return None
    return None


def _flush(paths, directory, errors, remove=()):
    for path in paths:
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:  # already deleted (an old checkpoint): nothing to keep
            continue
        except OSError as err:
            errors.append((path, err))
            continue
        try:
            os.fsync(fd)
        except OSError as err:
            errors.append((path, err))
        finally:
            os.close(fd)
    fsync_directory(directory)
    for path in remove:  # the replaced files' second names: their blocks are freed here
        try:
            os.unlink(path)
        except OSError:
            pass


def wait_for_disk():
    """Wait until the last checkpoint written is on disk; raise the flush's error, if any."""
    with _lock:
        pending = _pending[:]
        _pending.clear()
    for finished, _, _ in pending:
        finished.wait()
    for _, paths, errors in pending:
        if errors:
            path, err = errors[0]
            raise OSError(err.errno, f"Checkpoint files {paths} were written and renamed, but "
                                     f"flushing '{path}' to disk failed: {err.strerror or err}. "
                                     f"They may not survive a power cut; check the disk and "
                                     f"save again.") from err


def _run(finished, paths, directory, errors, remove):
    try:
        _flush(paths, directory, errors, remove)
    finally:
        finished.set()


def flush_later(paths, directory, remove=()):
    """Start flushing the renamed files `paths` and their `directory` to disk in a thread, then
    deleting the files `remove` (names made by `aside`)."""
    errors, finished = [], threading.Event()
    with _lock:
        _pending.append((finished, list(paths), errors))
        # not threading.Thread, whose start() waits until the new thread runs (milliseconds on
        # a busy machine): the save need not wait for its flush to begin
        _thread.start_new_thread(_run, (finished, list(paths), directory, errors, list(remove)))


def _forget_in_child():
    """After fork: the parent's flushes are its own (the child would wait for them forever)."""
    global _lock
    _lock = threading.Lock()
    _pending.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


@atexit.register
def _wait_at_exit():
    try:
        wait_for_disk()
    except OSError as err:
        print(f"wengert: {err}", file=sys.stderr)
