"""`placeholder_with_default(input, shape)`: a graph input that need not be fed.

Unfed, its value is `input`'s; fed (`feed_dict={p: value}`), the fed value, checked against
`shape`, which may be less specific than `input`'s (None for a dimension that varies). Its static
shape is `shape`. The gradient passes through to `input`. Eagerly it is `input` itself.
"""
from ..framework.context import state
from ..framework.registry import defop
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape

__all__ = ["placeholder_with_default"]


def _shape_rule(value, shape):
    given = TensorShape(shape)
    if not given.is_compatible_with(value.shape):
        raise ValueError(f"placeholder_with_default: shape {given} is incompatible with the "
                         f"default value's shape {value.shape}; give a shape the default fits.")
    return given, value.dtype


PLACEHOLDER_WITH_DEFAULT = defop(
    "PlaceholderWithDefault", lambda value, shape: value, shape=_shape_rule,
    grad=lambda op, grad: grad, pure=False,
    raw=lambda *, input, shape, name=None: placeholder_with_default(input, shape, name))


def placeholder_with_default(input, shape, name=None):  # noqa: A002 (TensorFlow's name)
    """`input` unless a value is fed for it; its static shape is `shape`."""
    value = convert_to_tensor(input)
    if state.graph is None:
        _shape_rule(value, shape)
        return value
    dims = None if TensorShape(shape).rank is None else tuple(TensorShape(shape).as_list())
    return state.graph.create_op(PLACEHOLDER_WITH_DEFAULT, (value,), {"shape": dims},
                                 name or "PlaceholderWithDefault")
