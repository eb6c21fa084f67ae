"""Data types: TensorFlow-style `DType` objects over NumPy dtypes.

A `DType` names one NumPy dtype (`float32`, `int64`, `bool`, `complex64`...) and answers the
questions autodiff asks of it: can it carry a gradient (`is_differentiable`: floating point or
complex, as TensorFlow's backprop decides), is it an integer, what NumPy type backs it.
`as_dtype` turns anything a user may write (a DType, a NumPy dtype or type, a string) into a DType;
`tf.DType(type_enum)` is the dtype of a DataType enum number (one object per dtype).

As a trace type (tf.types.experimental.TraceType) a dtype is a subtype only of itself, the
common supertype of equal dtypes is that dtype (None otherwise), and it stands for no tensors
(`to_tensors` gives [], `placeholder_value` None), as in TensorFlow. `experimental_as_proto()`
is the SerializedDType message.
"""
import numpy as np

from .protos.data_types import SerializedDType

__all__ = ["DType", "as_dtype", "float16", "float32", "float64", "int8", "int16", "int32",
           "int64", "uint8", "uint16", "uint32", "uint64", "bool", "half", "double", "complex64",
           "complex128"]


class DType:
    """One tensor element type. Compares equal to its name, its NumPy dtype and itself."""

    __slots__ = ("name", "as_numpy_dtype", "_np", "is_floating", "is_integer", "is_bool",
                 "is_complex", "is_differentiable")

    def __new__(cls, type_enum, handle_data=None):
        """tf.DType(type_enum): the dtype whose DataType enum number is `type_enum`."""
        return _from_enum(int(type_enum))

    def __init__(self, type_enum, handle_data=None):
        """Nothing to set (__new__ returned the one object of that dtype); handle data, which
        TensorFlow keeps for resource and variant dtypes, is refused."""
        if handle_data is not None:
            raise ValueError(f"tf.DType({type_enum!r}, handle_data=...): wengert's dtypes carry "
                             "no resource handle data; pass handle_data=None.")

    @classmethod
    def _define(cls, name, np_type):
        self = object.__new__(cls)
        self.name = name
        self.as_numpy_dtype = np_type
        self._np = np.dtype(np_type)
        self.is_floating = self._np.kind == "f"
        self.is_integer = self._np.kind in "iu"
        self.is_bool = self._np.kind == "b"
        self.is_complex = self._np.kind == "c"
        self.is_differentiable = self._np.kind in "fc"
        return self

    @property
    def is_numeric(self):
        return self._np.kind in "fiuc"

    @property
    def size(self):
        return 0 if self._np.kind == "O" else self._np.itemsize

    @property
    def is_numpy_compatible(self):
        """Whether NumPy holds this dtype's values as such (not variant's objects)."""
        return self.name != "variant"

    @property
    def as_datatype_enum(self):
        """TensorFlow's DataType enum number (DT_FLOAT = 1, ...)."""
        return DATATYPE_ENUMS[self.name]

    @property
    def min(self):
        self._check_ordered("min")
        return np.finfo(self._np).min if self.is_floating else np.iinfo(self._np).min

    @property
    def max(self):
        self._check_ordered("max")
        return np.finfo(self._np).max if self.is_floating else np.iinfo(self._np).max

    def _check_ordered(self, what):
        if self._np.kind not in "fiu":
            raise TypeError(f"Cannot find the {what}imum value of dtype {self.name}.")

    def is_compatible_with(self, other):
        """Whether a tensor of dtype `other` converts to this dtype (TF 1): they are equal."""
        return as_dtype(other) is self

    # -- tf.types.experimental.TraceType ---------------------------------------------------------
    def is_subtype_of(self, other):
        return self == other

    def most_specific_common_supertype(self, types):
        return self if all(self == other for other in types) else None

    def placeholder_value(self, placeholder_context):
        """None: a dtype stands for no value while tracing (TraceType's default)."""
        return None

    def to_tensors(self, value):
        return []

    def from_tensors(self, tensors):
        return None

    def flatten(self):
        return []

    def cast(self, value, cast_context):
        """`value` if it is None (this type's placeholder value); AssertionError otherwise."""
        assert value is None, f"Can not cast {value!r} to type {self!r}"
        return value

    def experimental_as_proto(self):
        return SerializedDType(datatype=self.as_datatype_enum)

    @classmethod
    def experimental_from_proto(cls, proto):
        return _from_enum(proto.datatype)

    @property
    def base_dtype(self):
        return self

    @property
    def real_dtype(self):
        """The dtype of the real and imaginary parts: float32 for complex64, float64 for
        complex128, the dtype itself otherwise."""
        return _REAL_PARTS.get(self.name, self)

    def __eq__(self, other):
        if other is self:
            return True
        try:
            return as_dtype(other) is self
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return "tf." + self.name

    def __str__(self):
        return f"<dtype: '{self.name}'>"

    def __reduce__(self):
        return as_dtype, (self.name,)


