"""TensorFlow 1's `tf.nn` activations, losses, moments and dropout, as `tf.compat.v1.nn` has them:
TensorFlow 2's functions under their TF 1 signatures, with the old argument names taken beside
the new ones (either name, never both: tf1/renamed_arguments.py).

    dropout(x, keep_prob, noise_shape, seed, name, rate)   rate = 1 - keep_prob; keep_prob=1
                                                           (a number) returns x undropped.
        keep_prob is often a placeholder, fed 0.5 to train and 1.0 to evaluate: a rate known
        only when the graph runs is composed of ops as TensorFlow's is,
        where(uniform >= rate, x / (1 - rate), 0) (nn.experimental.general_dropout with
        seeded uniform draws); one known when the op is made is the fused Dropout op.
    softmax / log_softmax(logits, axis, name, dim)         the class axis (default -1)
    softmax_cross_entropy_with_logits(labels, logits, dim=-1, name, axis)
        TF 1's loss: no gradient flows into `labels` (stop_gradient), as in TensorFlow
    softmax_cross_entropy_with_logits_v2(labels, logits, axis, name, dim)  gradient into labels
    weighted_cross_entropy_with_logits(labels, logits, pos_weight, name, targets)
    moments(x, axes, shift, name, keep_dims, keepdims)     mean and variance over `axes`
    sufficient_statistics(x, axes, shift, keep_dims, name, keepdims)
    weighted_moments(x, axes, frequency_weights, name, keep_dims, keepdims)
    in_top_k(predictions, targets, k, name)                TF 1's order of the arguments
    crelu(features, name, axis), depth_to_space / space_to_depth(input, block_size, name,
        data_format)
    batch_norm_with_global_normalization(t, m, v, beta, gamma, variance_epsilon,
        scale_after_normalization, name, input, mean, variance)   t, m, v: TF 1's names

The values are TensorFlow 2's (ops/nn/)."""
from ..framework.context import op_scope
from ..framework.tensor import Tensor, convert_to_tensor
from ..ops.creation_ops import constant_value
from ..ops.random import seeded
from ..ops.array_ops import stop_gradient
from ..ops.nn import activations, batch_norm, losses
from ..ops.nn import dropout as _dropout
from ..ops.space_ops import depth_to_space as _depth_to_space, space_to_depth as _space_to_depth
from ..ops.sort_ops import in_top_k as _in_top_k
from .renamed_arguments import either

__all__ = ["batch_norm_with_global_normalization", "crelu", "depth_to_space", "dropout", "in_top_k", "log_softmax", "moments", "softmax",
           "softmax_cross_entropy_with_logits", "softmax_cross_entropy_with_logits_v2",
           "space_to_depth", "sufficient_statistics",
           "weighted_cross_entropy_with_logits", "weighted_moments"]


def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """Each element of x zeroed with probability 1 - keep_prob (or `rate`), the rest scaled by
    1 / keep_prob."""
    try:
        rate_from_keep_prob = None if keep_prob is None else 1. - keep_prob
    except TypeError:
        raise ValueError(f"`keep_prob` must be a floating point number or Tensor. Received: "
                         f"keep_prob={keep_prob}") from None
    rate = either("rate", rate, "keep_prob", rate_from_keep_prob)
    if rate is None:
        raise ValueError(f"`rate` must be provided. Received: rate={rate}")
    if _known(rate):
        return _dropout.dropout(x, rate, noise_shape=noise_shape, seed=seed, name=name)

    def uniform(shape, dtype):
        return seeded.uniform(shape, dtype=dtype, seed=seed)
    with op_scope(name, "dropout") as scope:
        return _dropout.general_dropout(x, rate, uniform, noise_shape, name=scope)


def _known(rate):
    """Whether the dropout rate is known now (a number, or a constant tensor)."""
    if not (isinstance(rate, Tensor) or hasattr(rate, "_as_tensor")):
        return True
    return constant_value(convert_to_tensor(rate)) is not None


def softmax(logits, axis=None, name=None, dim=None):
    """exp(logits) / sum(exp(logits)) along `axis` (or `dim`; the last axis by default)."""
    axis = either("axis", axis, "dim", dim)
    return activations.softmax(logits, -1 if axis is None else axis, name)


