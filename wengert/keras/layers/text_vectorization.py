"""keras.layers.TextVectorization (Keras 3 semantics), computed on the host like the lookup
layers it is built on (a StringLookup with mask token "" holds the vocabulary).

Each string goes through
    standardize  "lower_and_strip_punctuation" (default), "lower", "strip_punctuation", None or a
                 callable; lowering is ASCII-only and the punctuation stripped is
                 [!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~'], as tf.strings.lower / regex_replace do;
    split        "whitespace" (ASCII whitespace, empty pieces dropped), "character" (UTF-8
                 characters), None or a callable;
    ngrams       None, n (widths 1..n) or a tuple of widths: the ngrams of each width in turn,
                 joined by " " (sequences shorter than a width give none of it);
and the tokens are looked up: output_mode "int" gives indices (0 padding, 1 out of vocabulary,
then the vocabulary), padded with 0 to the longest row or cut/padded to output_sequence_length, or (ragged=True)
a RaggedTensor with one row of indices per string;
"multi_hot" and "count" give int64 rows over the vocabulary (index 0 out of vocabulary), and
"tf_idf" float32 rows, weighting counts by idf = log(1 + documents / (1 + document frequency)),
the out-of-vocabulary weight being the mean of the others. `adapt` orders the vocabulary by
frequency (ties: the larger token first), capped at max_tokens.
"""
import collections
import re

import numpy as np

from ...framework import dtypes
from ...framework.context import state
from ...framework.ragged_tensor import RaggedTensor
from ...framework.tensor import constant, convert_to_tensor
from ...ops.io.script import numpy_function
from .base import Layer
from .layer_utils import _standard_config
from .lookup import StringLookup, _host, vocabulary_tokens

__all__ = ["TextVectorization"]

_PUNCTUATION = re.compile(rb'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']')
_STANDARDIZE = ("lower_and_strip_punctuation", "lower", "strip_punctuation")
_SPLIT = ("whitespace", "character")
_MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")


def _bytes(value):
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    return value if isinstance(value, bytes) else str(value).encode()


def _token_rows(result):
    """A callable split's result (a RaggedTensor, a tensor or nested lists) as lists of bytes."""
    if hasattr(result, "to_list"):
        result = result.to_list()
    elif hasattr(result, "numpy"):
        result = result.numpy().tolist()
    elif isinstance(result, np.ndarray):
        result = result.tolist()
    return [[_bytes(t) for t in row] for row in result]


def _check(value, allowed, arg):
    if value is None or callable(value) or value in allowed:
        return
    raise ValueError(f"TextVectorization: invalid `{arg}` {value!r}; expected one of "
                     f"{list(allowed)}, None, or a callable.")


def _ngrams(tokens, widths):
    out = []
    for n in widths:
        out.extend(b" ".join(tokens[i:i + n]) for i in range(len(tokens) - n + 1))
    return out


