"""`tf.test.TestCase`: `unittest.TestCase` with what TensorFlow's tests use.

Each test starts as TensorFlow's do: a fresh default graph whose seed (and Python's and
NumPy's) is TensorFlow's DEFAULT_GRAPH_SEED, no default summary writer. Sessions for graph
code: `self.session()` (a new Session on the default graph, or `graph`,
made the default session inside the `with`), `self.cached_session()` (one Session kept for the
whole test and closed in tearDown) and TF 1's `self.test_session()`; `self.evaluate(x)` runs
tensors in the default session (or a new one) when a graph is being built and reads them
eagerly otherwise. The array assertions
(test_assertions.py), `assertRaisesOpError` / `assertRaisesWithPredicateMatch`, a per-test
temporary directory, `captureWritesToStream`, `checkedThread` and absl's extra assertions
(assertLen, assertStartsWith, assertSameStructure, ...) complete TensorFlow's list; the old
unittest aliases (assertEquals, failUnless, ...) are kept for Python versions that dropped them.
"""
import contextlib
import json
import os
import random
import re
import subprocess
import tempfile
import threading
import unittest

import numpy as np

from ..framework.context import default_session, state
from ..framework.errors import InvalidArgumentError, OpError
from ..graph.graph import reset_default_graph
from ..ops.random.seeded import DEFAULT_GRAPH_SEED
from ..runtime.session import Session
from ..summary.writer import summary_state
from ..util import nest
from .test_absl_assertions import AbslAssertions
from .sampling import set_random_seed
from .test_assertions import ArrayAssertions

__all__ = ["TestCase"]


class TestCase(ArrayAssertions, AbslAssertions, unittest.TestCase):
    """Base class for tests of TensorFlow code."""

    def __init__(self, methodName="runTest"):  # noqa: N803 (unittest's name)
        super().__init__(methodName)
        self._cached_session = None
        self._tempdir = None
        self._properties = {}

    def setUp(self):
        super().setUp()
        self._cached_session = None
        random.seed(DEFAULT_GRAPH_SEED)
        np.random.seed(DEFAULT_GRAPH_SEED)
        reset_default_graph()
        set_random_seed(DEFAULT_GRAPH_SEED)
        summary_state.writer = None
        if self.id().endswith(".test_session"):  # a context manager named like a test
            self.skipTest("Not a test.")

    def tearDown(self):
        if self._cached_session is not None:
            self._cached_session.close()
            self._cached_session = None
        super().tearDown()

    @contextlib.contextmanager
    def session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """A new Session (on `graph` or the default graph), the default session inside."""
        _check_devices(use_gpu, force_gpu)
        with Session(graph=graph, config=config) as sess, sess.as_default():
            yield sess

    @contextlib.contextmanager
    def cached_session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """The test's one Session, made on first use, the default session inside."""
        _check_devices(use_gpu, force_gpu)
        if self._cached_session is None:
            self._cached_session = Session(graph=graph, config=config)
        elif graph is not None and self._cached_session.graph is not graph:
            raise ValueError("The graph used to get the cached session is different than the "
                             "one that was used to create the session. Maybe create a new "
                             "session with self.session()")
        with self._cached_session.as_default():
            yield self._cached_session

    @contextlib.contextmanager
    def test_session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """TensorFlow 1's name of cached_session."""
        with self.cached_session(graph, config, use_gpu, force_gpu) as sess:
            yield sess

    def evaluate(self, tensors):
        """NumPy values of a tensor or a structure of tensors."""
        if state.graph is None:
            return nest.map_structure(_eager_value, tensors)
        flat = nest.flatten(tensors)
        sess = default_session()
        if sess is None:
            with self.test_session() as sess:
                values = sess.run(flat)
        else:
            values = sess.run(flat)
        return nest.pack_sequence_as(tensors, values)

    def get_temp_dir(self):
        """A directory for this test, the same on every call within it."""
        if not self._tempdir:
            self._tempdir = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR") or None)
        return self._tempdir

    def create_tempdir(self, name=None, cleanup=None):
        """A new directory inside get_temp_dir() (named `name` if given)."""
        path = os.path.join(self.get_temp_dir(), name) if name else \
            tempfile.mkdtemp(dir=self.get_temp_dir())
        os.makedirs(path, exist_ok=True)
        if cleanup is not None and not isinstance(cleanup, (bool, str)):
            raise TypeError(f"create_tempdir: cleanup must be a bool or a policy name, got "
                            f"{cleanup!r}.")
        return _TempPath(path)

    def create_tempfile(self, file_path=None, content=None, mode="w", encoding="utf8",
                        errors="strict", cleanup=None):
        """A new file inside get_temp_dir(), holding `content` if given."""
        path = os.path.join(self.get_temp_dir(), file_path) if file_path else \
            tempfile.mkstemp(dir=self.get_temp_dir())[1]
        os.makedirs(os.path.dirname(path), exist_ok=True)
        binary = "b" in mode
        with open(path, mode, **({} if binary else {"encoding": encoding, "errors": errors})) as f:
            if content is not None:
                f.write(content)
        if cleanup is not None and not isinstance(cleanup, (bool, str)):
            raise TypeError(f"create_tempfile: cleanup must be a bool or a policy name, got "
                            f"{cleanup!r}.")
        return _TempPath(path)

    def assertRaisesWithPredicateMatch(self, exception_type, expected_err_re_or_predicate):  # noqa: N802
        """A context expecting exception_type whose message matches the regex (or for which the
        predicate is true)."""
        predicate = expected_err_re_or_predicate
        if isinstance(predicate, str):
            pattern = predicate
            predicate = lambda e: re.search(pattern, str(e)) is not None  # noqa: E731
        return _Raises(self, exception_type, predicate)

    def assertRaisesOpError(self, expected_err_re_or_predicate):  # noqa: N802
        """A context expecting an OpError matching the regex or predicate."""
        return self.assertRaisesWithPredicateMatch(OpError, expected_err_re_or_predicate)

    def assertRaisesIncompatibleShapesError(self, exception_type=InvalidArgumentError):  # noqa: N802
        """A context expecting exception_type about incompatible shapes."""
        return self.assertRaisesWithPredicateMatch(
            exception_type, r"Incompatible shapes|Dimensions must be equal|"
                            r"required broadcastable shapes|shape|broadcast")

    @contextlib.contextmanager
    def captureWritesToStream(self, stream):  # noqa: N802
        """Capture what is written to `stream` (sys.stdout, sys.stderr) at its file descriptor
        inside the `with`; `.contents()` gives the text afterwards."""
        stream.flush()
        fd = stream.fileno()
        saved = os.dup(fd)
        capture = _CapturedWrites(tempfile.TemporaryFile(mode="w+"))
        os.dup2(capture.file.fileno(), fd)
        try:
            yield capture
        finally:
            stream.flush()
            os.dup2(saved, fd)
            os.close(saved)

    def checkedThread(self, target, args=None, kwargs=None):  # noqa: N802
        """A thread whose exception fails the test when it is joined."""
        return _CheckedThread(self, target, args, kwargs)

    def record_property(self, property_name, property_value):
        """Record a property of the test (absl's test reports)."""
        self._properties[property_name] = property_value

    def get_recorded_properties(self):
        return dict(self._properties)

    def assertCommandSucceeds(self, command, regexes=(b"",), env=None, close_fds=True,  # noqa: N802
                              msg=None):
        """Run `command`; it exits with 0 and its output matches every regex."""
        code, output = _run(command, env, close_fds)
        self.assertEqual(code, 0, msg or f"{command} exited with {code}: {output!r}")
        for regex in regexes:
            self.assertRegex(output, regex if isinstance(regex, bytes) else regex.encode(), msg)

    def assertCommandFails(self, command, regexes, env=None, close_fds=True, msg=None):  # noqa: N802
        """Run `command`; it exits with non-zero and its output matches every regex."""
        code, output = _run(command, env, close_fds)
        self.assertNotEqual(code, 0, msg or f"{command} succeeded: {output!r}")
        for regex in regexes:
            self.assertRegex(output, regex if isinstance(regex, bytes) else regex.encode(), msg)

    def assertJsonEqual(self, first, second, msg=None):  # noqa: N802
        """Two JSON texts decode to equal values."""
        self.assertEqual(json.loads(first), json.loads(second), msg)

    def assertProtoEquals(self, expected_message_maybe_ascii, message, msg=None):  # noqa: N802
        """A message equals another, or the text format given (compared token by token)."""
        if isinstance(expected_message_maybe_ascii, str):
            want = expected_message_maybe_ascii.replace("\n", " ").split()
            self.assertEqual(want, str(message).replace("\n", " ").split(), msg)
        else:
            self.assertEqual(expected_message_maybe_ascii, message, msg)

    def assertProtoEqualsVersion(self, expected, actual, producer=None, min_consumer=None,  # noqa: N802
                                 msg=None):
        """assertProtoEquals for a GraphDef: `versions` compared when producer or min_consumer
        is given, left out of the comparison otherwise."""
        text = str(actual)
        if producer is None and min_consumer is None:
            text = re.sub(r"versions\s*\{[^}]*\}", "", text)
        else:
            expected = (f"versions {{ producer: {producer or 0}"
                        f"{f' min_consumer: {min_consumer}' if min_consumer else ''} }} "
                        + expected)
        self.assertProtoEquals(expected, text, msg)


