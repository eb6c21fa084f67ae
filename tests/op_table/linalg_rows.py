"""Op-table rows for ops/matmul_ops.py: matmul (plain, transposed, batched with broadcasting),
einsum (repeated indices too), tensordot, matvec, matrix_transpose, trace and norms
(ops/linalg/norms.py; the spectral norm through the SVD)."""
import numpy as np

import wengert as tf
from op_table import OpInfo, Sample, rand, rand_away


def _t(x, flag):
    return np.swapaxes(x, -1, -2) if flag else x


def _matmul_ref(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False):
    return np.matmul(_t(a, transpose_a or adjoint_a), _t(b, transpose_b or adjoint_b))


_MATMUL = [
    Sample((rand(3, 4), rand(4, 5)), name="2d"),
    Sample((rand(4, 3), rand(4, 5)), {"transpose_a": True}, name="ta"),
    Sample((rand(3, 4), rand(5, 4)), {"transpose_b": True}, name="tb"),
    Sample((rand(4, 3), rand(5, 4)), {"transpose_a": True, "transpose_b": True}, name="ta-tb"),
    Sample((rand(4, 3), rand(5, 4)), {"adjoint_a": True, "adjoint_b": True}, name="adjoints"),
    Sample((rand(2, 3, 4), rand(2, 4, 5)), name="batch"),
    Sample((rand(2, 1, 3, 4), rand(5, 4, 2)), name="broadcast-batch"),
    Sample((rand(3, 4), rand(2, 4, 5)), name="matrix-x-batch"),
    Sample((rand(2, 4, 3), rand(1, 5, 4)), {"transpose_a": True, "transpose_b": True},
           name="batch-ta-tb"),
    Sample((rand(2, 4, 3), rand(4, 5)), {"adjoint_a": True}, name="batch-adjoint-a"),
    Sample((rand(2, 3, 4), rand(2, 5, 4)), {"transpose_b": True}, name="batch-tb"),
]

_EINSUM = [
    ("ij,jk->ik", (3, 4), (4, 5)),
    ("bij,bjk->bik", (2, 3, 4), (2, 4, 5)),
    ("ij,kj", (3, 4), (5, 4)),                    # implicit output: "ik"
    ("ij->i", (3, 4)),                            # j summed within one operand
    ("ij->", (3, 4)),
    ("ijk->kji", (2, 3, 4)),
    ("i,i->", (4,), (4,)),
    ("i,j->ij", (3,), (4,)),
    ("ij,jk,kl->il", (2, 3), (3, 4), (4, 2)),
    ("bi,bj->b", (3, 4), (3, 5)),                 # i and j each only in one operand
    ("...ij,...jk->...ik", (2, 1, 3, 4), (5, 4, 2)),
    ("...ij->...j", (2, 3, 4)),
    ("i...,i->...", (3, 2, 2), (3,)),
    ("ii->", (3, 3)),                             # repeated indices: diagonals (issue 17)
    ("ii->i", (3, 3)),
    ("iij->j", (3, 3, 2)),
    ("ii,ij->j", (3, 3), (3, 4)),
    ("...jj->...j", (2, 3, 3)),
    ("iii->i", (2, 2, 2)),
]


def _einsum_sample(spec):
    equation, *shape_list = spec
    return Sample((equation,) + tuple(rand(*s) for s in shape_list), name=equation)


def _tensordot(a, b, axes):
    return np.tensordot(a, b, axes)


def _norm_ref(x, ord="euclidean", axis=None, keepdims=None):
    axis = tuple(axis) if isinstance(axis, list) else axis
    if ord in ("euclidean", "fro") or axis is None:
        if ord in ("euclidean", "fro", 2):
            return np.sqrt(np.sum(x * x, axis=axis, keepdims=bool(keepdims)))
        flat = x.reshape(-1)
        out = np.linalg.norm(flat, ord)
        return out.reshape((1,) * x.ndim) if keepdims else out
    return np.linalg.norm(x, ord, axis=axis, keepdims=bool(keepdims))


