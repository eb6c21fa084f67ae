"""`Tensor`: an immutable n-dimensional value over a NumPy array, and conversion to tensors.

An eager Tensor wraps the ndarray its op produced (`_value`) and, when a tape recorded that op,
the op record (`_op`). It shares `TensorLike` with graph tensors (graph/symbolic.py), variables
(variables.py) and graph variables: a shape, a dtype, a name, and Python's operators, which
ops/installs.py installs (the ops sit above framework/), so `a * b` is the `Mul` op with its
gradient.

Conversion follows TensorFlow: Python floats become float32 and ints int32 unless a dtype is asked
for; NumPy arrays keep their dtype; a float cannot silently become an integer.
"""
import numpy as np

from . import dtypes
from .errors import naming_caller
from .context import state
from .tensor_shape import TensorShape
from . import tensor_conversion_registry as _conversions

__all__ = ["TensorLike", "Tensor", "constant", "convert_to_tensor", "is_tensor",
           "is_eager_tensor", "array_of"]

_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"


class TensorLike:
    """What tensors and variables share, eager or in a graph: each has `shape` (a TensorShape),
    `dtype` (a DType) and `name`; Python's operators (+ - * / @ [] == < ...) are ops on any of
    them (installed by ops/installs.py)."""

    __slots__ = ()
    __array_priority__ = 100  # NumPy defers `ndarray * x` to x.__rmul__

    def get_shape(self):
        return self.shape

    @property
    def ndim(self):
        """The rank (None when a graph does not know it)."""
        return self.shape.rank

    @property
    def device(self):
        return _DEVICE

    @property
    def graph(self):
        """The graph this belongs to (None eagerly)."""
        return None

    def ref(self):
        """A hashable reference (tensors compare elementwise, so are unhashable)."""
        return _Reference(self)

    def experimental_ref(self):
        """The old name of `ref()` (deprecated in TensorFlow)."""
        return self.ref()


class Tensor(TensorLike):
    """An eager tensor. Use `constant` or an op to make one, `.numpy()` to read it."""

    __slots__ = ("_value", "_op", "_value_index", "__weakref__")

    def __init__(self, value, op=None, value_index=0):
        # `execute` builds single-output results without this call (its hot path): a new field
        # must be set there too (tests/test_tensor.py checks that every field is).
        self._value = value
        self._op = op
        self._value_index = value_index

    # -- what it is -------------------------------------------------------------------------
    @property
    def shape(self):
        return TensorShape(self._value.shape)

    @property
    def dtype(self):
        return dtypes.FROM_NUMPY[self._value.dtype]

    @property
    def ndim(self):
        return self._value.ndim  # (what TensorLike.ndim gives, without building a TensorShape)

    @property
    def op(self):
        """The op record that produced this tensor (None for an eager tensor no tape recorded)."""
        return self._op

    @property
    def value_index(self):
        return self._value_index

    @property
    def name(self):
        return f"{self._op.name}:{self._value_index}" if self._op is not None else "Tensor"

    def set_shape(self, shape):
        """An eager tensor's shape is known: ValueError when `shape` does not fit it (a graph
        tensor refines its static shape instead)."""
        if not self.shape.is_compatible_with(shape):
            raise ValueError(f"Tensor's shape {self.shape} is not compatible with supplied "
                             f"shape {TensorShape(shape)}.")

    def eval(self, feed_dict=None, session=None):
        """Graph tensors only (their Session runs them); an eager tensor has its value."""
        raise NotImplementedError("eval is not supported when eager execution is enabled, is "
                                  ".numpy() what you're looking for?")

    def numpy(self):
        """A NumPy copy of the value (a NumPy scalar for a 0-d tensor; bytes for a 0-d string
        tensor, which an op on two 0-d string arrays holds as Python bytes)."""
        value = self._value
        if type(value) is bytes:
            return value
        return value[()] if value.ndim == 0 else value.copy()

    def __array__(self, dtype=None, copy=None):
        if copy:
            return np.array(self._value, dtype=dtype, copy=True)
        return np.asarray(self._value, dtype=dtype)

    # -- Python protocols ----------------------------------------------------------------------
    def __len__(self):
        if self._value.ndim == 0:
            raise TypeError("len() of a scalar (0-d) Tensor is not defined.")
        return self._value.shape[0]

    def __iter__(self):
        if self._value.ndim == 0:
            raise TypeError("Cannot iterate over a scalar (0-d) Tensor.")
        return (self[i] for i in range(self._value.shape[0]))

    def _scalar(self, kind):
        if self._value.size != 1:
            raise ValueError(f"{kind}() of a Tensor with shape {self.shape} is ambiguous: only "
                             "single-element tensors convert; use reduce_any/reduce_all or index it.")
        return self._value.reshape(())[()]

    def __bool__(self):
        return bool(self._scalar("bool"))

    def __float__(self):
        return float(self._scalar("float"))

    def __int__(self):
        return int(self._scalar("int"))

    def __index__(self):
        if not self.dtype.is_integer:
            raise TypeError(f"Only integer tensors can be used as an index, not {self.dtype.name}.")
        return int(self._scalar("index"))

    __hash__ = None  # `==` is elementwise, as in TF 2; use `.ref()` as a dict key

    def __format__(self, format_spec):
        """`f"{t:.3f}"` formats the value as NumPy does (a scalar like a Python number)."""
        if not format_spec:
            return str(self)
        value = self._value
        return format(value[()] if value.ndim == 0 else value, format_spec)

    def __repr__(self):
        return (f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, "
                f"numpy={_array_repr(self._value)}>")

    def __str__(self):
        return (f"tf.Tensor({_array_repr(self._value, str)}, shape={self.shape}, "
                f"dtype={self.dtype.name})")

    def __reduce__(self):
        raise TypeError("Tensors are not picklable; save `t.numpy()` or use train.Checkpoint.")


