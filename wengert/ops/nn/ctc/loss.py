"""CTC loss (Graves et al. 2006): `tf.nn.ctc_loss` and TensorFlow 1's form, on one `CTCLoss` op.

Given per-frame logits x[t, c] (t < T, the example's logit_length; class C - 1 is the blank in the
op) and a label sequence l of length L, the softmax y[t] = softmax(x[t]) gives each path
pi in classes^T the probability prod_t y[t, pi_t]. A path reads as l when merging repeated classes
and then dropping blanks gives l; the loss is -log p(l | x), the sum over all such paths.

The sum is the forward-backward recursion over the extended label l' = (blank, l1, blank, l2, ...,
blank) of S = 2L + 1 states, in log space. alpha[t, s] (paths of frames 0..t ending in state s,
emission at t included) and beta[t, s] (the rest of the frames after t, from state s):

    alpha[0, 0] = log y[0, blank], alpha[0, 1] = log y[0, l1]
    alpha[t, s] = log y[t, l'_s] + logsumexp(alpha[t-1, s], alpha[t-1, s-1], alpha[t-1, s-2])
    beta[T-1, S-1] = beta[T-1, S-2] = 0
    beta[t, s]  = logsumexp over s' in {s, s+1, s+2} of beta[t+1, s'] + log y[t+1, l'_s']

where the s-2 -> s skip is allowed only into a label that differs from the one two back (between
two equal labels the blank is needed). log p(l | x) = logsumexp_s(alpha[t, s] + beta[t, s]) for
every t. With ctc_merge_repeated=False a label state has no self-loop (each frame of a label is a
new label) and may skip from an equal label; preprocess_collapse_repeated merges repeats in l
first. The gradient with respect to the logits (Graves' eq. 7.34, what TensorFlow's kernel returns
as its second output) is

    d(-log p)/d x[t, c] = y[t, c] - sum_{s: l'_s = c} exp(alpha[t, s] + beta[t, s] - log p),

zero at frames t >= T. The op's gradient rule scales that saved output by the incoming gradient,
as TensorFlow's does; a second derivative (a gradient reaching that output) raises LookupError,
as TensorFlow's prevent_gradient does. TensorFlow's op takes its labels as a sparse tensor's
indices and values with the blank last; tf.nn.ctc_loss (blank 0 by default for dense labels) moves
its blank to the end and renumbers the labels, so that move is differentiated by concat's rule.
"""
import numpy as np

from ....framework import dtypes
from ....framework.errors import InvalidArgumentError
from ....framework.execute import execute
from ....framework.registry import defop
from ....framework.sparse_tensor import SparseTensor
from ....framework.tensor import array_of, convert_to_tensor, is_eager_tensor
from ....framework.tensor_shape import TensorShape
from ... import shape_rules
from ...broadcast_ops import ZEROS_LIKE, is_zero_gradient
from ...array_ops import concat, where
from ...reshape_ops import expand_dims, transpose
from ...creation_ops import shape as shape_of
from ...indexing_ops import gather_nd
from ...math_ops import cast, less
from ...reduce_ops import reduce_sum
from ...shape_ops import sequence_mask

__all__ = ["ctc_loss", "ctc_loss_v1"]


# -- kernel ---------------------------------------------------------------------------------------
def check_sequence_length(sequence_length, steps, batch, op_type):
    """Raise unless sequence_length (an array) holds one length in [0, steps] per example (the
    loss's and the decoders' frames per example)."""
    if sequence_length.shape != (batch,):
        raise InvalidArgumentError(f"{op_type}: sequence_length must be a vector of the batch "
                                   f"size {batch}, got shape {sequence_length.shape}.")
    if (sequence_length < 0).any() or (sequence_length > steps).any():
        raise InvalidArgumentError(f"{op_type}: sequence lengths must lie in [0, {steps}] (the "
                                   f"number of frames), got {sequence_length.tolist()}.")


