"""Functions that TensorFlow builds from several ops under one name scope, `name` (or the
function's own name when None) prefixing the op names: the DCT pair of `tf.compat.v1.spectral`
and the monotonicity checks of `tf.compat.v1.debugging`, each the op-family function
(ops/signal/dct.py, ops/misc_math_ops.py) inside that scope."""
from ..graph.graph import name_scope
from ..ops import misc_math_ops
from ..ops.signal import dct as _dct

__all__ = ["dct", "idct", "is_non_decreasing", "is_strictly_increasing"]


def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 (TF's names)
    """The discrete cosine transform of `type` along `axis`."""
    with name_scope(name, "dct", [input]) as scope:
        return _dct.dct(input, type=type, n=n, axis=axis, norm=norm, name=scope)


def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """The inverse of dct of the same type."""
    with name_scope(name, "idct", [input]) as scope:
        return _dct.idct(input, type=type, n=n, axis=axis, norm=norm, name=scope)


def is_non_decreasing(x, name=None):
    """Whether x[i] <= x[i + 1] for all i of the flattened x."""
    with name_scope(name, "is_non_decreasing", [x]) as scope:
        return misc_math_ops.is_non_decreasing(x, name=scope)


def is_strictly_increasing(x, name=None):
    """Whether x[i] < x[i + 1] for all i of the flattened x."""
    with name_scope(name, "is_strictly_increasing", [x]) as scope:
        return misc_math_ops.is_strictly_increasing(x, name=scope)
