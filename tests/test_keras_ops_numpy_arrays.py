"""wengert.keras.ops's constructors, shape functions, indexing, sorting, products and matrix
structure against TensorFlow 2.21's Keras 3: values, output dtypes and gradients, in one
TensorFlow subprocess."""
import numpy as np
import pytest

from keras_ops_checks import K, check_with_dtypes
from tf_ops_reference import TFCase, run_tf_or_skip
from wengert.keras import ops

RNG = np.random.default_rng(41)


def f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def ints(*shape, dtype=np.int32, low=-5, high=6):
    return RNG.integers(low, high, shape).astype(dtype)


def distinct(*shape):
    return RNG.permutation(np.prod(shape)).reshape(shape).astype(np.float32) / 3.0


def _creation_cases():
    cases = [K("arange", [], 5), K("arange", [], 1, 7, 2, tag="_step"),
             K("arange", [], 0.5, 3.0, tag="_float"), K("arange", [], 1, 2.0, 0.25, tag="_mix"),
             K("arange", [], 6, tag="_dtype", dtype="float16"),
             K("arange", [], 2, 9, tag="_int16", dtype="int16"),
             K("linspace", [], 0, 1, 5), K("linspace", [], 2.0, 3.0, 4, tag="_open",
                                               endpoint=False),
             K("linspace", [], 0, 10, 4, tag="_int", dtype="int32", endpoint=False),
             K("linspace", [f32(2), f32(2)], 5, tag="_vector", axis=1, rtol=1e-5),
             K("linspace", [], 0.0, 1.0, 5, tag="_retstep", retstep=True),
             K("logspace", [], 0, 2, 5, rtol=1e-5), K("logspace", [], 1, 3, 4, tag="_base",
                                                          base=2, endpoint=False, rtol=1e-5),
             K("geomspace", [], 1, 1000, 4, rtol=1e-5),
             K("geomspace", [], -1.0, -16.0, 5, tag="_negative", rtol=1e-5),
             K("zeros", [], (2, 3)), K("ones", [], (3,), tag="_int", dtype="int8"),
             K("empty", [], (2, 2)), K("full", [], (2, 3), 7), K("full", [], (2,), 1.5,
                                                               tag="_dtype", dtype="int32"),
             K("zeros_like", [ints(2, 3)]), K("ones_like", [f32(3)], tag="_dtype", dtype="int64"),
             K("empty_like", [f32(2, 2)]), K("full_like", [ints(2, 3)], 2.7),
             K("full_like", [f32(3)], 2, tag="_dtype", dtype="float64"),
             K("eye", [], 3), K("eye", [], 3, 4, 1, tag="_k"), K("eye", [], 4, 3, -2, tag="_neg"),
             K("eye", [], 2, tag="_dtype", dtype="int32"), K("identity", [], 3),
             K("tri", [], 3), K("tri", [], 3, 4, 1, tag="_k"), K("tri", [], 4, 3, -1, tag="_neg"),
             K("array", [f32(3)], tag="_dtype", dtype="float64"),
             K("array", [], [[1, 2], [3, 4]], tag="_list")]
    for window in ("bartlett", "blackman", "hamming", "hanning"):
        cases += [K(window, [], 7, rtol=1e-5, atol=1e-6), K(window, [], 1, tag="_one")]
    cases += [K("kaiser", [], 6, 3.0, rtol=1e-5, atol=1e-6)]
    return cases


