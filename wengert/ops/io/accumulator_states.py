"""The state of TensorFlow 1's conditional accumulators, as TensorFlow's accumulator kernels keep
it: a global time step, a count of the gradients taken in, and their running sum.

A gradient is applied only when its `local_step` is not behind the global step; a stale one is
dropped silently (after that check, and only then, its shape is validated). The first gradient
after a take fixes the shape of the round: later ones must match it, and every one the declared
(possibly partial) shape. `take(n)` waits until n gradients are in (n < 1 is an
InvalidArgumentError), returns their mean (MEAN: the sum over the count; integer dtypes divide
truncating, as C++ does) or sum (SUM), empties the accumulator and advances the global step by
one. `set_global_step(s)` sets the step (lower than now too, as TensorFlow does, with its
warning). A wait past the Session.run deadline is a DeadlineExceededError; closing the Session
cancels it.

The sparse accumulator keeps (indices, values, counts): a gradient's rows merge into it the way
TensorFlow's kernel merges them, walking both index lists in step (equal indices add, and the
smaller one goes first), so indices come back in the order that walk gives; with MEAN each row
is divided by the number of gradients that held its index.
"""
import threading
import time

import numpy as np

from ...framework.context import state
from ...framework.errors import CancelledError, DeadlineExceededError, InvalidArgumentError
from ...util.tf_logging import get_logger

__all__ = ["AccumulatorSpec", "state_of"]

_CREATE = threading.Lock()


def _text(shape):
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


class AccumulatorSpec:
    """What an accumulator is declared with; `shape` is a TensorShape (rank None: unknown)."""

    def __init__(self, sparse, dtype, shape, reduction_type, name):
        self.sparse, self.dtype, self.shape = sparse, dtype, shape
        self.reduction_type, self.name = reduction_type, name
        self._eager = None

    def eager_state(self):
        if self._eager is None:
            with _CREATE:
                if self._eager is None:
                    self._eager = AccumulatorState(self)
        return self._eager


def state_of(store, spec):
    """The state of `spec` among a Session's resources (made on first use), or its eager one."""
    resources = getattr(store, "resources", None)
    if resources is None:
        return spec.eager_state()
    found = resources.get(spec)
    if found is None:
        with _CREATE:
            found = resources.setdefault(spec, AccumulatorState(spec))
    return found


