"""`SymbolicTensor`: a graph tensor, known by its op, shape and dtype but holding no value.

It is a `Tensor`, so every op accepts it and every operator works; anything that needs the value
(`numpy()`, `bool()`, `float()`) raises and says how to get the value: run it in a Session, or use
`cond`/`while_loop` for control flow that depends on it.
"""
from ..framework import dtypes
from ..framework.context import default_session
from ..framework.errors import OperatorNotAllowedInGraphError
from ..framework.static_value import static_value
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from ..ops import math_ops

__all__ = ["GraphValued", "SymbolicTensor", "graph_of_tensors"]


class GraphValued:
    """What graph tensors and graph variables share: their value exists only while a graph runs,
    so their shape and dtype are fields (`_shape`, `_dtype`) fixed when the graph is built, where
    the eager Tensor and Variable they subclass read them from a NumPy value."""

    __slots__ = ()

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def ndim(self):
        return self._shape.rank


class SymbolicTensor(GraphValued, Tensor):
    """Output `value_index` of graph op `op`; its value exists only while a graph runs."""

    __slots__ = ("_shape", "_dtype")
    __hash__ = object.__hash__  # graph tensors key feed_dicts, as in TensorFlow 1

    def __init__(self, op, value_index, shape, dtype):
        self._op = op
        self._value_index = value_index
        self._shape = TensorShape(shape) if shape is not None else TensorShape(None)
        self._dtype = dtypes.as_dtype(dtype)

    @property
    def graph(self):
        return self._op.graph

    @property
    def name(self):
        return f"{self._op.name}:{self._value_index}"

    def set_shape(self, shape):
        """Refine the static shape (e.g. of a placeholder fed with a known batch size)."""
        self._shape = self._shape.merge_with(TensorShape(shape))

    def eval(self, feed_dict=None, session=None):
        return (session or default_session()).run(self, feed_dict)

    def numpy(self):
        raise NotImplementedError(
            f"Tensor '{self.name}' is symbolic (graph mode): it has no value until the graph "
            "runs. Evaluate it with Session.run, or return it from the traced function.")

    def __array__(self, dtype=None, copy=None):
        raise TypeError(f"Cannot convert the symbolic tensor '{self.name}' to a NumPy array; "
                        "evaluate it with Session.run first.")

    def _no_python_value(self, what):
        raise OperatorNotAllowedInGraphError(
            f"Using the symbolic tensor '{self.name}' as a Python {what} is not allowed in graph "
            "mode: its value is not known while the graph is built. Use tf.cond or "
            "tf.while_loop for control flow that depends on a tensor, or compute the value "
            "eagerly.")

    def __bool__(self):
        self._no_python_value("bool")

    def __float__(self):
        self._no_python_value("float")

    def __int__(self):
        return self._known_integer("int")

    def __index__(self):
        return self._known_integer("index")

    def _known_integer(self, what):
        """An integer scalar whose value is known while the graph is built (a constant, the
        size of a fully known dimension: framework/static_value.py) serves as a Python int, so
        shapes and indices computed from tf.shape work in graphs; any other raises."""
        if self.dtype.is_integer and self._shape.rank == 0:
            value = static_value(self)
            if value is not None:
                return int(value)
        self._no_python_value(what)

    def __len__(self):
        if self._shape.rank is None or self._shape.rank == 0 or self._shape[0] is None:
            self._no_python_value("length (its first dimension is unknown)")
        return self._shape[0]

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self._shape} dtype={self._dtype.name}>"

    def __str__(self):  # as TensorFlow prints a graph tensor (no shape when the rank is unknown)
        shape = "" if self._shape.rank is None else f" shape={self._shape},"
        return f'Tensor("{self.name}",{shape} dtype={self._dtype.name})'


    # Tensor's fast operator paths read eager values; graph tensors take the general path,
    # their ops named as TensorFlow names an operator's ("add", "mul", "sub").
    __mul__ = lambda self, other: math_ops.multiply(self, other, name="mul")  # noqa: E731
    __add__ = lambda self, other: math_ops.add(self, other, name="add")  # noqa: E731
    __sub__ = lambda self, other: math_ops.subtract(self, other, name="sub")  # noqa: E731


def graph_of_tensors(values):
    """The one graph the graph tensors among `values` belong to, or None (name_scope's
    `values`: TensorFlow's ValueError when they come from two graphs)."""
    values = values if isinstance(values, (list, tuple)) else [values]
    graphs = list({id(v.graph): v.graph for v in values if isinstance(v, SymbolicTensor)}
                  .values())
    if len(graphs) > 1:
        raise ValueError(f"name_scope: values {values!r:.120} must be from the same graph.")
    return graphs[0] if graphs else None
