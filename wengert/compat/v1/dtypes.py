"""`wengert.compat.v1.dtypes`: `tf.dtypes` as TensorFlow 1 has it, with the conversions it
also holds (`as_string`, `cast`, `complex`, `saturate_cast`)."""
from ...framework.dtypes import *  # noqa: F403
from ...framework.dtypes import __all__ as _dtype_names
from ...ops.cast_ops import cast
from ...ops.complex_parts import complex
from ...ops.io.strings import as_string
from ...ops.shape_ops import saturate_cast

__all__ = [*_dtype_names, "as_string", "cast", "complex", "saturate_cast"]
