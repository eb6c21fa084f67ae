"""`wengert.compat.v1.compat`: `tf.compat` as TensorFlow 1 code reaches it (the same helpers,
and `v1` / `v2`: this namespace's package and wengert itself)."""
from ...framework.tensor_shape import dimension_at_index, dimension_value
from ...util.compat import (as_bytes, as_str, as_str_any, as_text, bytes_or_text_types,
                            complex_types, forward_compatibility_horizon, forward_compatible,
                            integral_types, path_to_str, real_types)
from ...util.lazy import lazy_attributes as _lazy_attributes

__all__ = ["as_bytes", "as_str", "as_str_any", "as_text", "bytes_or_text_types",
           "complex_types", "dimension_at_index", "dimension_value",
           "forward_compatibility_horizon", "forward_compatible", "integral_types",
           "path_to_str", "real_types"]

__getattr__, __dir__ = _lazy_attributes(globals(), {"v1": "wengert.compat.v1", "v2": "wengert"})