class AccumulatorState:
    """One live accumulator (see the module docstring for its rules)."""

    def __init__(self, spec):
        self.spec = spec
        self.step = 0
        self.count = 0
        self.ended = False
        self._sum = None  # dense: an array; sparse: [indices, rows, counts]
        self._cond = threading.Condition()

    def end(self):
        """The Session closed: cancel every waiting take."""
        with self._cond:
            self.ended = True
            self._cond.notify_all()

    def _set_step(self, step):
        with self._cond:
            if step < self.step:
                get_logger().warning(f"Attempt to set global step of accumulator "
                                     f"'{self.spec.name}' to a smaller value: {step} < "
                                     f"{self.step}")
            self.step = step

    # -- applying -------------------------------------------------------------------------------
    def _apply_dense(self, local_step, grad):
        with self._cond:
            if local_step < self.step:
                return  # stale: dropped, as TensorFlow drops it
            self._check_declared(grad.shape)
            if self.count and grad.shape != self._sum.shape:
                raise InvalidArgumentError(f"Shape mismatch: expected {_text(self._sum.shape)}, "
                                           f"got {_text(grad.shape)}")
            self._sum = grad.copy() if not self.count else self._sum + grad
            self.count += 1
            self._cond.notify_all()

    def _check_declared(self, shape):
        declared = self.spec.shape
        if declared.rank is not None and not declared.is_compatible_with(shape):
            raise InvalidArgumentError(f"Shape mismatch: expected {_text(declared.as_list())}, "
                                       f"got {_text(shape)}")

    def _apply_sparse(self, local_step, indices, values, shape, has_known_shape):
        with self._cond:
            if local_step < self.step:
                return
            self._check_sparse(indices, values, shape if has_known_shape else None)
            if not self.count:
                self._sum = [list(indices), list(values.copy()), [1] * len(indices)]
            else:
                self._sum = _merged(self._sum, indices, values)
            self.count += 1
            self._cond.notify_all()

    def _check_sparse(self, indices, values, shape):
        if values.ndim == 0 or len(indices) != values.shape[0]:
            raise InvalidArgumentError(f"Expected {len(indices)} non-empty input values, got "
                                       f"{values.shape[0] if values.ndim else 0}")
        declared = self.spec.shape.as_list() if self.spec.shape.rank is not None else None
        if declared is not None:
            for d in range(1, min(len(declared), values.ndim)):
                if declared[d] is not None and declared[d] != values.shape[d]:
                    raise InvalidArgumentError(f"Shape mismatch: expected values dim {d} to be "
                                               f"{declared[d]}, got {values.shape[d]}")
            for d, got in enumerate([] if shape is None else shape):
                if d < len(declared) and declared[d] is not None and declared[d] != got:
                    raise InvalidArgumentError(f"Shape mismatch: expected shape dim {d} to be "
                                               f"{declared[d]}, got {got}")
        if self.count and self._sum[1] and values.shape[1:] != self._sum[1][0].shape:
            raise InvalidArgumentError(f"Shape mismatch: expected values dim 1 to be "
                                       f"{self._sum[1][0].shape[:1]}, got {values.shape[1:2]}")
        limit = shape[0] if shape is not None and len(shape) else (
            declared[0] if declared else None)
        for i, index in enumerate(indices):
            if limit is not None and not 0 <= index < limit:
                raise InvalidArgumentError(f"Shape mismatch: index of slice {i} exceeded limits "
                                           f"of shape; index is {index} exceeded {limit}")

    # -- taking ---------------------------------------------------------------------------------
    def _wait_for(self, num_required):
        if num_required < 1:
            raise InvalidArgumentError(f"Argument num_required must be positive, but was "
                                       f"{num_required}")
        deadline = state.run_deadline
        while self.count < num_required:
            if self.ended:
                raise CancelledError(None, None, f"Accumulator '{self.spec.name}': the Session "
                                     "was closed while take_grad waited.")
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise DeadlineExceededError(None, None, "Timed out waiting for notification")
            self._cond.wait(left)

    def _reset(self):
        self.count, self._sum = 0, None
        self.step += 1
        self._cond.notify_all()

    def _take_dense(self, num_required):
        with self._cond:
            self._wait_for(num_required)
            out = _reduced(self._sum, self.count, self.spec)
            self._reset()
            return out

    def _take_sparse(self, num_required, row_shape):
        with self._cond:
            self._wait_for(num_required)
            indices, rows, counts = self._sum
            dtype = self.spec.dtype.as_numpy_dtype
            values = np.stack([_reduced(r, c, self.spec) for r, c in zip(rows, counts)]) \
                if rows else np.zeros((0,) + tuple(row_shape), dtype)
            self._reset()
            return np.array(indices, np.int64), values.astype(dtype, copy=False)


def _reduced(total, count, spec):
    if spec.reduction_type == "SUM":
        return total.copy()
    if np.issubdtype(total.dtype, np.integer):
        return (np.trunc(total / count)).astype(total.dtype)
    return (total / count).astype(total.dtype)


def _merged(accumulated, indices, values):
    """TensorFlow's merge of a sparse gradient into the accumulated one: both index lists are
    walked in step; equal indices add (and count), otherwise the smaller goes first."""
    old_idx, old_rows, old_counts = accumulated
    idx, rows, counts = [], [], []
    i = j = 0
    while i < len(old_idx) and j < len(indices):
        if old_idx[i] < indices[j]:
            idx.append(old_idx[i]), rows.append(old_rows[i]), counts.append(old_counts[i])
            i += 1
        elif old_idx[i] > indices[j]:
            idx.append(indices[j]), rows.append(values[j].copy()), counts.append(1)
            j += 1
        else:
            idx.append(old_idx[i]), rows.append(old_rows[i] + values[j])
            counts.append(old_counts[i] + 1)
            i, j = i + 1, j + 1
    idx += old_idx[i:] + list(indices[j:])
    rows += old_rows[i:] + [v.copy() for v in values[j:]]
    counts += old_counts[i:] + [1] * (len(indices) - j)
    return [idx, rows, counts]