def _shape_cases():
    x = f32(2, 3, 4)
    return [K("reshape", [x], (6, -1), wrt=[0]), K("ravel", [x], wrt=[0]),
            K("transpose", [x], wrt=[0]), K("transpose", [x], (1, 0, 2), tag="_axes", wrt=[0]),
            K("moveaxis", [x], 0, -1, wrt=[0]),
            K("moveaxis", [x], (0, 1), (2, 0), tag="_tuple", wrt=[0]),
            K("swapaxes", [x], 0, 2, wrt=[0]), K("expand_dims", [x], 1, wrt=[0]),
            K("expand_dims", [x], (0, -1), tag="_tuple", wrt=[0]),
            K("squeeze", [f32(1, 3, 1)], wrt=[0]), K("squeeze", [f32(1, 3, 1)], -1, tag="_axis"),
            K("broadcast_to", [f32(3)], (2, 3), wrt=[0]),
            TFCase("stack", "keras.ops.stack([x0, x1], axis=1)",
                   lambda a, b: ops.stack([a, b], axis=1), [f32(2, 3), f32(2, 3)], wrt=[0, 1]),
            TFCase("stack_promote", "keras.ops.stack([x0, x1])", lambda a, b: ops.stack([a, b]),
                   [ints(3, dtype=np.int8), ints(3, dtype=np.uint8)]),
            TFCase("concatenate", "keras.ops.concatenate([x0, x1], axis=-1)",
                   lambda a, b: ops.concatenate([a, b], axis=-1), [f32(2, 3), f32(2, 1)],
                   wrt=[0, 1]),
            TFCase("concatenate_promote", "keras.ops.concatenate([x0, x1])",
                   lambda a, b: ops.concatenate([a, b]), [ints(3), f32(2).astype(np.float16)]),
            K("append", [f32(2, 2), f32(3)], wrt=[0, 1]),
            K("append", [f32(2, 2), f32(1, 2)], tag="_axis", wrt=[0, 1], axis=0),
            TFCase("hstack", "keras.ops.hstack([x0, x1])", lambda a, b: ops.hstack([a, b]),
                   [f32(2, 3), f32(2, 2)], wrt=[0, 1]),
            TFCase("hstack_1d", "keras.ops.hstack([x0, x1])", lambda a, b: ops.hstack([a, b]),
                   [f32(3), f32(2)]),
            TFCase("vstack", "keras.ops.vstack([x0, x1])", lambda a, b: ops.vstack([a, b]),
                   [f32(2, 3), ints(1, 3)], wrt=[0]),
            TFCase("dstack", "keras.ops.dstack([x0, x1])", lambda a, b: ops.dstack([a, b]),
                   [f32(2, 3), f32(2, 3)], wrt=[0, 1]),
            TFCase("dstack_1d", "keras.ops.dstack([x0, x1])", lambda a, b: ops.dstack([a, b]),
                   [f32(3), f32(3)]),
            K("split", [f32(6, 2)], 3, wrt=[0]), K("split", [f32(2, 7)], [2, 5], tag="_indices",
                                                    axis=1, wrt=[0]),
            K("array_split", [f32(7, 2)], 3, wrt=[0]), K("hsplit", [f32(2, 4)], 2, wrt=[0]),
            K("hsplit", [f32(6)], 3, tag="_1d"), K("vsplit", [f32(4, 2)], 2, wrt=[0]),
            K("dsplit", [f32(2, 2, 4)], [1, 3], wrt=[0]),
            K("flip", [x], wrt=[0]), K("flip", [x], (0, 2), tag="_axes", wrt=[0]),
            K("fliplr", [f32(2, 3)], wrt=[0]), K("flipud", [f32(2, 3)], wrt=[0]),
            K("roll", [x], 2, wrt=[0]), K("roll", [x], -1, tag="_axis", axis=1, wrt=[0]),
            K("rot90", [f32(2, 3)], wrt=[0]), K("rot90", [x], 5, (2, 1), tag="_k5", wrt=[0]),
            K("rot90", [x], 3, (1, 2), tag="_k3", wrt=[0]),
            K("rot90", [x], -1, (2, 0), tag="_neg", wrt=[0]),
            K("tile", [f32(2, 3)], 2, wrt=[0]), K("tile", [f32(3)], (2, 1, 2), tag="_grow",
                                                   wrt=[0]),
            K("repeat", [f32(2, 3)], 2, wrt=[0]), K("repeat", [f32(2, 3)], 3, tag="_axis",
                                                     axis=1, wrt=[0]),
            K("pad", [f32(2, 3)], ((1, 0), (2, 1)), wrt=[0]),
            K("pad", [f32(3, 3)], ((1, 1), (2, 2)), tag="_reflect", mode="reflect", wrt=[0]),
            K("pad", [f32(3, 3)], ((1, 2), (0, 2)), tag="_symmetric", mode="symmetric",
              wrt=[0]),
            K("pad", [ints(2, 2)], ((1, 1), (1, 1)), tag="_value", constant_values=7),
            K("size", [x]), TFCase("meshgrid", "keras.ops.meshgrid(x0, x1)",
                                   lambda a, b: ops.meshgrid(a, b), [f32(3), f32(2)]),
            TFCase("meshgrid_ij", "keras.ops.meshgrid(x0, x1, indexing='ij')",
                   lambda a, b: ops.meshgrid(a, b, indexing="ij"), [f32(3), f32(2)])]


