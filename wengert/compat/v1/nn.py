"""`wengert.compat.v1.nn`: TensorFlow 1's `tf.nn`, which is `tf.nn` plus the names TensorFlow 2
dropped (the raw backprop functions, `xw_plus_b`, `relu_layer`, the `_v2` spellings), and the
recurrent networks of TensorFlow 1: `rnn_cell`, `dynamic_rnn`, `static_rnn` and their
bidirectional forms, `raw_rnn`. The functions whose signatures TensorFlow 1 had otherwise take
them (`dropout(x, keep_prob)`, `softmax(logits, dim=)`, `conv2d(input, filter, ...)`,
`max_pool(value, ...)`, `moments(x, axes, keep_dims=)`, `embedding_lookup(params, ids,
partition_strategy)`, ...: tf1/nn_v1.py, tf1/conv_v1.py, tf1/embedding_v1.py)."""
from ...nn import *  # noqa: F403
from ...util.lazy import lazy_attributes as _lazy_attributes
from ...ops.nn.activations import relu_layer, xw_plus_b
from ...ops.nn.conv.conv2d import (conv2d_backprop_filter, conv2d_backprop_input,
                                   depthwise_conv2d_backprop_filter as
                                   depthwise_conv2d_native_backprop_filter,
                                   depthwise_conv2d_backprop_input as
                                   depthwise_conv2d_native_backprop_input)
from ...ops.nn.conv.conv3d import (conv3d_backprop_filter_v2,
                                   conv3d_backprop_filter_v2 as conv3d_backprop_filter)
from ...ops.nn.ctc.decoders import ctc_beam_search_decoder as ctc_beam_search_decoder_v2
from ...ops.nn.ctc.decoders import ctc_beam_search_decoder_v1 as ctc_beam_search_decoder
from ...ops.nn.ctc.loss import ctc_loss as ctc_loss_v2, ctc_loss_v1 as ctc_loss
from ...ops.nn.pool import avg_pool as avg_pool_v2, max_pool as max_pool_v2
from ...tf1.conv_v1 import (avg_pool, avg_pool2d, conv1d, conv2d, conv2d_transpose, conv3d,
                            conv3d_transpose, convolution, depthwise_conv2d, dilation2d,
                            erosion2d, fractional_avg_pool, fractional_max_pool,
                            fused_batch_norm, max_pool, max_pool_with_argmax, pool,
                            separable_conv2d)
from ...tf1.embedding_v1 import (embedding_lookup, embedding_lookup_sparse, nce_loss,
                                 safe_embedding_lookup_sparse, sampled_softmax_loss)
from ...tf1.nn_v1 import (batch_norm_with_global_normalization, crelu, depth_to_space, dropout, in_top_k, log_softmax, moments,
                          softmax, softmax_cross_entropy_with_logits,
                          softmax_cross_entropy_with_logits_v2, space_to_depth,
                          sufficient_statistics, weighted_cross_entropy_with_logits,
                          weighted_moments)
from ...tf1.arrays_v1 import space_to_batch
from ...tf1.dynamic_rnn import bidirectional_dynamic_rnn, dynamic_rnn
from ...tf1.raw_rnn import raw_rnn
from ...tf1.static_rnn import static_bidirectional_rnn, static_rnn, static_state_saving_rnn

__getattr__, __dir__ = _lazy_attributes(globals(), {"rnn_cell": ".nn_rnn_cell"},
                                       fallback="wengert.nn")  # tf.nn's lazy names