class _Reference:
    """Hashable wrapper returned by `Tensor.ref()` / `Variable.ref()`."""

    __slots__ = ("_obj",)

    def __init__(self, obj):
        self._obj = obj

    def deref(self):
        return self._obj

    def __hash__(self):
        return id(self._obj)

    def __eq__(self, other):
        return isinstance(other, _Reference) and other._obj is self._obj

    def __repr__(self):
        return f"<Reference wrapping {self._obj!r}>"


def _array_repr(value, text_of=repr):
    """The value as a tensor's repr (its `numpy=` part) or, with text_of=str, its str prints it,
    as TensorFlow does: NumPy's text (on a new line when it spans several), or the bare value of
    a scalar."""
    if value.ndim == 0:
        item = value[()]
        return repr(item) if isinstance(item, bytes) else str(item)
    text = text_of(value)
    return "\n" + text if "\n" in text else text


def is_tensor(x):
    return isinstance(x, Tensor)


def is_eager_tensor(x):
    """True for an eager Tensor, whose value exists now (`array_of(x)`); False for a graph
    tensor (graph/symbolic.py), a variable, IndexedSlices or a plain value. (The hottest loops
    test `type(x) is Tensor` inline, with a comment naming this function.)"""
    return type(x) is Tensor


def array_of(x):
    """The ndarray behind an eager Tensor or a Variable (the variable's current value): the
    array itself, not a copy, and no read is recorded on any tape. None for a graph tensor, a
    graph variable or anything else. Treat it as read-only: tensors are immutable, and variables
    change only through `assign` and its kin. (Hot loops read `x._value` inline, with a comment
    naming this function.)"""
    return getattr(x, "_value", None)


# -- conversion -------------------------------------------------------------------------------
_PY_DEFAULTS = {np.dtype(np.float64): np.dtype(np.float32), np.dtype(np.int64): np.dtype(np.int32)}
_INT32 = np.iinfo(np.int32)


def to_array(value, dtype=None):
    """An ndarray for `value` with TensorFlow's dtype rules; TypeError for unsupported input."""
    from_numpy = isinstance(value, (np.ndarray, np.generic))
    if dtype is not None:
        return _cast_value(value, dtypes.as_dtype(dtype), from_numpy)
    array = np.array(value)
    if array.dtype.kind in "SU" and not from_numpy:
        # NumPy's fixed-width bytes drop trailing NUL bytes (b"ab\0" becomes b"ab"): take the
        # Python bytes objects themselves, which binary data (a PNG, a WebP) needs whole
        array = np.array(value, dtype=object)
    if array.dtype.kind in "USO":
        return string_array(array, value)
    if array.dtype not in dtypes.FROM_NUMPY:
        raise TypeError(f"Cannot convert {_short(value)} (NumPy dtype {array.dtype}) to a tensor; "
                        "supported dtypes are float16/32/64, complex64/128, int8/16/32/64, uint8 "
                        "and bool.")
    if not from_numpy and array.dtype in _PY_DEFAULTS:
        if array.dtype.kind == "i" and array.size and (array.max() > _INT32.max
                                                         or array.min() < _INT32.min):
            return array
        array = array.astype(_PY_DEFAULTS[array.dtype])
    return array


