"""`wengert.debugging`: finding NaN/Inf at their source and tracing the reverse pass.

`enable_check_numerics()` / `disable_check_numerics()` / `check_numerics(t, message)` (numerics.py)
and `trace_backprop()` (trace.py); `assert_shapes` and `assert_rank_in` (shape_assertions.py), with
TensorFlow 1's `assert_same_float_dtype` and `assert_proper_iterable` and the traceback-filtering
and placement-logging switches (tf1/). Explaining a missing gradient is `GradientTape.explain` and
`wengert.explain_gradients` (autodiff/explain.py).
"""
from .numerics import (NumericsError, check_numerics, disable_check_numerics,
                       enable_check_numerics)
from .shape_assertions import assert_rank_in, assert_shapes  # noqa: F401 (tf.debugging's)
from .trace import BackpropTrace, trace_backprop
from ..tf1.asserts import assert_proper_iterable, assert_same_float_dtype  # noqa: F401
from ..tf1.behaviour import (disable_traceback_filtering, enable_traceback_filtering,  # noqa: F401
                             get_log_device_placement, is_traceback_filtering_enabled,
                             set_log_device_placement)
from ..ops.io.checks import (Assert, assert_all_finite, assert_equal,  # noqa: F401 (tf.debugging's asserts)
                             assert_greater, assert_greater_equal, assert_integer, assert_less,
                             assert_less_equal, assert_near, assert_negative, assert_non_negative,
                             assert_non_positive, assert_none_equal, assert_positive, assert_rank,
                             assert_rank_at_least, assert_scalar, assert_type, is_numeric_tensor)

__all__ = ["enable_check_numerics", "disable_check_numerics", "check_numerics", "NumericsError",
           "trace_backprop", "BackpropTrace"]
