"""`wengert.math`: TensorFlow's `tf.math` namespace (the same functions as the top level, and
more; the code is in ops/)."""
# arithmetic, comparisons, logic and elementwise functions
from .ops.math_ops import *  # noqa: F403
from .ops.unary_ops import *  # noqa: F403
from .ops.trig_ops import *  # noqa: F403
from .ops.rounding_ops import *  # noqa: F403
from .ops.binary_math_ops import *  # noqa: F403
from .ops.misc_math_ops import *  # noqa: F403
from .ops.complex_ops import abs, angle, complex, conj, imag, real  # noqa: A004
from .ops.broadcast_ops import add_n
# special functions
from .ops.special_math_ops import *  # noqa: F403
from .ops.bessel_ops import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e
from . import _math_special as special
# reductions, scans, segments, counting, sorting
from .ops.reduce_ops import *  # noqa: F403
from .ops.scan_ops import *  # noqa: F403
from .ops.segment_ops import (segment_max, segment_mean, segment_min, segment_prod, segment_sum,
                              unsorted_segment_max, unsorted_segment_mean, unsorted_segment_min,
                              unsorted_segment_prod, unsorted_segment_sqrt_n,
                              unsorted_segment_sum)
from .ops.histogram_ops import bincount, confusion_matrix
from .ops.sort_ops import approx_max_k, approx_min_k, in_top_k, top_k
# the activations tf.math holds too
from .ops.nn.activations import l2_normalize, log_softmax, softmax
