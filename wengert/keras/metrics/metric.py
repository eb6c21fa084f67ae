"""The base of `keras.metrics`: Metric (state in non-trainable Variables, update_state /
result / reset_state), Mean and Sum (running weighted total and count), and MeanMetricWrapper
(the running mean of a per-sample function). Metrics are not Layers: a model does not count
their state among its weights.

A metric keeps its state in non-trainable keras.Variables (`total`, `count`, named bare, with the
path "<metric>/<name>", as Keras 3 names them): `update_state(...)` adds
a batch, `result()` is total / count (0 before any update), `reset_state()` zeroes it, and
calling the metric does an update and returns the result.
"""
import sys

import numpy as np

from ...framework import dtypes
from ...framework.tensor import Tensor, constant
from ...ops.binary_math_ops import divide_no_nan
from ...ops.broadcast_ops import broadcast_to
from ...ops.math_ops import cast, multiply
from ...ops.reduce_ops import reduce_mean, reduce_sum
from ...ops.reshape_ops import expand_dims, squeeze
from .. import backend, initializers
from ..variables import KerasVariable
from .stateless_metric import StatelessMetric

__all__ = ["Metric", "Mean", "Sum", "MeanMetricWrapper"]

_K3_ORDER = ("shape", "initializer", "dtype", "name")
_K2_ORDER = ("name", "shape", "initializer", "dtype")


def _tensor(x):
    if isinstance(x, Tensor):
        return x
    if hasattr(x, "_as_tensor"):
        return x._as_tensor(None)
    return constant(np.asarray(x))


class Metric(StatelessMetric):
    """Base class: `update_state`, `result`, `reset_state`; state in non-trainable Variables
    (the stateless_* variants: stateless_metric.py)."""

    def __init__(self, name=None, dtype=None):
        self.name = name or backend.to_snake_case(type(self).__name__)
        self._dtype = dtypes.as_dtype(dtype or backend.floatx())
        self._variables = []

    @property
    def dtype(self):
        return self._dtype.name

    @property
    def variables(self):
        return list(self._variables)

    non_trainable_variables = variables

    def add_weight(self, *args, **kwargs):
        """Keras 3's add_weight(shape=(), initializer=None, dtype=None, name=None); a string
        first is a name, in Keras 2's order (name, shape, initializer, dtype)."""
        order = _K2_ORDER if args and isinstance(args[0], str) else _K3_ORDER
        if len(args) > len(order):
            raise TypeError(f"Metric.add_weight takes at most {len(order)} positional "
                            f"arguments, got {len(args)}.")
        spec = dict(zip(order, args))
        for key, value in kwargs.items():
            if key not in _K3_ORDER or key in spec:
                raise TypeError(f"Metric.add_weight: unexpected or repeated argument {key!r}.")
            spec[key] = value
        return self.add_variable(spec.get("shape", ()), spec.get("initializer") or "zeros",
                                 dtype=spec.get("dtype"), name=spec.get("name"))

    def add_variable(self, shape, initializer, dtype=None, aggregation="sum", name=None):
        """A non-trainable state variable named `name` (path "<metric>/<name>"), set by
        `initializer` (a Keras initializer or its name); `aggregation` says how replicas
        combine it ("sum", "mean", "only_first_replica" or "none")."""
        if aggregation not in ("none", "mean", "sum", "only_first_replica"):
            raise ValueError(f"Metric.add_variable: aggregation={aggregation!r} is not one of "
                             "'none', 'mean', 'sum', 'only_first_replica'.")
        dtype = dtypes.as_dtype(dtype or self._dtype)
        shape = tuple(int(d) for d in (shape or ()))
        init = initializers.get(initializer)
        name = name or f"variable_{len(self._variables)}"
        variable = KerasVariable.layer_weight(
            lambda: init(shape, dtype=dtype), name=name, path=f"{self.name}/{name}",
            op_name=f"{self.name}/{name}", trainable=False, dtype=dtype)
        variable.aggregation = aggregation
        self._variables.append(variable)
        return variable

    def update_state(self, *args, **kwargs):
        raise NotImplementedError

    def result(self):
        raise NotImplementedError

    def reset_state(self):
        for v in self._variables:
            v.assign(np.zeros(v.shape, v.dtype.as_numpy_dtype))

    reset_states = reset_state

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name!r}>"


