"""Op-table rows for the ops the reverse pass itself uses (wengert/ops/broadcast_ops.py)."""
import numpy as np

from wengert.framework.execute import execute
from wengert.ops import broadcast_ops
from op_table import OpInfo, Sample, rand


def _sum_like(g, like):
    return execute(broadcast_ops.SUM_TO_SHAPE_OF, (g, like))


def _sum_to(shape):
    return lambda g: execute(broadcast_ops.SUM_TO_SHAPE, (g,), {"shape": shape})


def _ref_sum_to(g, shape):
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape) if d == 1)
    return np.sum(g, axis=axes).reshape(shape)


ROWS = [
    OpInfo("sum_to_shape", _sum_to((1, 4)), lambda g: _ref_sum_to(g, (1, 4)),
           [Sample((rand(2, 3, 4),))]),
    OpInfo("sum_to_shape_of", _sum_like, lambda g, like: _ref_sum_to(g, like.shape),
           [Sample((rand(2, 3, 4), rand(3, 1)), wrt=[0])]),
]
