"""Shape queries: shape, size and rank of a tensor, as int tensors.

Each reads only its input's shape, never its values (`reads_shape_only`), so a static shape
alone evaluates it while a graph is built (framework/static_value.py), and its integer result
has no gradient. They sit low among the op families because gradient rules and the ops whose
sizes are known only when a graph runs (slicing, tiling) build their shapes from them.
"""
import numpy as np

from ..framework import dtypes
from ..framework.dispatch import dispatchable
from ..framework.execute import execute
from ..framework.registry import defop
from ..framework.tensor_shape import TensorShape
from .broadcast_ops import _like_source

__all__ = ["shape", "size", "rank"]


def _query(op_type, kernel, out_shape, onnx, partial, raw=None):
    def query(input, out_type=dtypes.int32, name=None):  # noqa: A002
        x = _like_source(input)
        return execute(op_def, (x,), {"out_type": dtypes.as_dtype(out_type)._np}, name)

    op_def = defop(op_type, kernel,
                   shape=lambda x, out_type: (out_shape(x), dtypes.as_dtype(out_type)), grad=None,
                   reads_shape_only=True, partial_value=lambda op, _: partial(op.inputs[0].shape),
                   onnx=lambda ctx, op, x: ctx.cast(onnx(ctx, x), op.attrs["out_type"]),
                   raw=raw or query)  # tf.raw_ops: TensorFlow's arguments are query's
    return op_def, query


# What each knows of its value while a graph is built: the static shape's known entries.
SHAPE, shape = _query("Shape", lambda x, out_type: np.array(x.shape, dtype=out_type),
                      lambda x: TensorShape([x.shape.rank]),
                      lambda ctx, x: ctx.node("Shape", [x]),
                      lambda s: None if s.rank is None else list(s))
SIZE, size = _query("Size", lambda x, out_type: np.array(x.size, dtype=out_type),
                    lambda x: TensorShape([]), lambda ctx, x: ctx.node("Size", [x]),
                    lambda s: s.num_elements())
_RANK, _rank_query = _query("Rank", lambda x, out_type: np.array(x.ndim, dtype=out_type),
                            lambda x: TensorShape([]),
                            lambda ctx, x: ctx.node("Size", [ctx.node("Shape", [x])]),
                            lambda s: s.rank, raw=lambda input, name=None: rank(input, name))
shape.__name__, shape.__doc__ = "shape", "The shape of `input` as a 1-D integer tensor."
shape = dispatchable(shape)
size.__name__, size.__doc__ = "size", "The number of elements of `input` (a scalar)."


def rank(input, name=None):  # noqa: A002
    """The number of dimensions of `input` (an int32 scalar)."""
    return _rank_query(input, name=name)
