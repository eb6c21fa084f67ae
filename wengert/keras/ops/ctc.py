"""Keras 3's connectionist temporal classification of `keras.ops.nn` (`ctc_loss`,
`ctc_decode`) over wengert's tf.nn CTC ops, with Keras's batch-major layout.

ctc_loss(target, output, target_length, output_length, mask_index) is -log p(target | output)
per example, output holding [batch, time, classes] logits and `mask_index` the blank class; it
runs in float32 (float64 inputs too, as Keras's TensorFlow backend does) and returns the result
type of output and float32. ctc_decode returns (decoded [top_paths, batch, time] int32 classes
padded with -1, scores): greedy decoding gives the negated sum of each frame's best logit per
example [batch, 1]; beam search moves the blank class last (TensorFlow's beam search expects
it there), decodes, then shifts the classes above the blank back up by one, and its scores are
the top paths' log probabilities [batch, top_paths].
"""
from ...ops.array_ops import concat, stack, where
from ...ops.cast_ops import cast
from ...ops.creation_ops import shape as dynamic_shape
from ...ops.nn.ctc.decoders import ctc_beam_search_decoder, ctc_greedy_decoder
from ...ops.nn.ctc.loss import ctc_loss as _ctc_loss
from ...ops.reshape_ops import transpose
from ...ops.sparse.conversions import to_dense
from ...framework.sparse_tensor import SparseTensor
from .core import convert_to_tensor
from .dtypes import result_type

__all__ = ["ctc_loss", "ctc_decode"]


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """The CTC negative log-likelihood of each integer target sequence under the logits."""
    target = cast(convert_to_tensor(target), "int32")
    output = convert_to_tensor(output)
    dtype = result_type(output.dtype.name, "float32")
    compute = "float32" if dtype == "float64" else dtype
    loss = _ctc_loss(labels=target, logits=cast(output, compute), label_length=target_length,
                     logit_length=output_length, logits_time_major=False,
                     blank_index=mask_index)
    return cast(loss, dtype)


def _dense(decoded, num_samples, num_steps):
    out = [to_dense(SparseTensor(d.indices, d.values, stack([cast(num_samples, "int64"),
                                                              cast(num_steps, "int64")])),
                    default_value=-1) for d in decoded]
    return cast(stack(out, axis=0), "int32")


def ctc_decode(inputs, sequence_lengths, strategy="greedy", beam_width=100, top_paths=1,
               merge_repeated=True, mask_index=0):
    """Decoded class sequences (and their scores) of [batch, time, classes] logits."""
    inputs = convert_to_tensor(inputs)
    sizes = dynamic_shape(inputs)
    time_major = transpose(inputs, [1, 0, 2])
    time_major = cast(time_major, result_type(inputs.dtype.name, "float32"))
    lengths = convert_to_tensor(sequence_lengths, "int32")
    if strategy == "greedy":
        decoded, scores = ctc_greedy_decoder(time_major, lengths, merge_repeated=merge_repeated,
                                             blank_index=mask_index)
        return _dense(decoded, sizes[0], sizes[1]), scores
    if strategy != "beam_search":
        raise ValueError(f"ctc_decode: strategy must be 'greedy' or 'beam_search'; got "
                         f"{strategy!r}.")
    if mask_index is not None:
        time_major = concat([time_major[..., :mask_index], time_major[..., mask_index + 1:],
                             time_major[..., mask_index:mask_index + 1]], axis=-1)
    decoded, scores = ctc_beam_search_decoder(time_major, lengths, beam_width=beam_width,
                                              top_paths=top_paths)
    dense = _dense(decoded, sizes[0], sizes[1])
    if mask_index is not None:
        index = mask_index + inputs.shape[-1] if mask_index < 0 else mask_index
        dense = where(dense >= index, dense + 1, dense)
    return dense, scores
