"""`wengert.nn`: TensorFlow's `tf.nn` namespace (activations, softmax, losses)."""
from .ops.nn.activations import *  # noqa: F403
from .ops.nn.losses import *  # noqa: F403  (softmax_cross_entropy_with_logits, l2_loss, ...)
from .ops.nn.conv.conv2d import *  # noqa: F403,E402  (conv2d, conv2d_transpose, ...)
from .ops.nn.pool import *  # noqa: F403,E402  (max_pool2d, avg_pool2d, ...)
from .ops.nn.conv.conv3d import *  # noqa: F403,E402  (conv3d, conv3d_transpose)
from .ops.nn.conv.compositions import *  # noqa: F403,E402  (convolution, atrous, separable, transposes)
from .ops.nn.argmax_pool import max_pool_with_argmax  # noqa: F401,E402
from .ops.nn.fractional_pool import *  # noqa: F403,E402  (fractional_max_pool, fractional_avg_pool)
from .ops.nn.morphology import *  # noqa: F403,E402  (dilation2d, erosion2d)
from .ops.nn.lrn import *  # noqa: F403,E402  (local_response_normalization, lrn)
from .ops.sort_ops import approx_max_k, approx_min_k  # noqa: F401,E402
from .ops.misc_math_ops import zero_fraction  # noqa: F401,E402
from .ops.nn.isotonic import isotonic_regression  # noqa: F401,E402
from .ops.nn.candidate_sampling import *  # noqa: F403,E402  (candidate samplers)
from .ops.nn.sampled_losses import *  # noqa: F403,E402  (nce_loss, sampled_softmax_loss)
from .ops.misc_math_ops import softsign  # noqa: F401,E402  (issue 16's op: the tf.nn alias)
from .ops.space_ops import depth_to_space, space_to_batch, space_to_depth  # noqa: F401,E402
from .ops.nn.batch_norm import *  # noqa: F403,E402  (moments, batch_normalization, fused_batch_norm)
from .ops.nn.embedding import *  # noqa: F403,E402  (embedding_lookup, sparse embedding bags)
from .ops.nn.dropout import dropout  # noqa: F401,E402
from .ops.sort_ops import in_top_k, top_k  # noqa: F401,E402  (issue 16: tf.nn aliases)
# issue 21: losses scaled for data-parallel training (tf.distribute)
from .distribute.losses import compute_average_loss, scale_regularization_loss  # noqa: F401,E402
from .ops.nn.ctc.loss import ctc_loss  # noqa: F401,E402  (issue 18: CTC)
from .ops.nn.ctc.decoders import ctc_beam_search_decoder, ctc_greedy_decoder  # noqa: F401,E402
from .ops.nn.ctc.labels import collapse_repeated, ctc_unique_labels  # noqa: F401,E402
# issue 18: tf.nn.experimental (TensorFlow 2.21 holds these two there)
from .ops.nn import dropout as _dropout_stateless  # noqa: E402
import types as _types  # noqa: E402
experimental = _types.SimpleNamespace(stateless_dropout=_dropout_stateless.stateless_dropout,
                                      general_dropout=_dropout_stateless.general_dropout)
from .ops.nn.with_space_to_batch import with_space_to_batch  # noqa: F401,E402  (issue 18)
# issue 18: TensorFlow 2.21's Keras 2 era RNN cell wrappers. nn.py is a namespace module at the
# top of the import layers (tests/test_layers.py), so it may import keras; keras never imports nn.
from .keras.layers.rnn_wrappers import DeviceWrapper as RNNCellDeviceWrapper  # noqa: F401,E402
from .keras.layers.rnn_wrappers import DropoutWrapper as RNNCellDropoutWrapper  # noqa: F401,E402
from .keras.layers.rnn_wrappers import ResidualWrapper as RNNCellResidualWrapper  # noqa: F401,E402
