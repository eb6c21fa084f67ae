"""`tf.debugging.assert_shapes`: shapes of several tensors checked against symbolic shapes.

Each (tensor, shape) pair gives a shape as a sequence of sizes: an int is that size exactly; a
string names a size that must be the same wherever the name appears, across all the tensors;
None or '.' is any size; a leading '*' or `...` stands for any number of leading dimensions
(then the sizes listed are the innermost ones). An empty shape ('' or ()) is a scalar; a shape of
length 0 or 1 accepts a scalar, whose size is taken as 1. A pair whose shape is None is skipped.

What the static shapes decide is decided now: a wrong rank or a wrong known size is a ValueError
naming the tensor (by shape and dtype eagerly, by name in a graph), the dimension and the size, as
TensorFlow's. What they leave open (an unknown dimension or rank in a graph) becomes an `Assert`
that raises InvalidArgumentError when the graph runs. TensorFlow 2's `assert_shapes` returns
None (its run-time checks run as the stateful ops of a tf.function); TensorFlow 1's
(`assert_shapes_v1`) returns the op grouping them, for `control_dependencies`.

`assert_rank_in(x, ranks)` is TensorFlow 2's: a ValueError "Tensor  must have rank in (1, 3).
Received rank 2, shape (2, 3)" when x's static rank is none of `ranks` (None otherwise).
"""
from ..framework.context import op_scope, state
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import convert_to_tensor
from ..graph.grouping import group
from ..ops.io.checks import Assert
from ..ops.math_ops import equal
from ..ops.query_ops import rank as rank_of
from ..ops.query_ops import shape as shape_of

__all__ = ["assert_shapes", "assert_shapes_v1", "assert_rank_in"]


def _label(x):
    if state.graph is None or isinstance(x, SparseTensor):
        return f"shape={x.shape} dtype={x.dtype.name}"
    return x.name


def _known(size):
    if size is None:
        return False
    try:
        int(size)
    except (ValueError, TypeError):
        return False
    return True


def _any_size(symbol):
    return isinstance(symbol, str) and symbol == "." or symbol is None


def _actual_sizes(x):
    """Each dimension's size: an int where the static shape knows it, else a tensor; a scalar
    is one dimension of size 1."""
    rank = x.shape.rank
    if rank == 0:
        return (1,)
    if rank is None:
        return shape_of(x)
    return [d if d is not None else shape_of(x)[i] for i, d in enumerate(x.shape)]


def _parse(x, shape, prefix):
    """(innermost-only, the symbolic sizes) of one pair."""
    if not (hasattr(shape, "__iter__") or hasattr(shape, "__getitem__")):
        raise ValueError(f"{prefix}Tensor {_label(x)}.  Specified shape must be an iterable.  "
                         "An iterable has the attribute `__iter__` or `__getitem__`.  Received "
                         f"specified shape: {shape}")
    symbols = tuple(shape)
    innermost = False
    for i, symbol in enumerate(symbols):
        if symbol is Ellipsis or isinstance(symbol, str) and symbol == "*":
            if i != 0:
                raise ValueError(f"{prefix}Tensor {_label(x)} specified shape index {i}.  Symbol "
                                 "`...` or `*` for a variable number of unspecified dimensions "
                                 "is only allowed as the first entry")
            innermost = True
    sizes = symbols[1:] if innermost else symbols
    return innermost, sizes or (1,)


def _rank_check(x, rank, innermost, prefix):
    """A ValueError, or a run-time Assert when the rank is unknown, unless x's rank fits."""
    if innermost and rank <= 1:
        return []
    ranks, what = ((0, 1), f"must have rank in {(0, 1)}") if rank <= 1 else (
        (rank,), f"must have rank at least {rank}" if innermost else f"must have rank {rank}")
    actual = x.shape.rank
    name = "" if state.graph is None else _label(x)
    if actual is not None:
        if (actual < rank) if innermost else actual not in ranks:
            raise ValueError(f"{prefix}Tensor {name} {what}.  Received rank {actual}, shape "
                             f"{x.shape}")
        return []
    held = equal(rank_of(x), rank) if rank > 1 and not innermost else None
    if held is None:  # at least / in (0, 1): ranks compared one way
        r = rank_of(x)
        held = (r >= rank) if innermost else (r <= 1)
    return [Assert(held, [prefix, f"Tensor {name} {what}", "Received shape: ", shape_of(x)])]


def _checks(shapes, data, summarize, message):
    """Every static check, and the run-time Asserts the static shapes leave open."""
    if isinstance(shapes, dict):
        shapes = shapes.items()
    prefix = f"{message}.  " if message else ""
    pairs = [(x if isinstance(x, SparseTensor) else convert_to_tensor(x), s)
             for x, s in shapes if s is not None]
    parsed = [(x, *_parse(x, s, prefix)) for x, s in pairs]
    asserts = []
    for x, innermost, sizes in parsed:
        asserts += _rank_check(x, len(sizes), innermost, prefix)
    named = {}
    for x, innermost, sizes in parsed:
        actual = _actual_sizes(x)
        for i, symbol in enumerate(sizes):
            if _any_size(symbol):
                continue
            dim = i - len(sizes) if innermost else i
            if not _known(symbol) and symbol not in named:
                named[symbol] = (actual[dim], x, dim)
                continue
            if _known(symbol):
                specified, how = int(symbol), "Specified explicitly"
            else:
                specified, by, by_dim = named[symbol]
                how = f"Specified by tensor {_label(by)} dimension {by_dim}"
            size = actual[dim]
            if _known(size) and _known(specified):
                if int(size) != int(specified):
                    raise ValueError(f"{prefix}{how}.  Tensor {_label(x)} dimension {dim} must "
                                     f"have size {int(specified)}.  Received size {int(size)}, "
                                     f"shape {x.shape}")
                continue
            shown = data if data is not None else [
                prefix, how, f"Tensor {_label(x)} dimension", dim, "must have size", specified,
                "Received shape: ", shape_of(x)]
            asserts.append(Assert(equal(size, specified), shown, summarize))
    return [a for a in asserts if a is not None]


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Check the shapes of tensors against symbolic shapes (see the module docstring);
    returns None, as TensorFlow 2's."""
    with op_scope(name, "assert_shapes"):
        _checks(shapes, data, summarize, message)


def assert_shapes_v1(shapes, data=None, summarize=None, message=None, name=None):
    """TensorFlow 1's assert_shapes: the op grouping the run-time checks (None eagerly)."""
    with op_scope(name, "assert_shapes"):
        asserts = _checks(shapes, data, summarize, message)
        return group(*asserts) if state.graph is not None else None


def assert_rank_in(x, ranks, message=None, name=None):
    """ValueError unless x's rank (when known) is one of `ranks`; returns None."""
    with op_scope(name, "assert_rank_in"):
        x = convert_to_tensor(x)
    ranks = tuple(int(r) for r in ranks)
    if x.shape.rank is not None and x.shape.rank not in ranks:
        prefix = f"{message}.  " if message else ""
        label = "" if state.graph is None else x.name
        raise ValueError(f"{prefix}Tensor {label} must have rank in {ranks}.  Received rank "
                         f"{x.shape.rank}, shape {x.shape}")