_NORMS = [
    Sample((rand_away(3, 4),), name="default"),
    Sample((rand_away(2, 3, 4),), {"axis": 1}, name="vector-axis"),
    Sample((rand_away(2, 3, 4),), {"ord": "fro", "axis": [-2, -1]}, name="fro"),
    Sample((rand_away(2, 3, 4),), {"ord": 2, "axis": -1, "keepdims": True}, name="ord2-keepdims"),
    Sample((rand_away(3, 4),), {"ord": 1, "axis": 1}, name="ord1-vector"),
    Sample((rand_away(3, 4),), {"ord": np.inf, "axis": 0}, name="inf-vector"),
    Sample((rand_away(3, 4),), {"ord": 3, "axis": 1}, name="ord3-vector"),
    Sample((rand_away(2, 3, 4),), {"ord": 1, "axis": [1, 2]}, name="ord1-matrix"),
    Sample((rand_away(2, 3, 4),), {"ord": np.inf, "axis": [1, 2], "keepdims": True},
           name="inf-matrix-keepdims"),
    Sample((rand_away(3, 4),), {"ord": 1}, name="ord1-flattened"),
    Sample((rand(2, 3, 4),), {"ord": 2, "axis": [1, 2]}, name="spectral"),
    Sample((rand(2, 3, 4),), {"ord": 2, "axis": [2, 1], "keepdims": True},
           name="spectral-keepdims"),
]

_INT8 = (np.arange(-60, 60, 10, dtype=np.int8).reshape(3, 4),
         (np.arange(20, dtype=np.int8) * 7 - 70).reshape(4, 5))

ROWS = [
    OpInfo("matmul", tf.matmul, _matmul_ref, _MATMUL),
    OpInfo("matmul-int8-to-int32", lambda a, b, **kw: tf.matmul(a, b, output_type=tf.int32, **kw),
           lambda a, b, **kw: _matmul_ref(a.astype(np.int32), b.astype(np.int32), **kw),
           [Sample(_INT8, name="2d"), Sample((_INT8[0][None], _INT8[1].T[None].astype(np.uint8)),
                                              {"transpose_b": True}, name="batch-uint8-tb")],
           grad=False, grad2=False, float32=False),
    OpInfo("einsum", tf.einsum, lambda eq, *ops: np.einsum(eq, *ops),
           [_einsum_sample(s) for s in _EINSUM]),
    OpInfo("tensordot", tf.tensordot, _tensordot,
           [Sample((rand(3, 4), rand(4, 5)), {"axes": 1}, name="axes1"),
            Sample((rand(2, 3, 4), rand(3, 2, 5)), {"axes": [[1, 0], [0, 1]]}, name="pairs"),
            Sample((rand(3,), rand(4,)), {"axes": 0}, name="outer"),
            Sample((rand(2, 3, 4), rand(3, 4)), {"axes": 2}, name="axes2")]),
    OpInfo("matvec", tf.linalg.matvec,
           lambda a, b, transpose_a=False: np.einsum("...ij,...j->...i", _t(a, transpose_a), b),
           [Sample((rand(3, 4), rand(4)), name="2d"),
            Sample((rand(4, 3), rand(4)), {"transpose_a": True}, name="ta"),
            Sample((rand(2, 3, 4), rand(5, 1, 4)), name="broadcast-batch")]),
    OpInfo("matrix_transpose", tf.linalg.matrix_transpose, lambda a: np.swapaxes(a, -1, -2),
           [Sample((rand(3, 4),)), Sample((rand(2, 3, 4),), name="batch")]),
    OpInfo("trace", tf.linalg.trace, lambda x: np.trace(x, axis1=-2, axis2=-1),
           [Sample((rand(3, 3),)), Sample((rand(2, 3, 4),), name="batch")]),
    OpInfo("norm", tf.norm, _norm_ref, _NORMS,
           notes="inputs away from 0 (|x| has a kink there) and without ties for max"),
]