def _label_sequences(indices, values, batch, num_classes, collapse):
    """Each example's labels in time order: [values[j] for indices[j] = (b, t), t ascending]."""
    if indices.ndim != 2 or indices.shape[1] != 2 or values.shape != indices.shape[:1]:
        raise InvalidArgumentError(f"CTCLoss: labels must be a rank-2 SparseTensor: indices "
                                   f"[N, 2] and values [N], got shapes {indices.shape} and "
                                   f"{values.shape}.")
    if len(indices) and (indices[:, 0].min() < 0 or indices[:, 0].max() >= batch):
        raise InvalidArgumentError(f"CTCLoss: label batch indices must lie in [0, {batch}), got "
                                   f"{indices[:, 0].min()}..{indices[:, 0].max()}.")
    bad = (values < 0) | (values >= num_classes - 1)
    if bad.any():
        raise InvalidArgumentError(
            f"CTCLoss: labels must lie in [0, {num_classes - 1}) (class {num_classes - 1} is the "
            f"blank), got {values[bad][0]}.")
    order = np.lexsort((indices[:, 1], indices[:, 0]))
    rows, labels = indices[order, 0], values[order].astype(np.intp)
    seqs = [labels[rows == b] for b in range(batch)]
    if collapse:
        seqs = [s[np.concatenate([[True], s[1:] != s[:-1]])] if len(s) else s for s in seqs]
    return seqs


def _log_softmax(x):
    shifted = x - x.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def _transitions(lprime, blank, merge):
    """Which states may stay (self-loop) and which may be entered by a skip from s - 2."""
    stay = np.ones(len(lprime), bool) if merge else lprime == blank
    skip = np.zeros(len(lprime), bool)
    skip[2:] = (lprime[2:] != blank) & (~merge | (lprime[2:] != lprime[:-2]))
    return stay, skip


def _shift(v, k):
    return np.concatenate([np.full(k, -np.inf), v[:-k]]) if k < len(v) else np.full(len(v), -np.inf)


def _unshift(v, k):
    return np.concatenate([v[k:], np.full(k, -np.inf)]) if k < len(v) else np.full(len(v), -np.inf)


def ctc_alpha_beta(logp, label, blank, merge=True):
    """log alpha and log beta [T, S] of one example (logp: [T, C] log-softmax, label: [L])."""
    lprime = np.full(2 * len(label) + 1, blank, np.intp)
    lprime[1::2] = label
    emit = logp[:, lprime]
    stay, skip = _transitions(lprime, blank, merge)
    steps, size = emit.shape
    alpha = np.full((steps, size), -np.inf)
    alpha[0, :2] = emit[0, :2]
    for t in range(1, steps):
        a = alpha[t - 1]
        total = np.logaddexp(np.where(stay, a, -np.inf), _shift(a, 1))
        alpha[t] = np.logaddexp(total, np.where(skip, _shift(a, 2), -np.inf)) + emit[t]
    skip_from = np.zeros(size, bool)   # s may skip to s + 2
    skip_from[:-2] = skip[2:]
    beta = np.full((steps, size), -np.inf)
    beta[-1, max(size - 2, 0):] = 0.0
    for t in range(steps - 2, -1, -1):
        n = beta[t + 1] + emit[t + 1]
        total = np.logaddexp(np.where(stay, n, -np.inf), _unshift(n, 1))
        beta[t] = np.logaddexp(total, np.where(skip_from, _unshift(n, 2), -np.inf))
    return lprime, alpha, beta


def _one_example(logp, label, blank, merge):
    """(loss, d loss / d logits [T, C]) of one example of T >= 1 frames."""
    lprime, alpha, beta = ctc_alpha_beta(logp, label, blank, merge)
    with np.errstate(invalid="ignore"):
        log_p = np.logaddexp.reduce(alpha[0] + beta[0])
    y = np.exp(logp)
    if not np.isfinite(log_p):   # no path reads as the label: TensorFlow's loss and gradient
        return np.inf, y
    occupancy = np.exp(alpha + beta - log_p)                  # [T, S]
    onehot = np.zeros((len(lprime), logp.shape[1]))
    onehot[np.arange(len(lprime)), lprime] = 1.0
    return -log_p, y - occupancy @ onehot


def _ctc_kernel(inputs, labels_indices, labels_values, sequence_length,
                preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                ignore_longer_outputs_than_inputs=False):
    steps, batch, classes = inputs.shape
    check_sequence_length(sequence_length, steps, batch, "CTCLoss")
    seqs = _label_sequences(labels_indices, labels_values, batch, classes,
                            preprocess_collapse_repeated)
    logp = _log_softmax(inputs.astype(np.float64))
    loss, grad = np.zeros(batch), np.zeros((steps, batch, classes))
    for b, label in enumerate(seqs):
        frames = int(sequence_length[b])
        if len(label) > frames:
            if ignore_longer_outputs_than_inputs:
                continue
            raise InvalidArgumentError(
                f"CTCLoss: not enough time for target transition sequence (required: "
                f"{len(label)}, available: {frames}) in batch {b}; pass "
                "ignore_longer_outputs_than_inputs=True to give such examples zero loss.")
        if frames == 0:
            continue
        loss[b], grad[:frames, b] = _one_example(logp[:frames, b], label, classes - 1,
                                                 ctc_merge_repeated)
    return loss.astype(inputs.dtype), grad.astype(inputs.dtype)


