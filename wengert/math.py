"""`wengert.math`: TensorFlow's `tf.math` namespace (the same functions as the top level)."""
from .ops.broadcast_ops import add_n  # noqa: F401
from .ops.math_ops import *  # noqa: F403
from .ops.unary_ops import *  # noqa: F403
from .ops.reduce_ops import *  # noqa: F403
from .ops.nn.activations import log_softmax, softmax  # noqa: F401  (tf.math.softmax too)

# -- issue 16: tf.math's elementwise functions, scans, segments, sorting -----------------------
from .ops.trig_ops import *  # noqa: F401,F403,E402
from .ops.rounding_ops import *  # noqa: F401,F403,E402
from .ops.binary_math_ops import *  # noqa: F401,F403,E402
from .ops.special_math_ops import *  # noqa: F401,F403,E402
from .ops.misc_math_ops import *  # noqa: F401,F403,E402
from .ops.histogram_ops import bincount, confusion_matrix  # noqa: F401,E402
from .ops.bessel_ops import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e  # noqa: F401,E402
from . import _math_special as special  # noqa: F401,E402  tf.math.special
from .ops.scan_ops import *  # noqa: F401,F403,E402
from .ops.segment_ops import (segment_max, segment_mean, segment_min, segment_prod,  # noqa: E402
                              segment_sum, unsorted_segment_max, unsorted_segment_mean,
                              unsorted_segment_min, unsorted_segment_prod,
                              unsorted_segment_sqrt_n, unsorted_segment_sum)
from .ops.sort_ops import approx_max_k, approx_min_k, in_top_k, top_k  # noqa: F401,E402
from .ops.nn.activations import l2_normalize  # noqa: F401,E402  (tf.math.l2_normalize too)
from .ops.complex_ops import abs, angle, complex, conj, imag, real  # noqa: F401,E402,A004
