"""Sampled losses for large output vocabularies: `tf.nn.nce_loss` and `tf.nn.sampled_softmax_loss`.

Both score only the true classes and a few sampled ones (by default log_uniform_candidate_sampler
with unique=True over num_classes). With inputs x [batch, dim], the class weights W [classes,
dim] (or a list of shards joined along the classes, TensorFlow 2's "div" partitioning) and
biases b, the logit of class c is x . W[c] + b[c]; the true logits are
[batch, num_true], the sampled ones [batch, num_sampled]. Each logit then has log Q(c)
subtracted, Q(c) the sampler's expected count of c, which turns the sampled objective into an
estimate of the full one. With remove_accidental_hits, a sampled class that is one of the row's
true classes gets -FLT_MAX added (it leaves the softmax).

    nce_loss:             sum over a row of sigmoid cross-entropy, targets 1/num_true for the
                          true logits and 0 for the sampled ones (noise-contrastive estimation)
    sampled_softmax_loss: softmax cross-entropy over [true, sampled] logits, the same targets

The samples and their expected counts get no gradient; the loss differentiates into x, the
looked-up rows of W (an IndexedSlices gradient, as embedding_lookup gives) and b.
"""
import numpy as np

from ...framework import dtypes
from ...framework.tensor import convert_to_tensor
from ..cast_ops import cast
from ..broadcast_ops import ones_like, zeros_like
from ..reshape_ops import reshape
from ..array_ops import concat, stop_gradient
from ..reshape_ops import expand_dims
from ..random.candidate_sampling import compute_accidental_hits, log_uniform_candidate_sampler
from ..creation_ops import shape as shape_of
from .embedding import embedding_lookup
from ..indexing_ops import scatter_nd
from ..matmul_ops import matmul
from .losses import sigmoid_cross_entropy_with_logits, softmax_cross_entropy_with_logits
from ..math_ops import multiply
from ..reduce_ops import reduce_sum
from ..unary_ops import log

__all__ = ["nce_loss", "sampled_softmax_loss"]


def _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                    sampled_values, subtract_log_q, remove_accidental_hits, seed):
    """(logits [batch, num_true + num_sampled], targets of the same shape)."""
    inputs = convert_to_tensor(inputs)
    labels = cast(convert_to_tensor(labels), dtypes.int64)
    if labels.shape.rank == 1:
        labels = reshape(labels, [-1, 1])
    flat = reshape(labels, [-1])
    if sampled_values is None:
        sampled_values = log_uniform_candidate_sampler(labels, num_true, num_sampled, True,
                                                       num_classes, seed=seed)
    sampled, true_expected, sampled_expected = (stop_gradient(v) for v in sampled_values)
    sampled = cast(sampled, dtypes.int64)
    all_ids = concat([flat, sampled], 0)
    all_w = embedding_lookup(weights, all_ids)
    all_b = embedding_lookup(biases, all_ids)
    n_true = shape_of(flat, out_type=dtypes.int64)[0]
    true_w, sampled_w = all_w[:n_true], all_w[n_true:]
    true_b, sampled_b = all_b[:n_true], all_b[n_true:]
    dim = shape_of(true_w, out_type=dtypes.int64)[1:2]
    rows = reshape(true_w, concat([np.array([-1, num_true], np.int64), dim], 0))
    true_logits = reduce_sum(multiply(expand_dims(inputs, 1), rows), -1)
    true_logits = true_logits + reshape(true_b, [-1, num_true])
    sampled_logits = matmul(inputs, sampled_w, transpose_b=True) + sampled_b
    if remove_accidental_hits:
        rows_hit, positions, hit_weights = compute_accidental_hits(labels, sampled, num_true)
        where = concat([reshape(cast(rows_hit, dtypes.int64), [-1, 1]),
                        reshape(positions, [-1, 1])], 1)
        logits_shape = concat([shape_of(labels, out_type=dtypes.int64)[:1],
                               np.array([num_sampled], np.int64)], 0)
        sampled_logits = sampled_logits + scatter_nd(
            where, cast(hit_weights, sampled_logits.dtype), logits_shape)
    if subtract_log_q:
        true_logits = true_logits - log(cast(true_expected, true_logits.dtype))
        sampled_logits = sampled_logits - log(cast(sampled_expected, sampled_logits.dtype))
    logits = concat([true_logits, sampled_logits], 1)
    targets = concat([ones_like(true_logits) / num_true, zeros_like(sampled_logits)], 1)
    return logits, targets


def _check(what, num_sampled, num_classes, num_true):
    if int(num_sampled) < 1 or int(num_classes) < 1 or int(num_true) < 1:
        raise ValueError(f"{what}: num_sampled, num_classes and num_true must be >= 1, got "
                         f"{num_sampled}, {num_classes} and {num_true}.")


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
             sampled_values=None, remove_accidental_hits=False, name="nce_loss"):
    """Noise-contrastive estimation loss per example ([batch]): logistic regression telling the
    true classes from num_sampled sampled ones, each logit corrected by log Q(c)."""
    _check("nce_loss", num_sampled, num_classes, num_true)
    logits, targets = _sampled_logits(weights, biases, labels, inputs, int(num_sampled),
                                      int(num_classes), int(num_true), sampled_values, True,
                                      remove_accidental_hits, None)
    losses = sigmoid_cross_entropy_with_logits(labels=targets, logits=logits)
    return reduce_sum(losses, 1, name=name)


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                         sampled_values=None, remove_accidental_hits=True, seed=None,
                         name="sampled_softmax_loss"):
    """Softmax cross-entropy per example ([batch]) over the true classes and num_sampled
    sampled ones, each logit corrected by log Q(c) (a training-time estimate of the full
    softmax loss)."""
    _check("sampled_softmax_loss", num_sampled, num_classes, num_true)
    logits, targets = _sampled_logits(weights, biases, labels, inputs, int(num_sampled),
                                      int(num_classes), int(num_true), sampled_values, True,
                                      remove_accidental_hits, seed)
    return softmax_cross_entropy_with_logits(labels=stop_gradient(targets), logits=logits,
                                             name=name)