def _indexing_cases():
    x = f32(3, 4)
    return [K("take", [x, np.array([2, 0, -1])], wrt=[0]),
            K("take", [x, np.array([[1, 0], [2, 2]])], tag="_axis", axis=1, wrt=[0]),
            K("take", [x], [2, 1], tag="_list", axis=0, wrt=[0]),
            K("take_along_axis", [x, RNG.integers(0, 4, (3, 2))], tag="", axis=1, wrt=[0]),
            K("take_along_axis", [f32(3, 4, 2), RNG.integers(-3, 3, (1, 4, 2))],
              tag="_broadcast", axis=0, wrt=[0]),
            K("take_along_axis", [x, np.array([5, 0, 11])], tag="_flat", wrt=[0]),
            K("get_item", [x], (slice(1, None), 2), wrt=[0]),
            K("where", [x > 0, x, f32(3, 4)], wrt=[1, 2]),
            K("where", [x > 0, ints(3, 4)], 2.5, tag="_scalar"),
            K("where", [x > 0], tag="_nonzero"),
            TFCase("select", "keras.ops.select([x0 > 0, x0 < -1], [x1, x2], 5)",
                   lambda c, a, b: ops.select([c > 0, c < -1], [a, b], 5),
                   [x, f32(3, 4), f32(3, 4)], wrt=[1, 2]),
            K("nonzero", [ints(3, 4, low=-1, high=2)]),
            K("searchsorted", [np.sort(f32(6)), f32(5)]),
            K("searchsorted", [np.array([1, 2, 2, 3]), np.array([2, 0, 5])], tag="_right",
              side="right"),
            K("digitize", [f32(5)], [-1.0, 0.0, 1.0]),
            K("digitize", [ints(5)], [-2, 0, 2], tag="_int"),
            K("unravel_index", [np.array([3, 5, 11])], (3, 4)),
            K("diff", [f32(3, 5)], wrt=[0]), K("diff", [f32(4, 3)], 2, 0, tag="_n2", wrt=[0]),
            K("diff", [np.array([True, False, False])], tag="_bool")]


