"""The values a pass over a dataset of graph tensors reads (fed_sources.py builds such
datasets): `feeding(tensors, values)` makes them current while a pass starts, and
`fed_inputs(dataset)` lists the graph tensors a dataset's sources read, which the op that starts
the pass takes as inputs (a TF 1 initializer, or a traced function's AnonymousIteratorV3), so
the graph evaluates them each time it starts a pass."""
import contextlib
import threading

__all__ = ["feeding", "fed_inputs", "current_values"]

_VALUES = threading.local()


@contextlib.contextmanager
def feeding(tensors, values):
    """Inside, a pass reads `values` for `tensors`."""
    old = getattr(_VALUES, "table", None)
    _VALUES.table = {id(t): v for t, v in zip(tensors, values)}
    try:
        yield
    finally:
        _VALUES.table = old


def current_values():
    """{id(tensor): value} of the innermost `feeding`, or None."""
    return getattr(_VALUES, "table", None)


def fed_inputs(dataset):
    """The graph tensors a dataset's sources read, in a fixed order."""
    out = []
    for ds in dataset._lineage():
        out.extend(t for t in getattr(ds, "_fed", ()) if all(t is not o for o in out))
    return out
