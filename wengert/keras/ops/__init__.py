"""`keras.ops`: Keras 3's backend-independent operations over wengert tensors.

    from wengert.keras import ops
    y = ops.mean(ops.square(x - ops.mean(x, axis=0)), axis=0)

The NumPy-style functions (`ops.add`, `ops.mean`, `ops.arange`, ...) live in `ops.numpy` and are
also here at the top level, as in Keras 3; `ops.nn`, `ops.linalg`, `ops.image` and the core and
math functions (`ops.cond`, `ops.scan`, `ops.top_k`, ...) likewise. All apply Keras 3's dtype
promotion (`ops.dtypes.result_type`, JAX-like: int32 + float32 is float32, Python scalars are
weakly typed) before they call wengert's ops, which keep TensorFlow's no-promotion rule.
"""
from . import control_flow, core, dtypes, image, linalg, math, nn, numpy, spectral
from .numpy import *  # noqa: F403
from .control_flow import *  # noqa: F403  cond, while_loop, scan, associative_scan, ...
from .core import *  # noqa: F403  cast, shape, slice_update, scatter, custom_gradient, ...
from .math import *  # noqa: F403  segment_*, top_k, logsumexp, erf, cdist, ...
from .spectral import *  # noqa: F403  fft, rfft, stft, istft, ...
from .nn import *  # noqa: F403  relu, conv, max_pool, one_hot, ctc_loss, ...
from .linalg import *  # noqa: F403  cholesky, det, qr, solve, svd, norm, jvp, ...
from .rearrange import rearrange

__all__ = (["numpy", "nn", "linalg", "image", "rearrange"] + list(numpy.__all__)
           + control_flow.__all__ + core.__all__ + math.__all__ + spectral.__all__ + nn.__all__
           + linalg.__all__)
