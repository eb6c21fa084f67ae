"""Dataset iterators as graph ops, so a traced function can pull elements while it runs.

    AnonymousIteratorV3()            starts a new pass over a dataset; returns a handle (int64)
    IteratorGetNext(handle)          the next element's components (one output per component);
                                     OutOfRangeError after the last one
    IteratorGetNextAsOptional(handle)  (has_value, components...): has_value is False after the
                                     last element, with zero-filled components

The dataset itself travels in the `iterator` attribute (an object with `start()` and
`next_components()`, see wengert/data/iterator.py); the handle input only orders the ops,
except for an iterator passed to a traced function, whose handle is a variant holding the
iterator (the attribute's `next_components_from(handle)` reads it, data/variants.py). All
three are stateful (impure) and have no gradient, as in TensorFlow. They are what a `for`
loop over a dataset inside `tf.function` becomes: unrolled at tracing when the number of elements
is known, or a while_loop over IteratorGetNextAsOptional (AutoGraph's form).
"""
import numpy as np

from ...framework import dtypes
from ...framework.errors import OutOfRangeError
from ...framework.registry import defop
from ...framework.tensor_shape import TensorShape
from ...util import nest

__all__ = ["ANONYMOUS_ITERATOR", "ITERATOR_GET_NEXT", "ITERATOR_GET_NEXT_AS_OPTIONAL"]


def _start(*fed, iterator):
    """Start a pass; `fed` are the values of the graph tensors the dataset reads."""
    iterator.start(fed)
    return np.array(0, np.int64)


def _next(iterator, handle):
    """The next components: of the iterator the handle holds when the resource reads it from
    there (an iterator passed to a traced function as a variant), else of the resource's own."""
    read = getattr(iterator, "next_components_from", None)
    return read(handle) if read is not None else iterator.next_components()


def _get_next(handle, *, iterator, specs):
    components = _next(iterator, handle)
    if components is None:
        raise OutOfRangeError("End of sequence: the iterator has no more elements "
                              "(IteratorGetNext).")
    return tuple(components)


def _get_next_optional(handle, *, iterator, specs):
    components = _next(iterator, handle)
    if components is None:
        empty = [np.zeros([d or 0 for d in (s.shape.as_list() if s.shape.rank is not None
                                             else [])], s.dtype.as_numpy_dtype) for s in specs]
        return (np.array(False),) + tuple(empty)
    return (np.array(True),) + tuple(components)


def _specs_rule(handle, *, iterator, specs):
    return [(s.shape, s.dtype) for s in specs]


ANONYMOUS_ITERATOR = defop("AnonymousIteratorV3", _start,
                           shape=lambda *fed, iterator: (TensorShape([]), dtypes.int64),
                           grad=None, pure=False)
# (returns_view: an element may be a view of the dataset's own arrays, a slice of its source;
# raw: tf.raw_ops' arguments, `iterator` a dataset iterator, TensorFlow's handle to one)
ITERATOR_GET_NEXT = defop("IteratorGetNext", _get_next, shape=_specs_rule, grad=None,
                          num_outputs=None, pure=False, returns_view=True,
                          raw=lambda iterator, output_types, output_shapes, name=None:
                          nest.flatten(iterator.get_next()))
ITERATOR_GET_NEXT_AS_OPTIONAL = defop(
    "IteratorGetNextAsOptional", _get_next_optional, grad=None, num_outputs=None, pure=False,
    returns_view=True, raw=lambda iterator, output_types, output_shapes, name=None:
    iterator.get_next_as_optional(),
    shape=lambda handle, *, iterator, specs: [(TensorShape([]), dtypes.bool)] + _specs_rule(
        handle, iterator=iterator, specs=specs))
