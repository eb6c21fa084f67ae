"""Dispatch of public ops to composite tensors: how `tf.add(ragged, 1)` or
`tf.reduce_sum(ragged, axis=1)` reach the code that knows the container (TensorFlow's
`dispatch_for_api` and `dispatch_for_unary/binary_elementwise_apis`).

The ops are written for dense tensors, and the containers live below the ops (framework/), their
ops above. So the ops offer two hooks, which the container's ops family fills when imported:

- elementwise ops: `elementwise(fn, *operands)` is what an elementwise op's shared body
  (call_float, call_binary, ...) returns when an operand is a registered composite: the
  composite's handler gets `fn` (the op on dense tensors) and the operands, and applies `fn` to
  its values (for a ragged tensor: its flat values, with a dense operand broadcast to its rows).
  The dense path never reaches it: it is taken only where conversion of an operand failed.
- other public functions (reductions, gather, concat, ...) are wrapped by `dispatchable`: the
  function runs as written; only when it raises TypeError or ValueError, and one of its
  arguments (or an entry of a list argument) is a composite with a handler registered for that
  function, does the handler run instead, with the same arguments.
"""
import functools

from .composite_tensor import CompositeTensor

__all__ = ["register_elementwise", "elementwise", "elementwise_or_raise", "dispatchable",
           "register_api", "composite_in"]

_ELEMENTWISE = {}
_APIS = {}


def register_elementwise(cls, handler):
    """handler(fn, operands) computes fn elementwise over operands, some of class `cls`."""
    _ELEMENTWISE[cls] = handler


def composite_in(values):
    """The first registered composite among `values` (and the entries of list values), or
    None."""
    for value in values:
        items = value if isinstance(value, (list, tuple)) else (value,)
        for item in items:
            if isinstance(item, CompositeTensor):
                return item
    return None


def elementwise(fn, *operands):
    """fn applied to operands of which one is a composite, by that composite's handler; None
    when no operand has one (the caller then raises its own error)."""
    composite = composite_in(operands)
    handler = None if composite is None else _ELEMENTWISE.get(type(composite))
    return None if handler is None else handler(fn, operands)


def elementwise_or_raise(fn, *operands):
    """Called in an `except` block of an elementwise op whose operands did not convert: fn
    over the operands by a composite's handler, or the exception being handled, re-raised."""
    result = elementwise(fn, *operands)
    if result is None:
        raise  # noqa: PLE0704 (re-raises the caller's exception)
    return result


def register_api(api, cls, handler):
    """handler(*args, **kwargs) stands in for the dispatchable public function `api` when an
    argument is a `cls`."""
    table = getattr(api, "_composite_handlers", None)
    if table is None:
        raise TypeError(f"register_api: {getattr(api, '__name__', api)!r} is not dispatchable "
                        "(wrap it with framework.dispatch.dispatchable).")
    table[cls] = handler


def dispatchable(fn):
    """`fn`, which composites with a registered handler may stand in for (see the module
    docstring)."""
    handlers = {}

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (TypeError, ValueError):
            if not handlers:
                raise
            composite = composite_in(list(args) + list(kwargs.values()))
            handler = None if composite is None else handlers.get(type(composite))
            if handler is None:
                raise
        return handler(*args, **kwargs)
    wrapper._composite_handlers = handlers
    return wrapper
