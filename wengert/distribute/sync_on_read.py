"""`SyncOnReadVariable`: a variable created under a MirroredStrategy's scope with
`synchronization=tf.VariableSynchronization.ON_READ`, as TensorFlow keeps one: a copy per replica,
each replica reading and updating its own, combined only when it is read outside `run`.

    with strategy.scope():
        v = tf.Variable(2.0, synchronization=ON_READ, aggregation=SUM)
    strategy.run(lambda: v.assign_add(1.0 + replica_id))   # copies: 3.0 and 4.0
    v.numpy()                                              # 7.0 = 3.0 + 4.0

With N replicas and copies c_0 .. c_{N-1}:
- inside `run`, replica r reads c_r, and assign / assign_add / assign_sub change c_r only (no
  merge call);
- outside `run`, a read is SUM: c_0 + ... + c_{N-1}, MEAN: that / N, ONLY_FIRST_REPLICA: c_0;
  NONE has no reduction and raises TensorFlow's ValueError;
- outside `run`, `assign(x)` sets every copy to x (SUM: to x / N, so that the sum reads x);
  `assign_add` / `assign_sub` change every copy, and with SUM raise TensorFlow's ValueError.

Copy 0 is the variable's own value (so tapes, graphs and checkpoints that hold the variable hold
copy 0); copies 1 .. N-1 are plain variables named "<name>/replica_r", made with it. It prints
as TensorFlow prints it: `SyncOnReadVariable:{\\n  0: <tf.Variable ...>,\\n  1: ...\\n}`.
"""
import numpy as np

from ..framework import dtypes
from ..framework.context import state
from ..framework.tensor import convert_to_tensor
from ..framework.variables import Variable, replica_update_scope
from ..ops.broadcast_ops import add_n
from ..ops.math_ops import cast
from ..tracing.func_graph import init_scope
from . import context as ctx

__all__ = ["SyncOnReadVariable", "is_on_read", "make_sync_on_read"]

_UFUNCS = {"assign_add": np.add, "assign_sub": np.subtract}


def is_on_read(synchronization):
    """Whether `synchronization` (a VariableSynchronization or Keras's string) is ON_READ."""
    return str(getattr(synchronization, "name", synchronization)).upper() == "ON_READ"


def make_sync_on_read(strategy, variable, aggregation):
    """Turn a plain Variable just made under `strategy` into a SyncOnReadVariable, with its
    copies for replicas 1 .. N-1 (made eagerly, without creators or creation hooks)."""
    hooks, state.variable_hooks = state.variable_hooks, ()
    try:
        with init_scope():
            initial = np.array(Variable.numpy(variable))
            variable._copies = [
                type.__call__(Variable, initial, trainable=variable.trainable,
                              name=f"{variable._name}/replica_{r}")
                for r in range(1, strategy.num_replicas_in_sync)]
    finally:
        state.variable_hooks = hooks
    variable._on_read = aggregation
    variable.__class__ = SyncOnReadVariable


class SyncOnReadVariable(Variable):
    """One copy per replica, combined on read outside `run` (see the module docstring)."""

    @property
    def distribute_strategy(self):
        return self._mirrored_by

    def _replica(self):
        entry = ctx.current_entry()
        if entry is None or entry[1] is None or entry[0] is not self._mirrored_by:
            return None
        return entry[1]._replica_id

    # -- reading ----------------------------------------------------------------------------
    def _copy_read(self, r):
        return Variable.read_value(self) if r == 0 else self._copies[r - 1].read_value()

    def read_value(self):
        r = self._replica()
        if r is not None:
            return self._copy_read(r)
        if self._on_read == "ONLY_FIRST_REPLICA":
            return Variable.read_value(self)
        if self._on_read not in ("SUM", "MEAN"):
            raise ValueError("Could not convert from `tf.VariableAggregation` "
                             f"VariableAggregationV2.{self._on_read} to`tf.distribute.ReduceOp` "
                             "type")
        total = add_n([self._copy_read(r) for r in range(len(self._copies) + 1)])
        return total if self._on_read == "SUM" else total / cast(len(self._copies) + 1,
                                                                  total.dtype)

    def _as_tensor(self, dtype=None):
        if dtype is not None and dtypes.as_dtype(dtype) is not self.dtype:
            raise ValueError(f"Variable '{self.name}' has dtype {self.dtype.name}, but "
                             f"{dtypes.as_dtype(dtype).name} was requested; use cast.")
        return self.read_value()

    def numpy(self):
        if state.graph is not None and getattr(state.graph, "lifts_variables", False):
            return Variable.numpy(self)  # (its error: no values while tracing)
        return self.read_value().numpy()

    def __array__(self, dtype=None, copy=None):
        return np.array(self.numpy(), dtype=dtype, copy=True)

    # -- writing ----------------------------------------------------------------------------
    def assign(self, value, use_locking=None, name=None, read_value=True):
        return self._sync_update("assign", value, read_value)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._sync_update("assign_add", delta, read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._sync_update("assign_sub", delta, read_value)

    def _sync_update(self, kind, value, read_value):
        r = self._replica()
        if r is not None:  # this replica's copy only
            result = self._copy_update(r, kind, value, read_value)
            return None if not read_value else (
                self._copy_read(r) if isinstance(result, Variable) else result)
        if self._on_read == "SUM":
            if kind != "assign":
                raise ValueError(f"SyncOnReadVariable does not support `{kind}` in "
                                 "cross-replica context when aggregation is set to "
                                 "`tf.VariableAggregation.SUM`.")
            value = self._share(value)
        for copy in range(len(self._copies) + 1):
            self._copy_update(copy, kind, value, False)
        return self.read_value() if read_value else None  # (NONE: TensorFlow's error)

    def _share(self, value):
        """Each copy's part of a SUM variable's value: value / N (integers: floor)."""
        value, n = convert_to_tensor(value, dtype=self.dtype), len(self._copies) + 1
        return value / cast(n, self.dtype) if self.dtype.is_floating else value // n

    def _copy_update(self, r, kind, value, read_value):
        with replica_update_scope(None):
            if r > 0:
                return getattr(self._copies[r - 1], kind)(value, read_value=read_value)
            if kind == "assign":
                return Variable._assign(self, value, None, read_value)
            return Variable._update(self, _UFUNCS[kind], kind, value, None, read_value)

    def __repr__(self):
        lines = [Variable.__repr__(self)] + [repr(c) for c in self._copies]
        body = ",\n".join(f"  {i}: {line}" for i, line in enumerate(lines))
        return f"SyncOnReadVariable:{{\n{body}\n}}"

    __str__ = __repr__
