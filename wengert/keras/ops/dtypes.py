"""Keras 3's dtype promotion, which `keras.ops` applies before it calls wengert's ops.

wengert's `tf.*` ops keep TensorFlow's rule (both operands of `add` must have one dtype); Keras 3
instead promotes the way JAX does, and so does `keras.ops` here. Every dtype sits on a lattice, a
directed acyclic graph whose edges lead from a type to the next wider ones:

    bool -> int* ;  int* -> uint8, int8, complex64 ;  uint8 -> int16, uint16 ;  uint16 -> int32,
    uint32 ;  uint32 -> int64, uint64 ;  uint64 -> float* ;  int8 -> int16 -> int32 -> int64 ->
    float* ;  float* -> bfloat16, float16 -> float32 -> float64, complex64 ;  float64 -> complex128 ;
    complex64 -> complex128

`int*` and `float*` are the weak types of Python's `int` and `float` scalars: a scalar adopts the
dtype of the tensor it meets (`int8 + 3` stays int8, `float16 + 2.0` stays float16) instead of
widening it. The result of several dtypes is their least upper bound: the one common upper bound
that every other common upper bound lies above (int32 with float32 gives float32, uint8 with int8
gives int16, int64 with uint64 gives a weak float, which resolves to floatx). As in Keras's
TensorFlow backend, uint64 and complex128 results narrow to uint32 and complex64; int64 and float64
stay. Python scalars and lists become tensors as TensorFlow's conversion makes them (int32,
float32), so `keras.ops.add(x_int32, 2.5)` is float32 and `keras.ops.add(x_float16, 1)` float16.

Every keras.ops call asks these questions, so their answers are kept: a dtype's Keras name by the
dtype, and a promotion's result by its operand dtypes and the floatx it resolved weak types with
(only answers are kept; a question that raises is asked afresh each time).
"""
import numpy as np

from ...framework.dtypes import DType
from ...framework.tensor import TensorLike, convert_to_tensor as _tf_convert, is_tensor
from ...ops.cast_ops import cast
from .. import backend

__all__ = ["result_type", "standardize_dtype", "dtype_of", "convert", "promote", "shared_dtype",
           "is_float", "is_int", "is_complex", "is_unsigned"]

ALLOWED_DTYPES = ("float16", "float32", "float64", "uint8", "uint16", "uint32", "uint64", "int8",
                  "int16", "int32", "int64", "bfloat16", "bool", "string", "float8_e4m3fn",
                  "float8_e5m2", "complex64", "complex128")
FLOAT8_TYPES = ("float8_e4m3fn", "float8_e5m2")
WEAK_TYPES = ("int", "float")
PYTHON_DTYPES = {bool: "bool", int: "int64", float: "float32", str: "string", "int": "int64",
                 complex: "complex128"}
NARROWED = {"uint64": "uint32", "complex128": "complex64"}

_LATTICE = {
    "bool": ["int"], "int": ["uint8", "int8", "complex64"],
    "uint8": ["int16", "uint16"], "uint16": ["int32", "uint32"], "uint32": ["int64", "uint64"],
    "uint64": ["float"], "int8": ["int16"], "int16": ["int32"], "int32": ["int64"],
    "int64": ["float"], "float": ["bfloat16", "float16"], "bfloat16": ["float32"],
    "float16": ["float32"], "float32": ["float64", "complex64"], "float64": ["complex128"],
    "complex64": ["complex128"], "complex128": [],
}


def _upper_bounds():
    """{type: every type reachable from it on the lattice, itself included}."""
    bounds = {}
    for start in _LATTICE:
        seen, todo = {start}, [start]
        while todo:
            for up in _LATTICE[todo.pop()]:
                if up not in seen:
                    seen.add(up)
                    todo.append(up)
        bounds[start] = seen
    return bounds


_UPPER = _upper_bounds()


_NAMES = {}
_RESULTS = {}
_KEPT = frozenset(ALLOWED_DTYPES) - set(NARROWED) - set(FLOAT8_TYPES) - {"string"}


def standardize_dtype(dtype):
    """The Keras name of `dtype` (a string, a wengert or NumPy dtype, or a Python type); None is
    floatx."""
    if dtype is None:
        return backend.floatx()
    return _kept(_NAMES, dtype, _standard_name, dtype)


def _kept(answers, key, compute, *args):
    """answers[key], computed by compute(*args) and kept the first time (not kept when the key
    is unhashable; an exception propagates and keeps nothing)."""
    try:
        return answers[key]
    except (KeyError, TypeError):
        pass
    value = compute(*args)
    try:
        answers[key] = value
    except TypeError:
        pass
    return value


