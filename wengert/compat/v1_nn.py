"""`wengert.compat.v1.nn`: TensorFlow 1's `tf.nn`, which is `tf.nn` plus the names TensorFlow 2
dropped (the raw backprop functions, `xw_plus_b`, `relu_layer`, the `_v2` spellings)."""
from ..nn import *  # noqa: F401,F403
from ..ops.nn.conv.conv2d import (conv2d_backprop_filter, conv2d_backprop_input,
                                  depthwise_conv2d_backprop_filter as depthwise_conv2d_native_backprop_filter,
                                  depthwise_conv2d_backprop_input as depthwise_conv2d_native_backprop_input)
from ..ops.nn.conv.conv3d import conv3d_backprop_filter, conv3d_backprop_filter_v2
from ..ops.matmul_ops import matmul as _matmul
from ..ops.nn.activations import bias_add as _bias_add, relu as _relu
from ..ops.nn.pool import avg_pool as avg_pool_v2, max_pool as max_pool_v2  # noqa: F401
from ..ops.nn.losses import softmax_cross_entropy_with_logits as \
    softmax_cross_entropy_with_logits_v2  # noqa: F401


def xw_plus_b(x, weights, biases, name=None):
    """matmul(x, weights) + biases (a [batch, in] by [in, out] product plus an [out] bias)."""
    return _bias_add(_matmul(x, weights), biases, name=name)


def relu_layer(x, weights, biases, name=None):
    """relu(matmul(x, weights) + biases)."""
    return _relu(xw_plus_b(x, weights, biases), name=name)
from ..ops.nn.ctc.loss import ctc_loss_v1 as ctc_loss, ctc_loss as ctc_loss_v2  # noqa: F401,E402
from ..ops.nn.ctc.decoders import (ctc_beam_search_decoder as ctc_beam_search_decoder_v2,  # noqa: F401,E402
                                   ctc_beam_search_decoder_v1 as ctc_beam_search_decoder)
