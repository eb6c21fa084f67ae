"""The base of `keras.losses`: Loss, LossFunctionWrapper, the reductions, the factory of the Loss
classes over a loss function, and the conversions the loss functions share (labels cast to the
predictions' dtype, a trailing size-1 axis squeezed when the ranks differ by one, Keras's
epsilon in the predictions' dtype).

A Loss object's `__call__(y_true, y_pred, sample_weight=None)` computes the per-sample losses,
multiplies them by the sample weights, and reduces: "sum_over_batch_size" (the default, "auto")
divides the sum by the number of per-sample losses, "sum" sums, "none" (or None) returns them.
Under a tf.distribute strategy with N replicas, the "sum_over_batch_size" reduction is also
divided by N, as in Keras 3 (each replica's share of a loss whose gradients are summed); in
fit's and evaluate's own steps it is the sum over the global batch's element count instead
(keras/distributed.py), which stays exact when the replicas hold different numbers of rows.
"""
import sys

import numpy as np

from ...distribute.context import get_strategy
from ...ops.creation_ops import shape as shape_of
from ...framework import dtypes
from ...framework.tensor import Tensor, constant, convert_to_tensor
from ...ops.binary_math_ops import divide_no_nan
from ...ops.math_ops import cast, multiply
from ...ops.query_ops import size
from ...ops.reduce_ops import reduce_mean, reduce_sum
from ...ops.reshape_ops import squeeze
from .. import backend
from ..distributed import global_rows

__all__ = ["Loss", "Reduction", "LossFunctionWrapper", "reduce_losses", "apply_mask"]


class Reduction:
    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def validate(cls, key):
        if key not in (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE):
            raise ValueError(f"Invalid Reduction Key: {key!r}. Expected one of 'auto', 'none', "
                             "'sum', 'sum_over_batch_size'.")


# -- conversions ------------------------------------------------------------------------------
def _half_to_floatx(y_pred):
    """floatx for float16 predictions (mixed precision computes losses in float32, as Keras)."""
    half = isinstance(y_pred, Tensor) and y_pred.dtype == dtypes.float16
    return dtypes.as_dtype(backend.floatx()) if half else None


def _tensor(x, dtype=None):
    if isinstance(x, Tensor):
        return x if dtype is None or x.dtype is dtype else cast(x, dtype)
    if hasattr(x, "_as_tensor"):
        return _tensor(x._as_tensor(None), dtype)
    array = np.asarray(x)
    if dtype is not None:
        array = array.astype(dtype.as_numpy_dtype, copy=False)
    return constant(array)


def _pred_and_true(y_true, y_pred):
    """y_pred as a float tensor, y_true as a tensor of its dtype, trailing size-1 axis fixed."""
    y_pred = convert_to_tensor(y_pred) if not isinstance(y_pred, Tensor) else y_pred
    y_true = _tensor(y_true, y_pred.dtype)
    return _squeeze_or_expand(y_true, y_pred)


def _convert(y_true, y_pred):
    """y_pred as a tensor, y_true cast to its dtype (no rank fixing, as Keras for these)."""
    y_pred = y_pred if isinstance(y_pred, Tensor) else convert_to_tensor(y_pred)
    return _tensor(y_true, y_pred.dtype), y_pred


def _const(value, dtype):
    return cast(value, dtype)


def _squeeze_or_expand(y_true, y_pred):
    rt, rp = y_true.shape.rank, y_pred.shape.rank
    if rt is not None and rp is not None:
        if rt == rp + 1 and y_true.shape[-1] == 1:
            y_true = squeeze(y_true, [-1])
        elif rp == rt + 1 and y_pred.shape[-1] == 1:
            y_pred = squeeze(y_pred, [-1])
    return y_true, y_pred


def _eps(dtype):
    return dtype.as_numpy_dtype(backend.epsilon())


# -- Loss objects -----------------------------------------------------------------------------
def reduce_losses(losses, sample_weight=None, reduction=Reduction.SUM_OVER_BATCH_SIZE):
    """Weight per-sample losses by `sample_weight` and reduce them."""
    if sample_weight is not None:
        weights = _tensor(sample_weight, losses.dtype)
        if weights.shape.rank is not None and losses.shape.rank is not None:
            while weights.shape.rank > losses.shape.rank and weights.shape[-1] == 1:
                weights = squeeze(weights, [-1])
        losses = multiply(losses, weights)
    if reduction == Reduction.NONE:
        return losses
    if reduction == Reduction.SUM:
        return reduce_sum(losses)
    rows = global_rows()
    if rows is not None:  # fit/evaluate's distributed step: this replica's share of the mean
        return _share_of_global_mean(losses, rows)
    return _scale_for_distribution(reduce_mean(losses))


