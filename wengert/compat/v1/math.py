"""`wengert.compat.v1.math`: TensorFlow 1's `tf.math`, which is `tf.math` with TensorFlow 1's
signatures for the reductions (`reduction_indices`, `keep_dims`: tf1/reductions_v1.py),
argmax/argmin (`dimension`), softmax/log_softmax (`dim`), in_top_k (predictions first) and
confusion_matrix (dtype before weights)."""
from ...math import *  # noqa: F403
from ...math import special  # noqa: F401
from ...tf1.arithmetic import confusion_matrix  # noqa: F401
from ...tf1.nn_v1 import in_top_k, log_softmax, softmax  # noqa: F401
from ...tf1.reductions_v1 import (argmax, argmin, count_nonzero, reduce_all,  # noqa: F401
                                  reduce_any, reduce_logsumexp, reduce_max, reduce_mean,
                                  reduce_min, reduce_prod, reduce_sum)
