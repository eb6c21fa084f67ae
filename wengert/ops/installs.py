"""What the ops layer installs on framework/'s classes: the classes live below the ops (every
layer can test for them), but these methods are ops. Every install of the layer is here:

- Tensor and Variable (and their graph forms, through TensorLike): Python's operators, each an op
  of some family, with the reflected forms swapping the operands, the arithmetic ones named in a
  graph as TensorFlow names them (`x + b` is "add", of type AddV2; "sub", "mul", "truediv"...),

      a + b  add (AddV2)     a - b  subtract (Sub)     a * b  multiply (Mul)    a / b  divide
      a // b floordiv        a % b  floormod           a ** b pow               -a     negative
      a @ b  matmul          abs(a) abs                a[key] strided_slice / gather / boolean_mask
      == != < <= > >=  the comparisons (elementwise, bool results)
      & | ^ ~  logical_and, logical_or, logical_xor, logical_not (bool tensors)

  and on eager Tensors `a * b`, `a + b` and `a - b` of one dtype, the hot path of eager code, call
  `execute` directly without the operand conversion of `multiply`. `==` and `!=` follow
  TensorFlow 2 on tensors and variables alike: elementwise, a scalar False (True for !=) when the
  shapes cannot broadcast, False against None; so neither is hashable (key dicts by `x.ref()`),
  except while a TensorFlow 1 graph is built, where they compare and hash by identity as in TF 1;
- IndexedSlices: densifying (`_dense`), negation and the shape of the tensor it stands for
  (indexed_slices_ops.py);
- lists and tuples holding tensors: `convert_to_tensor` packs them with Pack ops
  (array_ops.autopack), as TensorFlow registers its conversion function for lists.
"""
import numpy as np

from ..framework.context import state
from ..framework.execute import binary_operands, execute
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import Tensor, TensorLike, constant, register_autopacking
from ..framework.tensor_shape import TensorShape
from ..framework.variables import Variable
from . import complex_ops, indexed_slices_ops, indexing_ops, math_ops, matmul_ops
from .array_ops import autopack
from .math_ops import ADD, MUL, SUB

__all__ = []


def _install_operators(cls):
    def reflected(fn, stem):
        return lambda self, other: fn(other, self, name=_graph_name(stem))
    binary = {"add": math_ops.add, "sub": math_ops.subtract, "mul": math_ops.multiply,
              "truediv": math_ops.divide, "floordiv": math_ops.floordiv,
              "mod": math_ops.floormod, "pow": math_ops.pow, "matmul": matmul_ops.matmul}
    for stem, fn in binary.items():  # named as TensorFlow names an operator's op: "add", "mul"
        setattr(cls, f"__{stem}__", lambda self, other, fn=fn, stem=stem: fn(
            self, other, name=_graph_name(stem)))
        setattr(cls, f"__r{stem}__", reflected(fn, stem))
    comparisons = {"eq": math_ops.equal, "ne": math_ops.not_equal, "lt": math_ops.less,
                   "le": math_ops.less_equal, "gt": math_ops.greater,
                   "ge": math_ops.greater_equal}
    for stem, fn in comparisons.items():
        setattr(cls, f"__{stem}__", lambda self, other, fn=fn: fn(self, other))
    cls.__neg__ = lambda self: math_ops.negative(self)
    cls.__pos__ = lambda self: self if isinstance(self, Tensor) else self.read_value()
    cls.__abs__ = lambda self: complex_ops.abs(self)
    cls.__and__ = lambda self, other: math_ops.logical_and(self, other)
    cls.__rand__ = lambda self, other: math_ops.logical_and(other, self)
    cls.__or__ = lambda self, other: math_ops.logical_or(self, other)
    cls.__ror__ = lambda self, other: math_ops.logical_or(other, self)
    cls.__xor__ = lambda self, other: math_ops.logical_xor(self, other)
    cls.__invert__ = lambda self: math_ops.logical_not(self)


call_binary = math_ops.call_binary


def _graph_name(stem):
    """An operator's op name while a graph is built (eager ops are unnamed, as in TF)."""
    return stem if state.graph is not None else None


# -- the eager fast paths: the common Tensor-Tensor case without lambdas (is_eager_tensor and
# array_of inline)
def _tensor_mul(self, other):
    if type(other) is Tensor and self._value.dtype is other._value.dtype:
        return execute(MUL, (self, other))
    return call_binary(MUL, self, other, _graph_name("mul"))


def _tensor_add(self, other):
    if type(other) is Tensor and self._value.dtype is other._value.dtype is not _STRINGS:
        return execute(ADD, (self, other))
    return math_ops.add(self, other, name=_graph_name("add"))


_STRINGS = np.dtype(object)


def _tensor_sub(self, other):
    if type(other) is Tensor and self._value.dtype is other._value.dtype:
        return execute(SUB, (self, other))
    return call_binary(SUB, self, other, _graph_name("sub"))


# -- == and != : TensorFlow 2's tensor_equals -----------------------------------------------------
def _identity_semantics():
    """True while a TensorFlow 1 graph is being built (not a traced function): there, as in TF,
    `==` on tensors and variables is Python identity and they hash by id (feed_dict keys)."""
    graph = state.graph
    return graph is not None and not getattr(graph, "lifts_variables", False)


def _shapes_broadcast(x, y):
    """False when the static shapes of x and y certainly do not broadcast together."""
    a, b = TensorShape(x.shape), TensorShape(y.shape)
    if a.rank is None or b.rank is None:
        return True
    for m, n in zip(reversed(a.as_list()), reversed(b.as_list())):
        if m is not None and n is not None and m != n and m != 1 and n != 1:
            return False
    return True


def _tensor_equals(self, other, negate=False):
    """`self == other` as TF 2 defines it: elementwise `equal`, a scalar False when the shapes
    cannot broadcast (TF's incompatible_shape_error=False), False against None; while a TF 1
    graph is built, identity. `negate`: the same for `!=`."""
    if other is None:
        return negate
    if _identity_semantics():
        return (self is other) != negate
    x, y = binary_operands(self, other, "NotEqual" if negate else "Equal")
    if not _shapes_broadcast(x, y):
        return constant(np.bool_(negate))
    return (math_ops.not_equal if negate else math_ops.equal)(x, y)


def _tensor_not_equals(self, other):
    return _tensor_equals(self, other, negate=True)


def _variable_hash(self):
    if _identity_semantics():
        return id(self)
    raise TypeError(f"Variable is unhashable. Instead, use variable.ref() as the key. "
                    f"(Variable: {self!r})")


# -- the installs ----------------------------------------------------------------------------------
_install_operators(TensorLike)  # Tensor, Variable and their graph forms
TensorLike.__getitem__ = indexing_ops.getitem  # (Variable's own first slices the variable)
TensorLike.__eq__, TensorLike.__ne__ = _tensor_equals, _tensor_not_equals
Tensor.__mul__, Tensor.__add__, Tensor.__sub__ = _tensor_mul, _tensor_add, _tensor_sub
Variable.__hash__ = _variable_hash  # TF 2: unhashable; key dicts and sets by `v.ref()`
IndexedSlices._dense = indexed_slices_ops.to_dense
IndexedSlices.__neg__ = indexed_slices_ops.negate
IndexedSlices._shape_of_like = indexed_slices_ops.shape_of_like
register_autopacking(autopack)