# -- declaration ----------------------------------------------------------------------------------
def _ctc_rule(inputs, labels_indices, labels_values, sequence_length, **attrs):
    shape_rules.check_float(inputs, "inputs")
    if inputs.shape.rank not in (None, 3):
        raise InvalidArgumentError(f"CTCLoss: inputs must be [max_time, batch, num_classes], got "
                                   f"shape {inputs.shape}.")
    for t, what in ((labels_indices, "labels_indices"), (labels_values, "labels_values"),
                    (sequence_length, "sequence_length")):
        if not t.dtype.is_integer:
            raise InvalidArgumentError(f"CTCLoss: {what} must be integers, got {t.dtype.name}.")
    batch = inputs.shape[1] if inputs.shape.rank == 3 else None
    return [(TensorShape([batch]), inputs.dtype), (inputs.shape, inputs.dtype)]


def _certainly_zero(g):
    if is_zero_gradient(g):
        return True
    if is_eager_tensor(g):
        return not array_of(g).any()
    return getattr(g, "op", None) is not None and g.op.op_def is ZEROS_LIKE


def _ctc_grad(op, grad_loss, grad_gradient):
    """d logits = g[b] * gradient[t, b, c]: the kernel's saved gradient, scaled per example."""
    if not _certainly_zero(grad_gradient):
        raise LookupError("ctc_loss: the second derivative of CTCLoss is not available (its "
                          "gradient is a fused output of the forward kernel, as in TensorFlow).")
    scale = expand_dims(expand_dims(grad_loss, -1), -3)   # [B] -> [1, B, 1] (batched: [n, 1, B, 1])
    return scale * op.outputs[1], None, None, None


def _ctc_jvp(primals, tangents, outputs, **attrs):
    """d loss[b] = sum_{t, c} gradient[t, b, c] dx[t, b, c]; the gradient output's own tangent
    (a second derivative) is not computed."""
    dx = tangents[0]
    return (None if dx is None else reduce_sum(outputs[1] * dx, [0, 2])), None


CTC_LOSS = defop("CTCLoss", _ctc_kernel, shape=_ctc_rule, grad=_ctc_grad, jvp=_ctc_jvp,
                 num_outputs=2, batch="safe",
                 raw=lambda inputs, labels_indices, labels_values, sequence_length,
                 preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                 ignore_longer_outputs_than_inputs=False, name=None: execute(
                     CTC_LOSS, tuple(convert_to_tensor(t) for t in (
                         inputs, labels_indices, labels_values, sequence_length)),
                     {"preprocess_collapse_repeated": bool(preprocess_collapse_repeated),
                      "ctc_merge_repeated": bool(ctc_merge_repeated),
                      "ignore_longer_outputs_than_inputs":
                      bool(ignore_longer_outputs_than_inputs)}, name))


def _ctc_op(logits, labels, sequence_length, time_major=True, name=None, **attrs):
    logits = convert_to_tensor(logits)
    if not logits.dtype.is_floating:
        raise TypeError(f"ctc_loss: logits must be float32 or float64, got {logits.dtype.name} "
                        f"(shape {logits.shape}); use tf.cast(logits, tf.float32).")
    if logits.shape.rank not in (None, 3):
        raise ValueError(f"ctc_loss: logits must have rank 3 ([frames, batch, classes] when "
                         f"time-major, else [batch, frames, classes]), got shape {logits.shape}.")
    if not time_major:
        logits = transpose(logits, [1, 0, 2])
    sequence_length = cast(convert_to_tensor(sequence_length), dtypes.int32)
    values = cast(labels.values, dtypes.int32)
    return execute(CTC_LOSS, (logits, labels.indices, values, sequence_length), attrs, name)[0]


