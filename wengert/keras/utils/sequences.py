"""`keras.utils.pad_sequences`: a list of sequences as one rectangular array.

Every sequence is padded (with value, at the front for padding="pre") or cut (at the front for
truncating="pre") to maxlen (default: the longest), giving a NumPy array of dtype.
"""
import numpy as np

__all__ = ["pad_sequences"]


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre",
                  value=0.0):
    """A [len(sequences), maxlen, ...] array of the sequences, padded or cut to maxlen."""
    if not hasattr(sequences, "__len__"):
        raise ValueError("pad_sequences: `sequences` must be iterable.")
    lengths, sample_shape = [], None
    for i, seq in enumerate(sequences):
        if not hasattr(seq, "__len__"):
            raise ValueError("pad_sequences: `sequences` must be a list of iterables. Found "
                             f"non-iterable: {seq!r} at index {i}.")
        lengths.append(len(seq))
        if sample_shape is None and len(seq):
            sample_shape = np.asarray(seq).shape[1:]
    sample_shape = sample_shape or ()
    maxlen = int(np.max(lengths)) if maxlen is None and lengths else (maxlen or 0)
    is_str = dtype is not object and np.issubdtype(np.dtype(dtype), np.str_)
    if isinstance(value, str) and dtype is not object and not is_str:
        raise ValueError(f"pad_sequences: `dtype` {dtype} is not compatible with `value`'s type "
                         f"{type(value)}; use dtype=object for variable length strings.")
    out = np.full((len(sequences), maxlen) + tuple(sample_shape), value, dtype=dtype)
    for i, seq in enumerate(sequences):
        if not len(seq):
            continue
        if truncating not in ("pre", "post"):
            raise ValueError(f'pad_sequences: truncating type "{truncating}" not understood; '
                             'use "pre" or "post".')
        cut = np.asarray(seq[-maxlen:] if truncating == "pre" else seq[:maxlen], dtype=dtype)
        if cut.shape[1:] != tuple(sample_shape):
            raise ValueError(f"pad_sequences: shape of sample {cut.shape[1:]} of sequence at "
                             f"position {i} differs from the expected {tuple(sample_shape)}.")
        if padding == "post":
            out[i, :len(cut)] = cut
        elif padding == "pre":
            out[i, -len(cut):] = cut
        else:
            raise ValueError(f'pad_sequences: padding type "{padding}" not understood; use '
                             '"pre" or "post".')
    return out

