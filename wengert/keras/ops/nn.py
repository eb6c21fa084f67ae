"""`keras.ops.nn`: Keras 3's neural-network ops (the code is in the modules named below)."""
from . import activations, attention, convolution, ctc, encoding, losses, normalization, pooling
from .activations import *  # noqa: F403  relu, gelu, softmax, sparsemax, hard_silu, ...
from .attention import dot_product_attention
from .convolution import conv, conv_transpose, depthwise_conv, separable_conv
from .ctc import ctc_decode, ctc_loss
from .encoding import multi_hot, one_hot, polar
from .losses import *  # noqa: F403  the cross-entropies and psnr
from .normalization import *  # noqa: F403  moments, batch/layer/rms normalization, normalize
from .pooling import *  # noqa: F403  max/average/adaptive pools, fold, unfold, depth_to_space

__all__ = (activations.__all__ + attention.__all__ + convolution.__all__ + ctc.__all__
           + encoding.__all__ + losses.__all__ + normalization.__all__ + pooling.__all__)