def _standard_name(dtype):
    if isinstance(dtype, (type, str)) and dtype in PYTHON_DTYPES:
        dtype = PYTHON_DTYPES[dtype]
    if isinstance(dtype, DType):
        dtype = dtype.name
    elif isinstance(dtype, np.dtype):
        dtype = dtype.name
    elif isinstance(dtype, type) and issubclass(dtype, np.generic):
        dtype = np.dtype(dtype).name
    if dtype == "str":
        dtype = "string"
    if not isinstance(dtype, str) or dtype not in ALLOWED_DTYPES:
        raise ValueError(f"keras.ops: invalid dtype {dtype!r}; expected one of {ALLOWED_DTYPES}.")
    return dtype


def _least_upper_bound(names):
    for name in names:
        if name not in _UPPER:
            raise ValueError(f"keras.ops.result_type: dtype={name!r} is not a valid dtype for "
                             "Keras type promotion.")
    common = set.intersection(*(_UPPER[n] for n in names))
    least = (common & set(names)) or {c for c in common if common <= _UPPER[c]}
    if len(least) != 1:
        raise ValueError(f"keras.ops.result_type: input dtypes {tuple(names)} have no implicit "
                         "promotion path; cast the inputs to the dtype you want.")
    return least.pop()


def _weak_name(dtype):
    if dtype == "bool":
        return dtype
    for kind in ("float", "int", "complex"):
        if kind in dtype:
            return kind
    raise ValueError(f"keras.ops.result_type: dtype {dtype!r} has no weak form.")


def _resolve_weak(dtype):
    precision = backend.floatx()[-2:]
    kind = "f" if dtype == "bfloat16" else dtype[:1]
    return {"b": "bool", "i": f"int{precision}", "u": f"uint{precision}"}.get(
        kind, f"float{precision}")


def _lattice_result(args):
    weak = [a is int or a is float for a in args]
    names = [standardize_dtype(a) for a in args]
    if len(names) == 1:
        out, out_weak = names[0], weak[0]
    elif len(set(names)) == 1 and not all(weak):
        out, out_weak = names[0], False
    elif all(weak):
        out, out_weak = _least_upper_bound(sorted(set(names))), True
    else:
        out = _least_upper_bound(sorted({_weak_name(n) if w else n
                                         for n, w in zip(names, weak)}))
        out_weak = out in WEAK_TYPES
    if out != "bool" and out_weak:
        out = _resolve_weak(out)
    return NARROWED.get(out, out)


def result_type(*dtypes):
    """The dtype Keras 3 gives an op over inputs of these dtypes; the Python types `int` and
    `float` stand for weakly typed scalars, None for floatx. No dtypes give floatx."""
    return _kept(_RESULTS, (dtypes, backend.floatx()), _result_type, dtypes)


def _result_type(dtypes):
    if not dtypes:
        return backend.floatx()
    for dtype in dtypes:
        if isinstance(dtype, str) and dtype in FLOAT8_TYPES:
            raise ValueError(f"keras.ops.result_type: float8 dtypes do not promote implicitly "
                             f"(got {dtypes}); cast them first.")
    return _lattice_result([backend.floatx() if d is None else d for d in dtypes])


def dtype_of(x):
    """What result_type should see for an operand: a Python int or float is its (weak) type,
    anything else the Keras name of its dtype."""
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, (int, float)) and not isinstance(x, np.generic):
        return type(x) if type(x) in (int, float) else standardize_dtype(type(x))
    if is_tensor(x) or isinstance(x, (np.ndarray, np.generic)):
        return standardize_dtype(x.dtype)
    return standardize_dtype(convert(x).dtype)


def convert(x, dtype=None):
    """Keras's convert_to_tensor: a tensor of `x`, cast to `dtype` when one is given (Python ints
    and floats become int32 and float32 when no dtype is asked for)."""
    dtype = None if dtype is None else standardize_dtype(dtype)
    if not is_tensor(x):
        if dtype is not None and (dtype == "bool" or "int" in dtype):
            return cast(_tf_convert(x), dtype)
        return _tf_convert(x, dtype=dtype)
    if dtype is not None and x.dtype.name != dtype:
        return cast(x, dtype)
    return x


def shared_dtype(x1, x2):
    """The dtype name two tensors (or variables) share when promotion keeps it as it is, else
    None: the fast path of every binary op, whose operands mostly agree already."""
    if isinstance(x1, TensorLike) and isinstance(x2, TensorLike):
        dtype = x1.dtype
        if dtype == x2.dtype and dtype.name in _KEPT:
            return dtype.name
    return None


def promote(*xs, dtype=None):
    """The operands as tensors of one dtype: `dtype` if given, else their Keras result type."""
    if dtype is None:
        dtype = result_type(*(dtype_of(x) for x in xs))
    return [convert(x, dtype) for x in xs]


def is_float(dtype):
    return "float" in standardize_dtype(dtype)


def is_int(dtype):
    return "int" in standardize_dtype(dtype)


def is_unsigned(dtype):
    return standardize_dtype(dtype).startswith("uint")


def is_complex(dtype):
    return "complex" in standardize_dtype(dtype)