def log_softmax(logits, axis=None, name=None, dim=None):
    """logits - log(sum(exp(logits))) along `axis` (or `dim`; the last axis by default)."""
    axis = either("axis", axis, "dim", dim)
    return activations.log_softmax(logits, -1 if axis is None else axis, name)


def softmax_cross_entropy_with_logits(labels=None, logits=None, dim=-1, name=None, axis=None):
    """TF 1's softmax cross entropy: -sum(labels * log_softmax(logits)) along `dim` (or `axis`:
    giving `axis` with the default dim is TensorFlow's error too); no gradient into labels."""
    dim = either("axis", axis, "dim", dim)
    _both_given("softmax_cross_entropy_with_logits", labels, logits)
    with op_scope(name, "softmax_cross_entropy_with_logits_sg") as scope:
        labels = stop_gradient(labels, name="labels_stop_gradient")
    return losses.softmax_cross_entropy_with_logits(labels, logits, axis=dim, name=scope)


def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
    """Softmax cross entropy along `axis` (or `dim`; the last by default), with gradients into
    both labels and logits."""
    axis = either("axis", axis, "dim", dim)
    return losses.softmax_cross_entropy_with_logits(labels, logits, -1 if axis is None else axis,
                                                    name)


def _both_given(fn, labels, logits):
    if labels is None or logits is None:
        raise ValueError(f"Both `labels` and `logits` must be provided for {fn}Received: "
                         f"labels={labels} and logits={logits}")


def weighted_cross_entropy_with_logits(labels=None, logits=None, pos_weight=None, name=None,
                                       targets=None):
    """Sigmoid cross entropy with the positive term weighted by pos_weight (labels also as
    `targets`)."""
    labels = either("labels", labels, "targets", targets)
    return losses.weighted_cross_entropy_with_logits(labels, logits, pos_weight, name)


def _keepdims(keepdims, keep_dims):
    return bool(either("keepdims", keepdims, "keep_dims", keep_dims))


def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    """(mean, variance) of x over `axes`."""
    return batch_norm.moments(x, axes, shift, _keepdims(keepdims, keep_dims), name)


def sufficient_statistics(x, axes, shift=None, keep_dims=None, name=None, keepdims=None):
    """(count, sum, sum of squares, shift) of x over `axes`, shifted by `shift` if given."""
    return batch_norm.sufficient_statistics(x, axes, shift, _keepdims(keepdims, keep_dims), name)


def weighted_moments(x, axes, frequency_weights, name=None, keep_dims=None, keepdims=None):
    """The frequency-weighted (mean, variance) of x over `axes`."""
    return batch_norm.weighted_moments(x, axes, frequency_weights,
                                       _keepdims(keepdims, keep_dims), name)


def in_top_k(predictions, targets, k, name=None):
    """Whether each target is among the k largest predictions of its row (TF 1's order)."""
    return _in_top_k(targets, predictions, k, name)


def crelu(features, name=None, axis=-1):
    """concat([relu(features), relu(-features)], axis)."""
    return activations.crelu(features, axis, name)


def depth_to_space(input, block_size, name=None, data_format="NHWC"):  # noqa: A002 (TF's name)
    """Blocks of depth moved into spatial blocks of block_size x block_size."""
    return _depth_to_space(input, block_size, data_format, name)


def space_to_depth(input, block_size, name=None, data_format="NHWC"):  # noqa: A002 (TF's name)
    """Spatial blocks of block_size x block_size moved into depth."""
    return _space_to_depth(input, block_size, data_format, name)



def batch_norm_with_global_normalization(t=None, m=None, v=None, beta=None, gamma=None,
                                         variance_epsilon=None,
                                         scale_after_normalization=None, name=None,
                                         input=None, mean=None,  # noqa: A002 (TF's name)
                                         variance=None):
    """(t - m) / sqrt(v + variance_epsilon) * gamma (if scale_after_normalization) + beta,
    with `input`, `mean`, `variance` the newer names of t, m, v."""
    return batch_norm.batch_norm_with_global_normalization(
        either("input", input, "t", t), either("mean", mean, "m", m),
        either("variance", variance, "v", v), beta, gamma, variance_epsilon,
        scale_after_normalization, name)