def _blank_last(logits, labels, blank):
    """Moves class `blank` (an int, negative counting from the end) of the logits to the end and
    renumbers the labels above it (the number of classes may be unknown while building)."""
    if blank == -1:
        return logits, labels
    after = logits[:, :, blank + 1:] if blank != -2 else logits[:, :, -1:]
    logits = concat([logits[:, :, :blank], after, logits[:, :, blank:blank + 1 or None]], 2)
    values = labels.values
    if blank < 0:
        blank = cast(shape_of(logits)[2], values.dtype) + blank
    values = where(less(values, cast(blank, values.dtype)), values, values - 1)
    return logits, SparseTensor(labels.indices, values, labels.dense_shape)


def _dense_to_sparse(labels, label_length):
    labels = convert_to_tensor(labels)
    if labels.shape.rank not in (None, 2) or not labels.dtype.is_integer:
        raise ValueError(f"ctc_loss: dense labels must be an integer [batch, max_label_length] "
                         f"tensor, got {labels.dtype.name} of shape {labels.shape}.")
    if label_length is None:
        raise ValueError("ctc_loss: label_length is needed with dense labels (one length per "
                         "example); pass a SparseTensor to give labels without it.")
    dense_shape = shape_of(labels, out_type=dtypes.int64)
    width = labels.shape[1] if labels.shape.rank == 2 and labels.shape[1] is not None else \
        dense_shape[1]
    indices = where(sequence_mask(label_length, maxlen=width))
    return SparseTensor(indices, gather_nd(labels, indices), dense_shape)


def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None,
             blank_index=None, name=None):
    """TensorFlow 2's CTC loss: one negative log-likelihood -log p(labels | logits) per example.

    labels: int [batch, max_label_length] zero-padded, with label_length [batch]; or a
    SparseTensor (label_length None, blank_index required). logits: [frames, batch, classes]
    (or [batch, frames, classes] with logits_time_major=False), unnormalized. logit_length:
    [batch] frames per example. blank_index: the blank class (default 0 for dense labels; negative
    counts from the end). `unique` (a TPU speed-up in TensorFlow) is accepted and ignored.
    A label longer than its logit_length raises InvalidArgumentError, as TensorFlow's sparse path
    does (its dense path returns a large finite loss, about 700, instead); a label that fits but
    whose repeats need more frames gets loss inf and gradient softmax(logits), TensorFlow's op's.
    """
    del unique
    logits = convert_to_tensor(logits)
    if logits.shape.rank not in (None, 3):
        raise ValueError(f"ctc_loss: logits must have rank 3 ([frames, batch, classes] when "
                         f"time-major, else [batch, frames, classes]), got shape {logits.shape}.")
    if isinstance(labels, SparseTensor):
        if blank_index is None:
            raise ValueError("ctc_loss: blank_index must be provided when labels is a "
                             "SparseTensor.")
    else:
        labels = _dense_to_sparse(labels, label_length)
        blank_index = 0 if blank_index is None else blank_index
    blank = int(blank_index)
    classes = logits.shape[2] if logits.shape.rank == 3 else None
    if classes is not None:
        if not -classes <= blank < classes:
            raise ValueError(f"ctc_loss: blank_index {blank_index} is outside [-{classes}, "
                             f"{classes}) for logits of {classes} classes.")
        blank = blank - classes if blank >= 0 else blank
    if not logits_time_major:
        logits = transpose(logits, [1, 0, 2])
    logits, labels = _blank_last(logits, labels, blank)
    return _ctc_op(logits, labels, logit_length, name=name)


def ctc_loss_v1(labels, inputs=None, sequence_length=None, preprocess_collapse_repeated=False,
                ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False,
                time_major=True, logits=None):
    """TensorFlow 1's CTC loss (`tf.compat.v1.nn.ctc_loss`): labels a SparseTensor, the blank
    the last class, and the op's options (see the module docstring)."""
    if not isinstance(labels, SparseTensor):
        raise TypeError(f"ctc_loss: expected labels to be a SparseTensor, got "
                        f"{type(labels).__name__}.")
    if inputs is None:
        inputs = logits
    elif logits is not None:
        raise ValueError("ctc_loss: give inputs or logits (the same argument), not both.")
    return _ctc_op(inputs, labels, sequence_length, time_major,
                   preprocess_collapse_repeated=bool(preprocess_collapse_repeated),
                   ctc_merge_repeated=bool(ctc_merge_repeated),
                   ignore_longer_outputs_than_inputs=bool(ignore_longer_outputs_than_inputs))