class TextVectorization(Layer):
    """Strings -> token indices, multi-hot / count / tf-idf rows, as Keras."""

    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation",
                 split="whitespace", ngrams=None, output_mode="int",
                 output_sequence_length=None, pad_to_max_tokens=False, vocabulary=None,
                 idf_weights=None, sparse=False, ragged=False, encoding="utf-8", name=None,
                 **kwargs):
        kwargs.pop("vocabulary_size", None)
        kwargs.pop("has_input_vocabulary", None)
        _check(standardize, _STANDARDIZE, "standardize")
        _check(split, _SPLIT, "split")
        output_mode = {"binary": "multi_hot", "tf-idf": "tf_idf"}.get(output_mode, output_mode)
        if output_mode not in _MODES:
            raise ValueError(f"TextVectorization: invalid `output_mode` {output_mode!r}; "
                             f"expected one of {list(_MODES)}.")
        if not (ngrams is None or isinstance(ngrams, int) or (
                isinstance(ngrams, tuple) and all(isinstance(n, int) for n in ngrams))):
            raise ValueError("TextVectorization: `ngrams` must be None, an integer, or a tuple "
                             f"of integers. Received: ngrams={ngrams!r}")
        if output_mode == "int" and not (output_sequence_length is None
                                         or isinstance(output_sequence_length, int)):
            raise ValueError("TextVectorization: `output_sequence_length` must be None or an "
                             f"integer. Received: {output_sequence_length!r}")
        if output_mode != "int" and output_sequence_length is not None:
            raise ValueError("TextVectorization: `output_sequence_length` must not be set if "
                             f"`output_mode` is not 'int'. Received {output_sequence_length}.")
        if sparse:
            raise NotImplementedError("TextVectorization: sparse outputs are not available; "
                                      "outputs are dense (padded with 0) or ragged.")
        if ragged and output_mode != "int":
            raise ValueError("TextVectorization: `ragged=True` is only supported with "
                             f"`output_mode='int'`. Received output_mode={output_mode!r}.")
        if ragged and output_sequence_length is not None:
            raise ValueError("TextVectorization: `output_sequence_length` must not be set if "
                             "`ragged=True`.")
        if output_mode == "one_hot" and split is not None:
            raise ValueError("TextVectorization: output_mode='one_hot' needs split=None (one "
                             "token per input).")
        super().__init__(name=name, **kwargs)
        self._max_tokens, self._standardize, self._split = max_tokens, standardize, split
        self._ngrams_arg = ngrams
        self._ngrams = tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else ngrams
        self._output_mode, self._output_sequence_length = output_mode, output_sequence_length
        self._pad_to_max_tokens, self._encoding = pad_to_max_tokens, encoding
        self._ragged = bool(ragged) and split is not None
        self._lookup = StringLookup(mask_token="", name=f"{self.name}_lookup")
        self._idf = None
        self._input_vocabulary = vocabulary is not None
        self._input_idf = idf_weights
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)
        elif idf_weights is not None:
            raise ValueError("TextVectorization: `idf_weights` needs a `vocabulary`.")

    # -- tokenizing -------------------------------------------------------------------------------
    def _standardized(self, text):
        if self._standardize in ("lower", "lower_and_strip_punctuation"):
            text = text.lower()  # ASCII-only on bytes, as tf.strings.lower
        if self._standardize in ("strip_punctuation", "lower_and_strip_punctuation"):
            text = _PUNCTUATION.sub(b"", text)
        return text

    def _rows(self, array):
        """A list of token lists (one per input string) and the batch shape."""
        array = np.asarray(array, dtype=object)
        if callable(self._standardize):
            array = np.asarray(self._standardize(array), dtype=object)
        if self._split is not None and array.ndim > 1:
            if array.shape[-1] != 1:
                raise ValueError("TextVectorization: to tokenize strings the input rank must be "
                                 "1 or the last dimension 1. Received: inputs.shape="
                                 f"{array.shape}")
            array = array[..., 0]
        shape = array.shape
        texts = [_bytes(t) for t in array.reshape(-1).tolist()]
        if not callable(self._standardize):
            texts = [self._standardized(t) for t in texts]
        if self._split is None:
            rows = [[t] for t in texts]
        elif self._split == "whitespace":
            rows = [t.split() for t in texts]
        elif self._split == "character":
            rows = [[c.encode() for c in t.decode(self._encoding)] for t in texts]
        else:
            rows = _token_rows(self._split(np.asarray(texts, dtype=object)))
        if self._ngrams is not None:
            rows = [_ngrams(row, self._ngrams) for row in rows]
        return rows, shape

    # -- the vocabulary ---------------------------------------------------------------------------
    def _token_start(self):
        return 2 if self._output_mode == "int" else 1

    def adapt(self, data, batch_size=None, steps=None):
        """Learn the vocabulary (and idf weights) from strings or a dataset of them."""
        if self._input_vocabulary:
            raise ValueError(f"Cannot adapt layer '{self.name}' after setting a static "
                             "vocabulary via `vocabulary` or `set_vocabulary()`.")
        if hasattr(data, "element_spec"):
            batches = [np.asarray(b) for i, b in enumerate(data) if steps is None or i < steps]
        else:
            batches = [np.asarray(data.numpy() if hasattr(data, "numpy") else data, object)]
        counts, documents, n_docs = collections.Counter(), collections.Counter(), 0
        for batch in batches:
            rows, _ = self._rows(batch)
            for row in rows:
                counts.update(row)
                documents.update(set(row))
            n_docs += len(rows)
        for special in (b"", b"[UNK]"):
            counts.pop(special, None)
        ordered = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
        if self._max_tokens:
            ordered = ordered[:self._max_tokens - self._token_start()]
        tokens = [t for t, _ in ordered]
        self._lookup.set_vocabulary(np.asarray(tokens, dtype=object) if tokens else [])
        if self._output_mode == "tf_idf":
            df = np.asarray([documents[t] for t in tokens], np.float64)
            idf = np.log(1 + n_docs / (1 + df)).astype(np.float32)
            oov = np.float32(idf.mean()) if idf.size else np.float32(np.nan)
            self._idf = self._pad_idf(np.concatenate([[oov], idf]).astype(np.float32))

    def _pad_idf(self, idf):
        if self._pad_to_max_tokens and self._max_tokens is not None:
            idf = np.pad(idf, (0, self._max_tokens - idf.size))
        return idf.astype(np.float32)

    def set_vocabulary(self, vocabulary, idf_weights=None):
        vocabulary = vocabulary_tokens(vocabulary, "TextVectorization")
        vocab = [t.decode() if isinstance(t, bytes) else str(t)
                 for t in np.asarray(vocabulary, dtype=object).reshape(-1).tolist()]
        special = ["", "[UNK]"] if self._output_mode == "int" else ["[UNK]"]
        found_special = vocab[:len(special)] == special
        tokens = vocab[len(special):] if found_special else vocab
        if self._max_tokens is not None and len(tokens) + len(special) > self._max_tokens:
            raise ValueError("TextVectorization: attempted to set a vocabulary larger than "
                             f"max_tokens ({len(tokens) + len(special)} > {self._max_tokens}).")
        if self._output_mode == "tf_idf":
            if idf_weights is None:
                raise ValueError("TextVectorization: `idf_weights` must be set if output_mode "
                                 "is 'tf_idf'.")
            idf = np.asarray(idf_weights, np.float64).reshape(-1)
            if idf.size != len(vocab):
                raise ValueError("TextVectorization: `idf_weights` must be the same length as "
                                 f"the vocabulary ({idf.size} != {len(vocab)}).")
            if not found_special:
                idf = np.concatenate([[np.average(idf)], idf])
            self._idf = self._pad_idf(idf)
        elif idf_weights is not None:
            raise ValueError("TextVectorization: `idf_weights` should only be set if "
                             f"output_mode is 'tf_idf'. Received: {self._output_mode!r}")
        self._lookup.set_vocabulary(np.asarray(tokens, dtype=object) if tokens else [])
        self._input_vocabulary = True

    def load_vocabulary_asset(self, text):
        """An adapted vocabulary from a `.keras` file's `vocabulary.txt` (the padding and OOV
        tokens first, one token a line), where Keras keeps it; one given in the config wins."""
        if self._input_vocabulary:
            return
        special = ["", "[UNK]"] if self._output_mode == "int" else ["[UNK]"]
        lines = text.split("\n")
        tokens = lines[len(special):] if lines[:len(special)] == special else lines
        self._lookup.set_vocabulary(np.asarray([t for t in tokens if t], dtype=object)
                                    if any(tokens) else [])

    def get_vocabulary(self, include_special_tokens=True):
        tokens = self._lookup.get_vocabulary()[2:]
        special = ["", "[UNK]"] if self._output_mode == "int" else ["[UNK]"]
        return (special if include_special_tokens else []) + tokens

    def vocabulary_size(self):
        return self._token_start() + len(self._lookup._vocab)

    # -- calling ----------------------------------------------------------------------------------
    def _vectorize(self, array):
        rows, shape = self._rows(array)
        indices = [self._lookup._indices(np.asarray(row, dtype=object)).tolist() if row else []
                   for row in rows]
        if self._output_mode == "int":
            return self._pad(indices, shape)
        depth = self._max_tokens if self._pad_to_max_tokens else self.vocabulary_size()
        if self._split is None:  # one token per input: encode along the last axis
            flat = np.asarray([row[0] for row in indices], np.int64).reshape(shape)
            if self._output_mode == "one_hot":
                if flat.ndim > 1 and flat.shape[-1] == 1:
                    flat = flat[..., 0]
                groups, out_shape = flat.reshape(-1, 1), flat.shape + (depth,)
            elif flat.ndim <= 1:
                groups, out_shape = flat.reshape(1, -1), (depth,)
            else:
                groups, out_shape = flat.reshape(-1, flat.shape[-1]), flat.shape[:-1] + (depth,)
        else:
            groups, out_shape = indices, tuple(shape) + (depth,)
        return self._encode_rows(groups, depth).reshape(out_shape)

    def _encode_rows(self, groups, depth):
        out = np.zeros((len(groups), depth), np.int64)
        for r, row in enumerate(groups):
            for i in row:
                if i > 0:  # the mask token "" is dropped
                    out[r, i - 1] += 1
        if self._output_mode in ("multi_hot", "one_hot"):
            out = np.minimum(out, 1)
        elif self._output_mode == "tf_idf":
            out = out.astype(np.float32) * self._idf
        return out

    def _pad(self, indices, shape):
        if self._split is None:
            out = np.asarray([row[0] for row in indices], np.int64).reshape(shape)
            if self._output_sequence_length is None:
                return out
            length = self._output_sequence_length
            out = out[..., :length]
            pad = [(0, 0)] * (out.ndim - 1) + [(0, length - out.shape[-1])]
            return np.pad(out, pad)
        length = self._output_sequence_length
        if length is None:
            length = max((len(r) for r in indices), default=0)
        out = np.zeros((len(indices), length), np.int64)
        for r, row in enumerate(indices):
            row = row[:length]
            out[r, :len(row)] = row
        return out.reshape(tuple(shape) + (length,))

    @property
    def _symbolic_output_dtype(self):
        return dtypes.float32 if self._output_mode == "tf_idf" else dtypes.int64

    def call(self, inputs):
        if self._ragged:
            return self._ragged_call(inputs)
        return _host(self._vectorize, inputs, self._symbolic_output_dtype,
                     self.compute_output_shape)

    def _row_parts(self, array):
        """(indices of every token, tokens per string) of an array of strings."""
        rows, _ = self._rows(array)
        indices = [self._lookup._indices(np.asarray(row, dtype=object)).tolist() if row else []
                   for row in rows]
        return (np.asarray([i for row in indices for i in row], np.int64),
                np.asarray([len(row) for row in indices], np.int64))

    def _ragged_call(self, inputs):
        """ragged=True: each string's token indices as one row of a RaggedTensor (eagerly,
        or as a numpy_function op while tracing)."""
        x = convert_to_tensor(inputs)
        if state.graph is None:
            values, lengths = (constant(a) for a in self._row_parts(x.numpy()))
        else:
            values, lengths = numpy_function(self._row_parts, [x], [dtypes.int64, dtypes.int64])
            values.set_shape([None])
            lengths.set_shape([None])
        return RaggedTensor.from_row_lengths(values, lengths, validate=False)

    def compute_output_shape(self, input_shape):
        """The output shape for an input shape (None where it depends on the strings)."""
        shape = tuple(input_shape)
        if self._split is not None and len(shape) > 1:
            shape = shape[:-1]  # the trailing axis of 1 is squeezed
        if self._output_mode == "int":
            if self._split is None:
                if self._output_sequence_length is None:
                    return tuple(input_shape)
                return tuple(input_shape)[:-1] + (self._output_sequence_length,)
            return shape + (self._output_sequence_length,)
        depth = self._max_tokens if self._pad_to_max_tokens else self.vocabulary_size()
        if self._split is not None:
            return shape + (depth,)
        if self._output_mode == "one_hot":
            if len(shape) > 1 and shape[-1] == 1:
                shape = shape[:-1]
            return shape + (depth,)
        return (depth,) if len(shape) <= 1 else shape[:-1] + (depth,)

    def get_config(self):
        """Keras's config; the vocabulary (and idf weights) are written whenever the layer has
        one, adapted or not, so a saved model reloads with it (Keras keeps an adapted one in
        its assets instead)."""
        config = super().get_config()
        size = self.vocabulary_size()
        has_vocab = size > self._token_start()
        idf = None
        if has_vocab and self._output_mode == "tf_idf" and self._idf is not None:
            idf = self._idf[:size].tolist()
        config.update(
            max_tokens=self._max_tokens, standardize=self._standardize, split=self._split,
            ngrams=self._ngrams_arg, output_mode=self._output_mode,
            output_sequence_length=self._output_sequence_length,
            pad_to_max_tokens=self._pad_to_max_tokens, sparse=False, ragged=self._ragged,
            vocabulary=self.get_vocabulary() if has_vocab else None, idf_weights=idf,
            encoding=self._encoding, vocabulary_size=size)
        return config

    @classmethod
    def from_config(cls, config):
        config = _standard_config(config)
        if isinstance(config.get("ngrams"), list):
            config["ngrams"] = tuple(config["ngrams"])
        return cls(**config)