def _share_of_global_mean(losses, rows):
    """sum(losses) / (elements of the global batch): summed over the replicas, the global
    batch's mean; 0 for a replica without rows."""
    total = reduce_sum(losses)
    if losses.shape.rank == 0:
        per_row = cast(1.0, total.dtype)
    else:
        per_row = divide_no_nan(cast(size(losses), total.dtype),
                                cast(shape_of(losses)[0], total.dtype))
    return divide_no_nan(total, cast(rows, total.dtype) * per_row)


def apply_mask(mask, sample_weight, reduction, dtype):
    """Keras's apply_mask: a boolean mask of kept losses merged into the sample weights; under
    the mean reductions the kept entries weigh total / kept, so the mean is over them only."""
    valid = cast(mask, dtype)
    if reduction in (Reduction.AUTO, Reduction.SUM_OVER_BATCH_SIZE):
        total = cast(size(valid), dtype)
        valid = valid * divide_no_nan(total, reduce_sum(valid))
    if sample_weight is None:
        return valid
    weights = _tensor(sample_weight, dtype)
    if weights.shape.rank is not None and valid.shape.rank is not None:
        while weights.shape.rank > valid.shape.rank and weights.shape[-1] == 1:
            weights = squeeze(weights, [-1])
        while valid.shape.rank > weights.shape.rank and valid.shape[-1] == 1:
            valid = squeeze(valid, [-1])
    return weights * valid


def _scale_for_distribution(loss):
    """Keras 3 divides a mean loss by the replica count under a tf.distribute strategy, so the
    gradients summed across replicas are the mean over the global batch."""
    replicas = get_strategy().num_replicas_in_sync
    return loss if replicas == 1 else multiply(loss, cast(1.0 / replicas, loss.dtype))


class Loss:
    """Base class: `call(y_true, y_pred)` returns per-sample losses; `__call__` reduces them."""

    def __init__(self, reduction=Reduction.AUTO, name=None, dtype=None):
        reduction = Reduction.NONE if reduction is None else reduction  # Keras 3 accepts None
        Reduction.validate(reduction)
        self.reduction = reduction
        self.name = name or backend.to_snake_case(type(self).__name__)
        self._dtype = None if dtype is None else dtypes.as_dtype(dtype)

    @property
    def dtype(self):
        """The dtype inputs are cast to (Keras's floatx when None is given to Keras; wengert
        keeps the predictions' dtype then)."""
        return (self._dtype or dtypes.as_dtype(backend.floatx())).name

    def __call__(self, y_true, y_pred, sample_weight=None):
        dtype = self._dtype or _half_to_floatx(y_pred)
        if dtype is not None:
            y_pred, y_true = _tensor(y_pred, dtype), _tensor(y_true, dtype)
        return reduce_losses(self.call(y_true, y_pred), sample_weight, self.reduction)

    def call(self, y_true, y_pred):
        raise NotImplementedError("Loss subclasses implement call(y_true, y_pred).")

    def get_config(self):
        config = {"reduction": self.reduction, "name": self.name}
        if self._dtype is not None:
            config["dtype"] = self._dtype.name
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A Loss from a function fn(y_true, y_pred, **kwargs) of per-sample losses."""

    def __init__(self, fn, reduction=Reduction.AUTO, name=None, dtype=None, **kwargs):
        super().__init__(reduction=reduction, name=name or getattr(fn, "__name__", None),
                         dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        config = super().get_config()
        config.update(self._fn_kwargs)
        return config


_SOBS = Reduction.SUM_OVER_BATCH_SIZE


def _loss_class(class_name, fn, default_name, params=()):
    """A LossFunctionWrapper subclass over fn, in the calling module: __init__(*params,
    reduction, name, dtype) with Keras 3's names and defaults."""
    names = [p for p, _ in params]
    defaults = dict(params)

    def __init__(self, *args, reduction=_SOBS, name=default_name, dtype=None, **kwargs):
        if len(args) > len(names):
            raise TypeError(f"{class_name}() takes at most {len(names)} positional arguments "
                            f"({', '.join(names) or 'none'}), got {len(args)}.")
        unknown = set(kwargs) - set(names)
        if unknown:
            accepted = names + ["reduction", "name", "dtype"]
            raise TypeError(f"{class_name}() got unexpected keyword arguments "
                            f"{sorted(unknown)}; it takes {accepted}.")
        values = {**defaults, **dict(zip(names, args)), **kwargs}
        LossFunctionWrapper.__init__(self, fn, reduction=reduction, name=name, dtype=dtype,
                                     **values)

    doc = f"Loss object for keras.losses.{fn.__name__} ({', '.join(names) or 'no options'})."
    module = sys._getframe(1).f_globals["__name__"]
    return type(class_name, (LossFunctionWrapper,),
                {"__init__": __init__, "__module__": module, "__doc__": doc})
