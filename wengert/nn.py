"""`wengert.nn`: TensorFlow's `tf.nn` namespace (activations, softmax, losses)."""
from .ops.nn_ops import *  # noqa: F403
from .ops.loss_ops import *  # noqa: F403  (softmax_cross_entropy_with_logits, l2_loss, ...)
from .ops.conv_ops import *  # noqa: F403,E402  (conv2d, conv2d_transpose, ...)
from .ops.pool_ops import *  # noqa: F403,E402  (max_pool2d, avg_pool2d, ...)
from .ops.conv3d_ops import *  # noqa: F403,E402  (conv3d, transposes, convolution, separable)
from .ops.pool_extra_ops import *  # noqa: F403,E402  (max_pool_with_argmax, fractional pools)
from .ops.morphology_ops import *  # noqa: F403,E402  (dilation2d, erosion2d)
from .ops.nn_extra_ops import *  # noqa: F403,E402  (lrn, crelu, moments helpers, approx_max_k)
from .ops.isotonic_ops import isotonic_regression  # noqa: F401,E402
from .ops.candidate_sampling_ops import *  # noqa: F403,E402  (candidate samplers)
from .ops.sampled_loss_ops import *  # noqa: F403,E402  (nce_loss, sampled_softmax_loss)
from .ops.misc_math_ops import softsign  # noqa: F401,E402  (issue 16's op: the tf.nn alias)
from .ops.space_ops import depth_to_space, space_to_batch, space_to_depth  # noqa: F401,E402
from .ops.norm_ops import *  # noqa: F403,E402  (moments, batch_normalization, fused_batch_norm)
from .ops.embedding_ops import *  # noqa: F403,E402  (embedding_lookup)
from .ops.random_ops import dropout  # noqa: F401,E402
from .ops.sort_ops import in_top_k, top_k  # noqa: F401,E402  (issue 16: tf.nn aliases)
# issue 21: losses scaled for data-parallel training (tf.distribute)
from .distribute.losses import compute_average_loss, scale_regularization_loss  # noqa: F401,E402
from .ops.ctc_ops import ctc_loss  # noqa: F401,E402  (issue 18: CTC)
from .ops.embedding_sparse_ops import *  # noqa: F403,E402  (issue 18: sparse embedding bags)
from .ops.ctc_decoder_ops import ctc_beam_search_decoder, ctc_greedy_decoder  # noqa: F401,E402
from .ops.ctc_label_ops import collapse_repeated, ctc_unique_labels  # noqa: F401,E402
# issue 18: tf.nn.experimental (TensorFlow 2.21 holds these two there)
from .ops import dropout_stateless_ops as _dropout_stateless  # noqa: E402
import types as _types  # noqa: E402
experimental = _types.SimpleNamespace(stateless_dropout=_dropout_stateless.stateless_dropout,
                                      general_dropout=_dropout_stateless.general_dropout)
from .ops.with_space_to_batch_ops import with_space_to_batch  # noqa: F401,E402  (issue 18)
# issue 18: TensorFlow 2.21's Keras 2 era RNN cell wrappers. nn.py is a namespace module at the
# top of the import layers (tests/test_layers.py), so it may import keras; keras never imports nn.
from .keras.layers.rnn_wrappers import DeviceWrapper as RNNCellDeviceWrapper  # noqa: F401,E402
from .keras.layers.rnn_wrappers import DropoutWrapper as RNNCellDropoutWrapper  # noqa: F401,E402
from .keras.layers.rnn_wrappers import ResidualWrapper as RNNCellResidualWrapper  # noqa: F401,E402
