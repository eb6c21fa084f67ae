"""Which trace of a `tf.function` a call runs, and what a new trace is traced for.

A call's key (signatures.call_key) holds, for each tensor argument, a pair (NumPy dtype, shape)
whose shape is a tuple (None for an unknown dimension) or None (unknown rank); everything else in
the key (containers, Python values, variables) must be equal for a trace to apply. A trace
*covers* a call when the keys agree everywhere except at tensors, where the trace's dtype is the
call's and its shape is the call's with some dimensions, or the rank, unknown. As in TensorFlow:

- a call whose key was traced runs that trace; otherwise the most specific trace that covers it
  (the first made, among equally specific ones); otherwise a new trace;
- with `reduce_retracing=True` the new trace is generalized first: its key is relaxed, trace by
  trace in the order they were made, to the most specific key covering both (dimensions that
  differ become unknown; a different rank makes the rank unknown) wherever such a key exists
  (the other parts agree). So shapes (2,), (3,), (4,) trace twice: (2,), then (None,).
"""
import numpy as np

__all__ = ["covers", "common_key", "tensor_shapes", "most_specific_cover", "generalize"]


def _is_tensor(k):
    return type(k) is tuple and len(k) == 2 and isinstance(k[0], np.dtype)


def _shape_covers(general, specific):
    if general is None:
        return True
    if specific is None or len(general) != len(specific):
        return False
    return all(g is None or g == s for g, s in zip(general, specific))


def _same(a, b):
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - a Python value whose == does not give a bool
        return a is b


def covers(general, specific):
    """Whether a trace for key `general` accepts a call of key `specific`."""
    stack = [(general, specific)]
    while stack:
        g, s = stack.pop()
        if _is_tensor(g) and _is_tensor(s):
            if g[0] != s[0] or not _shape_covers(g[1], s[1]):
                return False
        elif type(g) is tuple and type(s) is tuple and len(g) == len(s):
            stack.extend(zip(g, s))
        elif not _same(g, s):
            return False
    return True


def _common_shape(a, b):
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x if x == y else None for x, y in zip(a, b))


def common_key(a, b):
    """The most specific key covering keys `a` and `b`, or None when none does."""
    if _is_tensor(a) and _is_tensor(b):
        return (a[0], _common_shape(a[1], b[1])) if a[0] == b[0] else None
    if type(a) is tuple and type(b) is tuple and len(a) == len(b):
        parts = []
        for x, y in zip(a, b):
            part = common_key(x, y)
            if part is None and not (x is None and y is None):
                return None
            parts.append(part)
        return tuple(parts)
    return a if _same(a, b) else None


def tensor_shapes(key):
    """The shapes of the tensor pairs in `key`, in the order the call's tensors come."""
    shapes, stack = [], [key]
    while stack:
        k = stack.pop()
        if _is_tensor(k):
            shapes.append(k[1])
        elif type(k) is tuple:
            stack.extend(reversed(k))
    return shapes


def most_specific_cover(key, traced_keys):
    """The traced key that covers `key` most specifically (the first of equals), or None."""
    best = None
    for k in traced_keys:
        if k is not None and covers(k, key) and (best is None or covers(best, k)
                                                 and not covers(k, best)):
            best = k
    return best


def generalize(key, traced_keys):
    """`key` relaxed against each traced key in turn (reduce_retracing)."""
    relaxed = key
    for k in traced_keys:
        if k is None:
            continue
        common = common_key(relaxed, k)
        if common is not None:
            relaxed = common
    return relaxed