def _sorting_cases():
    return [K("sort", [f32(3, 4)], wrt=[0]), K("sort", [f32(3, 4)], 0, tag="_axis", wrt=[0]),
            K("sort", [f32(3, 4)], None, tag="_flat", wrt=[0]),
            K("sort", [np.array([True, False, True])], tag="_bool"),
            K("argsort", [distinct(3, 4)]), K("argsort", [distinct(3, 4)], None, tag="_flat"),
            K("argsort", [distinct(3, 4)], 0, tag="_axis"),
            K("unique", [np.array([3, 1, 2, 3, 1, 5])]),
            K("unique", [np.array([3, 1, 2, 3, 1, 5])], tag="_all", return_index=True,
              return_inverse=True, return_counts=True),
            K("unique", [np.array([[3., 1], [2, 3]])], tag="_unsorted", sorted=False,
              return_inverse=True),
            K("unique", [np.array([4, 4, 2])], tag="_size", size=4, fill_value=-1,
              return_counts=True),
            K("unique", [np.array([[1, 2], [3, 4], [1, 2], [0, 9]])], tag="_axis", axis=0,
              return_index=True, return_inverse=True, return_counts=True),
            K("unique", [np.array([[1., 2, 1], [3, 4, 3]])], tag="_axis1", axis=1),
            K("bincount", [np.array([1, 3, 1, 0])]),
            K("bincount", [np.array([1, 3, 1, 0]), np.array([0.5, 1.0, 2.0, 1.5], np.float32)],
              tag="_weights"),
            K("bincount", [np.array([[1, 1], [0, 2]])], tag="_2d", minlength=4),
            K("bincount", [np.array([2, 0], np.int8)], tag="_int8"),
            K("histogram", [f32(20)]),
            K("histogram", [f32(20)], tag="_range", bins=4, range=(-1.0, 1.0))]


def _product_cases():
    cases = [K("matmul", [f32(2, 3), f32(3, 4)], wrt=[0, 1], rtol=1e-4),
             K("matmul", [f32(2, 2, 3), f32(2, 3, 4)], tag="_batch", wrt=[0, 1], rtol=1e-4),
             K("matmul", [f32(2, 2, 3), f32(3, 4)], tag="_bcast", wrt=[0, 1], rtol=1e-4),
             K("matmul", [f32(3), f32(2, 3, 4)], tag="_vec_left", wrt=[0, 1], rtol=1e-4),
             K("matmul", [f32(2, 3), f32(3)], tag="_vec_right", wrt=[0, 1], rtol=1e-4),
             K("matmul", [ints(2, 3), ints(3, 2)], tag="_int"),
             K("matmul", [ints(2, 3, dtype=np.int8), ints(3, 2, dtype=np.int8)], tag="_int8"),
             K("matmul", [ints(2, 3), f32(3, 2)], tag="_mixed", rtol=1e-5),
             K("dot", [f32(2, 3), f32(3, 4)], wrt=[0, 1], rtol=1e-4),
             K("dot", [f32(3), f32(3)], tag="_vec", wrt=[0, 1], rtol=1e-4),
             K("dot", [f32(2, 3, 4), f32(5, 4, 2)], tag="_nd", wrt=[0, 1], rtol=1e-4),
             K("dot", [f32(2, 3)], 2.0, tag="_scalar", wrt=[0]),
             K("dot", [ints(2, 3), ints(3)], tag="_int"),
             K("tensordot", [f32(2, 3, 4), f32(3, 4, 5)], wrt=[0, 1], rtol=1e-4),
             K("tensordot", [f32(2, 3), f32(3, 2)], tag="_axes", axes=([1], [0]), wrt=[0, 1],
               rtol=1e-4),
             K("tensordot", [ints(2, 3, dtype=np.int8), ints(3, 2, dtype=np.int8)], 1,
               tag="_int8"),
             TFCase("einsum", "keras.ops.einsum('ij,jk->ik', x0, x1)",
                    lambda a, b: ops.einsum("ij,jk->ik", a, b), [f32(2, 3), f32(3, 4)],
                    wrt=[0, 1], rtol=1e-4),
             TFCase("einsum_batch", "keras.ops.einsum('bij,bkj->bik', x0, x1)",
                    lambda a, b: ops.einsum("bij,bkj->bik", a, b), [f32(2, 2, 3), f32(2, 4, 3)],
                    wrt=[0, 1], rtol=1e-4),
             TFCase("einsum_int", "keras.ops.einsum('i,i->', x0, x1)",
                    lambda a, b: ops.einsum("i,i->", a, b), [ints(4), ints(4)]),
             TFCase("einsum_int8", "keras.ops.einsum('ij,jk->ik', x0, x1)",
                    lambda a, b: ops.einsum("ij,jk->ik", a, b),
                    [ints(2, 3, dtype=np.int8), ints(3, 2, dtype=np.int8)]),
             K("inner", [f32(2, 3), f32(4, 3)], wrt=[0, 1], rtol=1e-4),
             K("inner", [f32(3)], 2.0, tag="_scalar"),
             K("outer", [f32(3), f32(2, 2)], wrt=[0, 1]),
             K("outer", [ints(3), f32(2)], tag="_mixed"),
             K("vdot", [f32(2, 3), f32(3, 2)], wrt=[0, 1], rtol=1e-4),
             K("kron", [f32(2, 2), f32(3, 2)], wrt=[0, 1]),
             K("kron", [f32(3), f32(2, 2)], tag="_ranks", wrt=[0, 1]),
             K("kron", [ints(2), ints(2)], tag="_int"),
             K("cross", [f32(4, 3), f32(4, 3)], wrt=[0, 1], rtol=1e-4),
             K("cross", [f32(2), f32(2)], tag="_2d", wrt=[0, 1], rtol=1e-4),
             K("cross", [f32(3, 2), f32(3)], tag="_mixed", wrt=[0, 1], rtol=1e-4),
             K("cross", [f32(3, 4), f32(3, 4)], tag="_axis", axis=0, wrt=[0, 1], rtol=1e-4),
             K("correlate", [f32(6), f32(3)], wrt=[0, 1], rtol=1e-4),
             K("correlate", [f32(6), f32(3)], tag="_full", mode="full", wrt=[0, 1], rtol=1e-4),
             K("correlate", [f32(5), f32(3)], tag="_same", mode="same", wrt=[0, 1], rtol=1e-4),
             K("correlate", [ints(4), ints(2)], tag="_int", mode="full"),
             K("corrcoef", [f32(3, 6)], wrt=[0], rtol=1e-4, atol=1e-5),
             K("corrcoef", [ints(2, 5)], tag="_int", rtol=1e-4, atol=1e-5),
             K("slogdet", [f32(2, 3, 3)], wrt=[0], rtol=1e-4)]
    return cases


