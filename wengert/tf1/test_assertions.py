"""The array assertions of `tf.test.TestCase`, as a mixin over `unittest.TestCase`.

Each compares values after `self.evaluate` turns tensors (eager, or of a graph, run in the test's
session) into NumPy arrays. `assertAllClose(a, b, rtol, atol)` holds when |a - b| <= atol +
rtol * |b| elementwise (after broadcasting), recursively through dicts, lists, tuples and
namedtuples of the same structure; `assertAllCloseAccordingToType` loosens the tolerances to
those of the lowest precision involved (float16 1e-3, bfloat16 1e-2); `assertAllEqual` needs
equal shapes and values; the ordered forms (`assertAllGreater`, `assertAllInRange`, ...) hold
for every element. `assertNear(f1, f2, err)` is |f1 - f2| <= err for floats,
`assertNDArrayNear` ||a - b|| < err over all elements.
"""
import numpy as np

__all__ = ["ArrayAssertions"]


class ArrayAssertions:
    """assertAllClose, assertAllEqual and the other assertions over arrays and tensors."""

    def _array(self, value):
        if _is_tensor(value):
            value = self.evaluate(value)
        return value if isinstance(value, np.ndarray) else np.asarray(value)

    def _close_structures(self, a, b, rtol, atol, msg, path):
        if isinstance(a, dict) or isinstance(b, dict):
            self.assertEqual(sorted(a), sorted(b), f"{msg or ''} keys differ at {path or 'top'}")
            for key in a:
                self._close_structures(a[key], b[key], rtol, atol, msg, f"{path}[{key!r}]")
            return
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and \
                not np.isscalar(a) and _nested(a, b):
            self.assertEqual(len(a), len(b), f"{msg or ''} lengths differ at {path or 'top'}: "
                             f"{len(a)} vs {len(b)}")
            for k, (x, y) in enumerate(zip(a, b)):
                self._close_structures(x, y, rtol, atol, msg, f"{path}[{k}]")
            return
        x, y = self._array(a), self._array(b)
        if x.shape != y.shape and x.size != 1 and y.size != 1:
            self.fail(f"{msg or ''} shapes differ at {path or 'top'}: {x.shape} vs {y.shape}")
        if x.dtype.kind in "OSU" or y.dtype.kind in "OSU":
            self.assertEqual(x.tolist(), y.tolist(), msg)
            return
        np.testing.assert_allclose(x, y, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=f"{msg or ''} at {path or 'top'}")

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802 (TF's names)
        """a and b (arrays, tensors, or structures of them) are elementwise close."""
        self._close_structures(a, b, rtol, atol, msg, "")

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6,  # noqa: N802
                                      float_atol=1e-6, half_rtol=1e-3, half_atol=1e-3,
                                      bfloat16_rtol=1e-2, bfloat16_atol=1e-2, msg=None):
        """assertAllClose with the tolerance of the lowest precision of a and b."""
        x, y = self._array(a), self._array(b)
        kinds = {x.dtype.name, y.dtype.name}
        if kinds & {"float32", "complex64"}:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        if "float16" in kinds:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        if "bfloat16" in kinds:
            rtol, atol = max(rtol, bfloat16_rtol), max(atol, bfloat16_atol)
        self.assertAllClose(x, y, rtol=rtol, atol=atol, msg=msg)

    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        """Some element of a is not close to b's."""
        try:
            self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)
        except AssertionError:
            return
        self.fail(msg or "The two values are close at all elements.")

    def assertAllEqual(self, a, b, msg=None):  # noqa: N802
        """a and b have the same shape and elements."""
        x, y = self._array(a), self._array(b)
        if x.shape != y.shape and x.size != 1 and y.size != 1:
            self.fail(f"{msg or ''} shapes differ: {x.shape} vs {y.shape}")
        same = x == y
        if not np.all(same):
            self.fail(f"{msg or ''} not equal where {np.argwhere(~np.asarray(same)).tolist()}: "
                      f"{x.tolist()} vs {y.tolist()}")

    def assertNotAllEqual(self, a, b, msg=None):  # noqa: N802
        """Some element of a differs from b's."""
        try:
            self.assertAllEqual(a, b, msg=msg)
        except AssertionError:
            return
        self.fail(msg or "The two values are equal at all elements.")

    def _all(self, a, test, what):
        x = self._array(a)
        if not np.all(test(x)):
            self.fail(f"Not every element of {x.tolist()} is {what}.")

    def assertAllGreater(self, a, comparison_target):  # noqa: N802
        self._all(a, lambda x: x > comparison_target, f"> {comparison_target}")

    def assertAllGreaterEqual(self, a, comparison_target):  # noqa: N802
        self._all(a, lambda x: x >= comparison_target, f">= {comparison_target}")

    def assertAllLess(self, a, comparison_target):  # noqa: N802
        self._all(a, lambda x: x < comparison_target, f"< {comparison_target}")

    def assertAllLessEqual(self, a, comparison_target):  # noqa: N802
        self._all(a, lambda x: x <= comparison_target, f"<= {comparison_target}")

    def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False,  # noqa: N802
                         open_upper_bound=False):
        """Every element lies between the bounds (each closed unless said open)."""
        x = self._array(target)
        if not np.issubdtype(x.dtype, np.number):
            raise AssertionError(f"The value of {x.tolist()} does not have an ordered numeric "
                                 f"type, instead it has type: {x.dtype}")
        low = x > lower_bound if open_lower_bound else x >= lower_bound
        high = x < upper_bound if open_upper_bound else x <= upper_bound
        if not np.all(low & high):
            self.fail(f"{x.tolist()} has elements outside "
                      f"{'(' if open_lower_bound else '['}{lower_bound}, {upper_bound}"
                      f"{')' if open_upper_bound else ']'}.")

    def assertAllInSet(self, target, expected_set):  # noqa: N802
        """Every element of target is in expected_set."""
        x = self._array(target)
        outside = set(np.unique(x).tolist()) - set(np.asarray(list(expected_set)).tolist())
        if outside:
            self.fail(f"{sorted(outside)} not in {sorted(expected_set)}.")

    def assertArrayNear(self, farray1, farray2, err, msg=None):  # noqa: N802
        """Two lists of floats, each pair within err."""
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def assertNear(self, f1, f2, err, msg=None):  # noqa: N802
        """|f1 - f2| <= err."""
        self.assertTrue(f1 == f2 or abs(f1 - f2) <= err,
                        f"{f1:f} != {f2:f} +/- {err:f}{' (' + msg + ')' if msg else ''}")

    def assertNDArrayNear(self, ndarray1, ndarray2, err, msg=None):  # noqa: N802
        """The norm of ndarray1 - ndarray2 (all elements) is below err."""
        x, y = np.asarray(ndarray1), np.asarray(ndarray2)
        self.assertTrue(np.linalg.norm(x - y) < err, msg)

    def assertDTypeEqual(self, target, expected_dtype):  # noqa: N802
        """target's elements have expected_dtype."""
        x = self._array(target)
        want = getattr(expected_dtype, "as_numpy_dtype", expected_dtype)
        self.assertEqual(x.dtype, np.dtype(want))

    def assertShapeEqual(self, input_a, input_b, msg=None):  # noqa: N802
        """A NumPy array's shape equals a tensor's static shape."""
        if not isinstance(input_a, np.ndarray):
            raise TypeError(f"input_a must be a NumPy ndarray, got {type(input_a).__name__}.")
        self.assertEqual(list(input_a.shape), input_b.get_shape().as_list(), msg=msg)

    def assertDeviceEqual(self, device1, device2, msg=None):  # noqa: N802
        """Two device strings name the same device."""
        self.assertEqual(_canonical_device(device1), _canonical_device(device2), msg)

    def evaluate_if_both_tensors(self, a, b):
        """(a, b) evaluated when both are tensors, else as given."""
        if _is_tensor(a) and _is_tensor(b):
            return self.evaluate((a, b))
        return a, b


def _is_tensor(value):
    """A tensor or variable (eager or of a graph), as opposed to arrays and Python values."""
    return hasattr(value, "dtype") and hasattr(value, "shape") and \
        not isinstance(value, (np.ndarray, np.generic))


def _nested(a, b):
    """Whether a and b are sequences of structures (compared item by item) rather than array
    literals."""
    items = list(a) + list(b)
    return any(isinstance(x, (dict, list, tuple)) or hasattr(x, "dtype") and
               not isinstance(x, np.generic) for x in items)


def _canonical_device(name):
    return (name or "").lower().replace("/device:", "/")
