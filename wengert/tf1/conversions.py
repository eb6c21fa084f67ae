"""TensorFlow 1's casts by target type: `to_float(x)` is `cast(x, float32)`, and likewise
to_double, to_int32, to_int64, to_complex64 and to_complex128. Each op is named as
TensorFlow 1 named it (ToFloat, ToInt32, ...)."""
from ..framework import dtypes
from ..ops.cast_ops import cast

__all__ = ["to_complex128", "to_complex64", "to_double", "to_float", "to_int32",
           "to_int64"]


def to_float(x, name="ToFloat"):
    """x as float32."""
    return cast(x, dtypes.float32, name=name)


def to_double(x, name="ToDouble"):
    """x as float64."""
    return cast(x, dtypes.float64, name=name)


def to_int32(x, name="ToInt32"):
    """x as int32 (floats truncated toward zero)."""
    return cast(x, dtypes.int32, name=name)


def to_int64(x, name="ToInt64"):
    """x as int64 (floats truncated toward zero)."""
    return cast(x, dtypes.int64, name=name)


def to_complex64(x, name="ToComplex64"):
    """x as complex64."""
    return cast(x, dtypes.complex64, name=name)


def to_complex128(x, name="ToComplex128"):
    """x as complex128."""
    return cast(x, dtypes.complex128, name=name)