float16 = half = DType._define("float16", np.float16)
float32 = DType._define("float32", np.float32)
float64 = double = DType._define("float64", np.float64)
int8 = DType._define("int8", np.int8)
int16 = DType._define("int16", np.int16)
int32 = DType._define("int32", np.int32)
int64 = DType._define("int64", np.int64)
uint8 = DType._define("uint8", np.uint8)
uint16 = DType._define("uint16", np.uint16)
uint32 = DType._define("uint32", np.uint32)
uint64 = DType._define("uint64", np.uint64)
bool = DType._define("bool", np.bool_)  # noqa: A001  (TensorFlow's public name)
complex64 = DType._define("complex64", np.complex64)
complex128 = DType._define("complex128", np.complex128)
_REAL_PARTS = {"complex64": float32, "complex128": float64}

_ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool,
        complex64, complex128)
#: NumPy dtype -> DType; the hot path of `Tensor.dtype`.
FROM_NUMPY = {d._np: d for d in _ALL}
_BY_NAME = {d.name: d for d in _ALL}
_BY_NAME.update(half=float16, double=float64, float=float32)


def as_dtype(type_value):
    """Return the DType for a DType, NumPy dtype/type, name such as "float32", or TensorFlow's
    DataType enum number (1 is float32, as `tf.zeros(1, 1)` passes it)."""
    value = type_value
    if isinstance(value, DType):
        return value
    if type(value) is int:
        return _from_enum(value)
    if isinstance(value, str):
        if value in _BY_NAME:
            return _BY_NAME[value]
        raise TypeError(f"Unknown dtype name {value!r}; use one of {sorted(_BY_NAME)}.")
    try:
        np_dtype = np.dtype(value)
        found = FROM_NUMPY.get(np_dtype) or (string if np_dtype.kind in "USO" else None)
    except TypeError:
        found = None
    if found is None:
        raise TypeError(f"Cannot interpret {value!r} as a wengert dtype; supported: "
                        f"{', '.join(d.name for d in _ALL)}.")
    return found


# -- TensorFlow's DataType enum numbers (types.proto), for as_dtype(1) and as_datatype_enum -----
DATATYPE_ENUMS = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6,
                  "string": 7, "complex64": 8, "int64": 9, "bool": 10, "bfloat16": 14,
                  "uint16": 17, "complex128": 18, "float16": 19, "resource": 20, "variant": 21,
                  "uint32": 22, "uint64": 23}


def _from_enum(number):
    for name, enum in DATATYPE_ENUMS.items():
        if enum == number and name in _BY_NAME:
            return _BY_NAME[name]
    raise TypeError(f"Cannot interpret {number!r} as a dtype: it is not the DataType enum "
                    f"number of a supported dtype ({', '.join(d.name for d in _ALL)}).")


# -- tf.string: variable-length byte strings, held as NumPy object arrays of `bytes` ------------
# (no gradient, no arithmetic but + and comparisons; see ops/io/strings.py)
string = DType._define("string", np.object_)
_ALL += (string,)
FROM_NUMPY[string._np] = string
_BY_NAME["string"] = string
__all__.append("string")

# -- tf.variant: a scalar holding one object (a dataset, an iterator), as TensorFlow's variant
# tensors hold C++ objects. NumPy holds it in a one-field record so that the array's dtype is not
# string's object dtype (no arithmetic, no gradient; see data/variants.py).
VARIANT_NUMPY = np.dtype([("variant", object)])
variant = DType._define("variant", VARIANT_NUMPY)
_ALL += (variant,)
FROM_NUMPY[VARIANT_NUMPY] = variant
_BY_NAME["variant"] = variant
__all__.append("variant")


def variant_array(obj):
    """A 0-d variant array holding `obj`."""
    array = np.empty((), VARIANT_NUMPY)
    array["variant"] = obj
    return array


def variant_object(array):
    """The object a variant array (0-d) holds."""
    return np.asarray(array)["variant"].item()