def _matrix_cases():
    x = f32(4, 4)
    return [K("diag", [f32(3)], wrt=[0]), K("diag", [f32(3)], 1, tag="_k", wrt=[0]),
            K("diag", [x], tag="_2d", wrt=[0]), K("diag", [f32(3, 5)], -1, tag="_2d_k", wrt=[0]),
            K("diagflat", [f32(2, 2)], wrt=[0]), K("diagflat", [f32(3)], -2, tag="_k", wrt=[0]),
            K("diagonal", [x], wrt=[0]), K("diagonal", [f32(2, 3, 4)], 1, 1, 2, tag="_axes",
                                           wrt=[0]),
            K("diagonal", [f32(3, 4, 2)], -1, 0, 1, tag="_neg", wrt=[0]),
            K("trace", [x], wrt=[0]), K("trace", [f32(2, 3, 4)], 1, 1, 2, tag="_axes", wrt=[0]),
            K("trace", [ints(3, 3, dtype=np.int8)], tag="_int8"),
            K("tril", [x], wrt=[0]), K("tril", [f32(2, 3, 4)], -1, tag="_k", wrt=[0]),
            K("triu", [x], wrt=[0]), K("triu", [f32(3, 4)], 1, tag="_k", wrt=[0]),
            K("vander", [f32(3)], wrt=[0], rtol=1e-4),
            K("vander", [ints(3)], 4, tag="_int", increasing=True)]


CASES = (_creation_cases() + _shape_cases() + _indexing_cases() + _sorting_cases()
         + _product_cases() + _matrix_cases())
assert len({c.name for c in CASES}) == len(CASES), "case names must be unique"


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_keras(case, tf_results):
    check_with_dtypes(case, tf_results[case.name])