def _check_devices(use_gpu, force_gpu):
    if force_gpu:
        raise unittest.SkipTest("force_gpu=True: wengert runs on the CPU only.")
    if not isinstance(use_gpu, bool):
        raise TypeError(f"use_gpu must be a bool, got {use_gpu!r}.")


def _eager_value(value):
    return value.numpy() if hasattr(value, "numpy") else value


def _run(command, env, close_fds):
    done = subprocess.run(command, shell=isinstance(command, str), env=env, close_fds=close_fds,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
    return done.returncode, done.stdout


class _Raises:
    def __init__(self, case, exception_type, predicate):
        self.case, self.exception_type, self.predicate = case, exception_type, predicate

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        if kind is None:
            self.case.fail(f"Exception of type {self.exception_type} not raised")
        if not issubclass(kind, self.exception_type) or not self.predicate(value):
            raise AssertionError(f"Exception of type {kind.__name__}: {value}") from value
        return True


class _TempPath(os.PathLike):
    def __init__(self, path):
        self.full_path = path

    def __fspath__(self):
        return self.full_path

    def __str__(self):
        return self.full_path

    def read_text(self):
        with open(self.full_path, encoding="utf8") as f:
            return f.read()


class _CapturedWrites:
    def __init__(self, file):
        self.file = file

    def contents(self):
        self.file.seek(0)
        return self.file.read()


class _CheckedThread:
    def __init__(self, case, target, args, kwargs):
        self._case, self._error = case, None

        def run():
            try:
                target(*(args or ()), **(kwargs or {}))
            except Exception as error:  # noqa: BLE001 - reported when joined
                self._error = error
        self._thread = threading.Thread(target=run)

    def start(self):
        self._thread.start()

    def join(self):
        self._thread.join()
        if self._error is not None:
            self._case.fail(f"{type(self._error).__name__}: {self._error}")

    def is_alive(self):
        return self._thread.is_alive()

