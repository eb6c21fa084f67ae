"""`wengert.compat`: TensorFlow's compatibility namespaces (`compat.v1` for TF 1 style code) and
its helpers for Python values: text and bytes, number types, shape dimensions and the
forward-compatibility date (wengert/util/compat.py)."""
from ..framework.tensor_shape import dimension_at_index, dimension_value
from ..util.compat import (as_bytes, as_str, as_str_any, as_text, bytes_or_text_types,
                           complex_types, forward_compatibility_horizon, forward_compatible,
                           integral_types, path_to_str, real_types)
from ..util.lazy import lazy_attributes as _lazy_attributes

__all__ = ["as_bytes", "as_str", "as_str_any", "as_text", "bytes_or_text_types",
           "complex_types", "dimension_at_index", "dimension_value",
           "forward_compatibility_horizon", "forward_compatible", "integral_types",
           "path_to_str", "real_types", "v1"]

# v1 loads on first use: it is a third of `import wengert`'s time, and TF 2 programs never touch it
__getattr__, __dir__ = _lazy_attributes(globals(), {"v1": ".v1", "v2": "wengert"})
