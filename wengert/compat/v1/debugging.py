"""`wengert.compat.v1.debugging`: `tf.debugging` as TensorFlow 1 has it: its assertions take
`data` (wengert/tf1/asserts.py), `assert_all_finite` is `verify_tensor_all_finite`, the
`is_*` predicates of tf.math, and the switches for traceback filtering and placement logs.
Every other name is tf.debugging's."""
from ...debugging.shape_assertions import assert_shapes_v1 as assert_shapes
from ...ops.rounding_ops import is_finite, is_inf, is_nan
from ...tf1.asserts import (assert_equal, assert_greater, assert_greater_equal, assert_integer,
                            assert_less, assert_less_equal, assert_near, assert_negative,
                            assert_non_negative, assert_non_positive, assert_none_equal,
                            assert_positive, assert_proper_iterable, assert_rank,
                            assert_rank_at_least, assert_rank_in, assert_same_float_dtype,
                            assert_scalar, assert_type)
from ...tf1.behaviour import (disable_traceback_filtering, enable_traceback_filtering,
                              get_log_device_placement, is_traceback_filtering_enabled,
                              set_log_device_placement)
from ...tf1.graph_checks import verify_tensor_all_finite as assert_all_finite
from ...tf1.scoped_functions import is_non_decreasing, is_strictly_increasing
from ...util.lazy import lazy_attributes as _lazy_attributes

__getattr__, __dir__ = _lazy_attributes(globals(), {}, fallback="wengert.debugging")