def _same_rank(x1, x2, expand_rank_1=True):
    """Keras's squeeze_or_expand_to_same_rank: fix a rank difference of one made by a trailing
    axis of size 1 (squeezed, or the rank-1 side expanded when expand_rank_1)."""
    r1, r2 = x1.shape.rank, x2.shape.rank
    if r1 == r2 + 1 and x1.shape[-1] == 1:
        if r2 == 1 and expand_rank_1:
            x2 = expand_dims(x2, -1)
        else:
            x1 = squeeze(x1, [-1])
    elif r2 == r1 + 1 and x2.shape[-1] == 1:
        if r1 == 1 and expand_rank_1:
            x1 = expand_dims(x1, -1)
        else:
            x2 = squeeze(x2, [-1])
    return x1, x2


def _trailing(reduce_fn, x, start):
    rank = x.shape.rank
    return reduce_fn(x, list(range(start, rank))) if rank is not None and rank > start else x


class _Reduce(Metric):
    """Keras 3's reduce_to_samplewise_values: values (times the weights, broadcast to them) are
    reduced to one per sample over their trailing axes (by `_reduce_fn`), the weights likewise;
    `total` sums them and `count` sums the weights (or counts the samples)."""
    _reduce_fn = staticmethod(reduce_mean)

    def __init__(self, name=None, dtype=None):
        super().__init__(name, dtype)
        self.total = self.add_weight("total")
        self.count = self.add_weight("count")

    def update_state(self, values, sample_weight=None):
        values = _tensor(values)
        if values.dtype is not self._dtype:
            values = cast(values, self._dtype)
        weights = None
        if sample_weight is not None:
            weights = _tensor(sample_weight)
            if weights.dtype is not self._dtype:
                weights = cast(weights, self._dtype)
            values, weights = _same_rank(values, weights)
            values = _trailing(self._reduce_fn, values, weights.shape.rank)
            weights = broadcast_to(weights, tuple(values.shape))
            values = multiply(values, weights)
            weights = _trailing(self._reduce_fn, weights, 1)
        values = _trailing(self._reduce_fn, values, 1)
        self.total.assign_add(reduce_sum(values))
        if weights is not None:
            self.count.assign_add(reduce_sum(weights))
        else:
            n = values.shape[0] if values.shape.rank else 1
            self.count.assign_add(np.asarray(n, self._dtype.as_numpy_dtype))


class Mean(_Reduce):
    """The (weighted) mean of all values given to update_state."""

    def __init__(self, name="mean", dtype=None):
        super().__init__(name, dtype)

    def result(self):
        return divide_no_nan(self.total.read_value(), self.count.read_value())


class Sum(_Reduce):
    """The (weighted) sum of all values given to update_state."""
    _reduce_fn = staticmethod(reduce_sum)

    def __init__(self, name="sum", dtype=None):
        super().__init__(name, dtype)

    def result(self):
        return self.total.read_value()


class MeanMetricWrapper(Mean):
    """The running mean of fn(y_true, y_pred, **kwargs) over samples."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name or fn.__name__, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        super().update_state(self._fn(y_true, y_pred, **self._fn_kwargs), sample_weight)

    def get_config(self):
        """name, dtype and the function's keyword arguments (BinaryAccuracy's threshold, ...)."""
        return {**super().get_config(), **self._fn_kwargs}


def _wrapper(class_name, fn, default_name, **defaults):
    """A MeanMetricWrapper subclass over fn, in the calling module."""
    def __init__(self, name=default_name, dtype=None, **kwargs):
        MeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype, **{**defaults, **kwargs})
    module = sys._getframe(1).f_globals["__name__"]
    return type(class_name, (MeanMetricWrapper,), {"__init__": __init__, "__module__": module,
                                                  "__doc__": f"Running mean of {fn.__name__}."})
