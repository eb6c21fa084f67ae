"""`wengert.dtypes`: `tf.dtypes` as TensorFlow 2 has it: the dtypes and `DType`/`as_dtype`
(framework/dtypes.py), with the conversions it also holds (`cast`, `complex`, `saturate_cast`)."""
from .framework.dtypes import *  # noqa: F403
from .framework.dtypes import __all__ as _dtype_names
from .ops.cast_ops import cast
from .ops.complex_parts import complex  # noqa: A004 (TensorFlow's name)
from .ops.shape_ops import saturate_cast

__all__ = [*_dtype_names, "cast", "complex", "saturate_cast"]
