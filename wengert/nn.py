"""`wengert.nn`: TensorFlow's `tf.nn` namespace (the code is in ops/nn/ and ops/)."""
import types as _types

from .util.lazy import lazy_attributes as _lazy_attributes
# activations and normalization
from .ops.nn.activations import *  # noqa: F403  relu, gelu, softmax, bias_add, crelu, ...
from .ops.misc_math_ops import softsign
from .ops.nn.batch_norm import *  # noqa: F403  moments, batch_normalization, fused_batch_norm
from .ops.nn.lrn import *  # noqa: F403  local_response_normalization, lrn
from .ops.nn.dropout import dropout
from .ops.nn import dropout as _dropout
from .ops.misc_math_ops import zero_fraction
# losses
from .ops.nn.losses import *  # noqa: F403  softmax and sigmoid cross-entropy, l2_loss, ...
from .ops.nn.sampled_losses import *  # noqa: F403  nce_loss, sampled_softmax_loss
from .ops.random.candidate_sampling import *  # noqa: F403  the candidate samplers
from .ops.nn.ctc.loss import ctc_loss
from .ops.nn.ctc.decoders import ctc_beam_search_decoder, ctc_greedy_decoder
from .ops.nn.ctc.labels import collapse_repeated, ctc_unique_labels
# convolution and pooling
from .ops.nn.conv.conv2d import *  # noqa: F403  conv2d, conv2d_transpose, depthwise_conv2d, ...
from .ops.nn.conv.conv3d import *  # noqa: F403  conv3d, conv3d_transpose
from .ops.nn.conv.compositions import *  # noqa: F403  convolution, atrous, separable, ...
from .ops.nn.with_space_to_batch import with_space_to_batch
from .ops.nn.pool import *  # noqa: F403  max_pool2d, avg_pool2d, pool, ...
from .ops.nn.argmax_pool import max_pool_with_argmax
from .ops.nn.fractional_pool import *  # noqa: F403  fractional_max_pool, fractional_avg_pool
from .ops.nn.morphology import *  # noqa: F403  dilation2d, erosion2d
from .ops.space_ops import depth_to_space, space_to_batch, space_to_depth
# embeddings, selection, isotonic regression
from .ops.nn.embedding import *  # noqa: F403  embedding_lookup, the sparse embedding bags
from .ops.sort_ops import approx_max_k, approx_min_k, in_top_k, top_k
from .ops.nn.isotonic import isotonic_regression
# tf.nn.experimental: TensorFlow 2.21 holds the two seeded-by-argument dropouts there
experimental = _types.SimpleNamespace(stateless_dropout=_dropout.stateless_dropout,
                                      general_dropout=_dropout.general_dropout)
# loaded on first use: the losses scaled for data-parallel training (they ask tf.distribute's
# context) and TensorFlow 2.21's Keras 2 era RNN cell wrappers
__getattr__, __dir__ = _lazy_attributes(globals(), {
    "compute_average_loss": ".distribute.losses:compute_average_loss",
    "scale_regularization_loss": ".distribute.losses:scale_regularization_loss",
    "RNNCellDeviceWrapper": ".keras.layers.rnn_wrappers:DeviceWrapper",
    "RNNCellDropoutWrapper": ".keras.layers.rnn_wrappers:DropoutWrapper",
    "RNNCellResidualWrapper": ".keras.layers.rnn_wrappers:ResidualWrapper"})
