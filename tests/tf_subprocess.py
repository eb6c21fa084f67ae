"""Run a script under TensorFlow's interpreter: `run(python, [script, arg, ...])` returns
(returncode, stderr) as `python script arg ...` in a subprocess would.

The script runs in a long-lived worker of this test process (tests/tf_worker.py), which imports
TensorFlow and Keras once: a fresh TensorFlow process costs about five seconds of CPU before it
does anything, and the suite asks TensorFlow a few hundred times. Inside `fresh()` (and when
WENGERT_TF_FRESH=1, or while recording references) every script gets a new process of its own
instead, as reference_store does before it reports a disagreement, so that state one script left
in the worker can never make a test fail.
"""
import atexit
import contextlib
import json
import os
import subprocess
import threading

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_worker.py")
_workers = {}
_lock = threading.Lock()
_fresh = [os.environ.get("WENGERT_TF_FRESH") == "1"]


@contextlib.contextmanager
def fresh():
    """Scripts run inside this block each get a new TensorFlow process."""
    before = _fresh[0]
    _fresh[0] = True
    try:
        yield
    finally:
        _fresh[0] = before


def run(python, argv):
    """(returncode, stderr) of `python *argv`."""
    if _fresh[0] or os.environ.get("WENGERT_TF_REFERENCES") == "record":
        done = subprocess.run([python, *argv], capture_output=True, text=True)
        return done.returncode, done.stderr
    with _lock:
        worker = _workers.get(python)
        if worker is None or worker.poll() is not None:
            worker = _workers[python] = subprocess.Popen(
                [python, WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True)
        try:
            worker.stdin.write(json.dumps({"argv": [os.path.abspath(argv[0]), *argv[1:]],
                                           "env": dict(os.environ)}) + "\n")
            worker.stdin.flush()
            line = worker.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:  # the worker died (a crash in TensorFlow): this script alone, afresh
            _workers.pop(python, None)
            done = subprocess.run([python, *argv], capture_output=True, text=True)
            return done.returncode, done.stderr
        reply = json.loads(line)
        if not reply["clean"]:
            _stop(_workers.pop(python))
        return reply["returncode"], reply["stderr"]


def _stop(worker):
    with contextlib.suppress(OSError):
        worker.stdin.close()
    try:
        worker.wait(timeout=30)
    except subprocess.TimeoutExpired:
        worker.kill()


@atexit.register
def _stop_all():
    for worker in list(_workers.values()):
        _stop(worker)
    _workers.clear()