def _cast_value(value, dtype, from_numpy):
    target = dtype._np
    if value is None:
        raise TypeError(f"Cannot convert None to a tensor of dtype {dtype.name}; pass a tensor, "
                        "an array or a number.")
    source = np.asarray(value)
    if source.dtype.kind in "SU" and not from_numpy:  # keep trailing NUL bytes, as to_array does
        source = np.array(value, dtype=object)
    if target.kind == "O" or source.dtype.kind in "USO":
        if target.kind != "O":
            raise TypeError(f"Cannot convert {_short(value)} to a tensor of dtype {dtype.name}"
                            " (strings convert to numbers with strings.to_number).")
        return string_array(source, value)
    if source.dtype.kind in "fc" and target.kind in "iub" and (from_numpy or source.size):
        raise TypeError(f"Cannot convert {_short(value)} to a tensor of dtype {dtype.name}: "
                        "floating-point values do not implicitly become integers; use "
                        "`cast` if truncation is what you want.")
    if source.dtype.kind == "c" and target.kind != "c":
        raise TypeError(f"Cannot convert {_short(value)} to a tensor of dtype {dtype.name}: "
                        "complex values do not implicitly lose their imaginary part; use "
                        "`tf.math.real` or `cast` if that is what you want.")
    if source.dtype.kind not in "fiubc":
        raise TypeError(f"Cannot convert {_short(value)} to a tensor of dtype {dtype.name}.")
    return np.array(source, dtype=target)


# -- tf.string values: object arrays of bytes ---------------------------------------------------
def string_array(array, value=None):
    """`array` (of str, bytes or NumPy strings) as a tf.string value: an object array of `bytes`,
    Python strings encoded as UTF-8; TypeError naming the value for anything else."""
    out = np.empty(array.shape, dtype=object)
    flat, source = out.reshape(-1), array.reshape(-1)
    for i, item in enumerate(source.tolist()):
        if isinstance(item, str):
            flat[i] = item.encode("utf-8")
        elif isinstance(item, bytes):
            flat[i] = item
        else:
            raise TypeError(f"Cannot convert {_short(array if value is None else value)} to a "
                            f"tensor: {item!r} is a {type(item).__name__}, and a tensor holds "
                            "one dtype (strings and numbers do not mix).")
    return out


def _short(value):
    text = repr(value)
    return text if len(text) < 60 else text[:57] + "..."


def constant(value, dtype=None, shape=None, name="Const"):
    """A constant tensor from a Python value or array (copied), optionally reshaped/broadcast."""
    if isinstance(value, Tensor):
        value = value._value
    array = to_array(value, dtype)
    if shape is not None:
        shape = tuple(shape)
        if array.size == 1 and int(np.prod(shape)) != 1:
            array = np.full(shape, array.reshape(()), dtype=array.dtype)
        elif array.size == int(np.prod(shape)):
            array = array.reshape(shape)
        else:
            raise TypeError(f"constant: cannot make a tensor of shape {shape} from a value "
                            f"with {array.size} elements.")
    if state.graph is not None:
        return state.graph.constant(array, name)
    return Tensor(array)


# Lists holding tensors become a Pack of their entries (TensorFlow's autopacking), so that
# [tf.shape(x)[0], -1] is a tensor in a graph and gradients flow through [x, 1.0] eagerly. The
# ops layer installs the packing function (ops/installs.py), as TensorFlow registers its
# conversion function for lists: the framework cannot import the Pack op.
_autopack = None


def register_autopacking(fn):
    """Install fn(values, dtype) -> Tensor, called for a (nested) list or tuple holding tensors."""
    global _autopack
    _autopack = fn


def holds_tensor(value):
    """Whether a (nested) list or tuple holds a tensor, graph tensor or variable."""
    stack = [value]
    while stack:
        for v in stack.pop():
            if isinstance(v, TensorLike) or hasattr(v, "_as_tensor"):
                return True
            if type(v) in (list, tuple):
                stack.append(v)
    return False


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """`value` as a Tensor: tensors pass through (their dtype must match `dtype`), variables are
    read, a list holding tensors is packed (their Pack, so its gradient flows), anything else
    becomes a constant. `dtype_hint` is used when it fits the value."""
    if isinstance(value, Tensor):
        if dtype is not None and dtypes.as_dtype(dtype) is not value.dtype:
            raise naming_caller(ValueError(
                f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} for a Tensor "
                f"with dtype {value.dtype.name}; use cast(x, {dtypes.as_dtype(dtype).name}) to "
                "convert it."), value)
        return value
    as_tensor = getattr(value, "_as_tensor", None)
    if as_tensor is not None:
        return as_tensor(dtype)
    if _conversions.REGISTERED[0]:  # tf.register_tensor_conversion_function was called
        converted = _conversions.convert_registered(value, dtype, dtype_hint, name, Tensor)
        if converted is not NotImplemented:
            return converted
    if type(value) in (list, tuple) and _autopack is not None and holds_tensor(value):
        return _autopack(value, dtype if dtype is not None else dtype_hint)
    if value is None:
        raise naming_caller(ValueError("got None where a tensor is needed; pass a tensor, an "
                                       "array or a number."), value)
    if dtype is None and dtype_hint is not None:
        try:
            return constant(value, dtype_hint, name=name or "Const")
        except TypeError:
            pass
    try:
        return constant(value, dtype, name=name or "Const")
    except (TypeError, ValueError) as exc:
        raise naming_caller(exc, value) from None


def convert_n(values, dtype=None):
    return [convert_to_tensor(v, dtype) for v in values]
