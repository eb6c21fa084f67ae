"""keras.layers.Hashing and HashedCrossing (Keras 3 semantics): values -> hash bins, computed on
the host.

Each value becomes a string (integers in decimal; floats truncated to int64 first, as Keras
does) and is hashed as TensorFlow's string ops do:
    salt None:  tf.strings.to_hash_bucket_fast   = Fingerprint64(s) mod num_bins
    salt given: tf.strings.to_hash_bucket_strong = SipHash-2-4(key=salt)(s) mod num_bins
The hashes are ops/io/hashing.py's, TensorFlow's bit for bit. With `mask_value`, values equal
to it go to bin 0 and the others to 1 + hash mod (num_bins - 1). output_mode one_hot /
multi_hot / count encodes the bins over num_bins (float32 by default, as Keras).

HashedCrossing crosses two or more features of equal shape ((), (batch,) or (batch, 1)), as
tf.sparse.cross_hashed does: starting from the key 0xDECAFCAFFE, each feature's hash (an
integer's own 64 bits, a string's Fingerprint64) is folded in by FingerprintCat64

    r = a ^ K;  r ^= shift_mix(b K) K;  r = shift_mix(r K) K;  r = shift_mix(r)

(K = 0xc6a4a7935bd1e995, shift_mix(v) = v ^ (v >> 47), arithmetic mod 2^64), and the bin is
r mod num_bins: int64 bins (output_mode="int") or their one-hot rows.
"""
import numpy as np

from ...framework import dtypes
from ...framework.context import state
from ...framework.ragged_tensor import RaggedTensor
from ...framework.tensor import constant, convert_to_tensor
from ...ops.io.hashing import fingerprint64, siphash24
from ...ops.io.script import numpy_function
from .base import Layer
from .lookup import _encode, _host, _same_shape, encode_ragged_rows

__all__ = ["Hashing", "HashedCrossing"]

_MASK64 = (1 << 64) - 1
_CROSS_KEY = 0xDECAFCAFFE
_CAT_MUL = 0xc6a4a7935bd1e995


# -- the layer --------------------------------------------------------------------------------
def _as_bytes(value):
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, (float, np.floating)):
        value = int(np.int64(value))  # Keras casts floats to int64 (truncating) first
    return str(int(value)).encode()


class Hashing(Layer):
    """Hash values into num_bins bins (FarmHash, or keyed SipHash with a salt), as Keras."""

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False,
                 **kwargs):
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else "float32"
        super().__init__(**kwargs)
        if num_bins is None or num_bins <= 0:
            raise ValueError("Hashing: `num_bins` cannot be None or non-positive. Received: "
                             f"num_bins={num_bins}.")
        if output_mode not in ("int", "one_hot", "multi_hot", "count"):
            raise ValueError("Hashing: invalid `output_mode`; expected one of 'int', "
                             f"'one_hot', 'multi_hot', 'count'. Received: {output_mode!r}")
        if output_mode == "int" and kwargs["dtype"] not in ("int32", "int64"):
            raise ValueError("Hashing: with output_mode='int', dtype must be 'int32' or "
                             f"'int64'. Received: dtype={kwargs['dtype']!r}")
        if sparse:
            raise NotImplementedError("Hashing: sparse outputs are not available; use "
                                      "sparse=False (dense outputs).")
        self.num_bins, self.mask_value, self.output_mode, self.sparse = (
            num_bins, mask_value, output_mode, sparse)
        self.strong_hash = salt is not None
        if salt is None:
            self.salt = None
        elif isinstance(salt, (tuple, list)) and len(salt) == 2:
            self.salt = list(salt)
        elif isinstance(salt, int):
            self.salt = [salt, salt]
        else:
            raise ValueError("Hashing: `salt` must be a tuple of 2 integers or one integer. "
                             f"Received: salt={salt!r}.")
        self._out_dtype = dtypes.as_dtype(kwargs["dtype"])

    def _bin(self, value, bins):
        data = _as_bytes(value)
        h = siphash24(self.salt, data) if self.strong_hash else fingerprint64(data)
        return h % bins

    def hash_values(self, array):
        """The bins of a NumPy array of values (strings, bytes or numbers)."""
        array = np.asarray(array)
        bins, mask = self.num_bins, None
        if self.mask_value is not None and bins > 1:
            bins -= 1
            mask_key = _as_bytes(self.mask_value) if array.dtype.kind in "OSU" else None
            mask = np.asarray([(_as_bytes(v) == mask_key) if mask_key is not None
                               else (v == self.mask_value) for v in array.reshape(-1).tolist()],
                              bool).reshape(array.shape)
        flat = [self._bin(v, bins) for v in array.reshape(-1).tolist()]
        out = np.asarray(flat, np.int64).reshape(array.shape)
        if mask is not None:
            out = np.where(mask, 0, out + 1)
        return out

    def _encode(self, array):
        array = np.asarray(array)
        if self.output_mode == "one_hot" and array.ndim and array.shape[-1] == 1:
            array = array[..., 0]
        indices = self.hash_values(array)
        if self.output_mode == "int":
            return indices.astype(self._out_dtype.as_numpy_dtype)
        if indices.ndim == 0:
            indices = indices.reshape(1)
        return _encode(indices, self.num_bins, self.output_mode).astype(
            self._out_dtype.as_numpy_dtype)

    def call(self, inputs):
        if isinstance(inputs, RaggedTensor) and self.output_mode in ("multi_hot", "count"):
            return encode_ragged_rows(_host(self.hash_values, inputs, dtypes.int64,
                                            _same_shape),
                                      self.num_bins, self.output_mode, self._out_dtype)
        return _host(self._encode, inputs, self._out_dtype, self._encoded_shape)

    def _encoded_shape(self, shape):
        if self.output_mode == "int":
            return shape
        if self.output_mode == "one_hot":
            if len(shape) and shape[-1] == 1:
                shape = shape[:-1]
            return shape + (self.num_bins,)
        return (self.num_bins,) if len(shape) <= 1 else shape[:-1] + (self.num_bins,)

    def compute_output_shape(self, input_shape):
        return self._encoded_shape(tuple(input_shape))

    def get_config(self):
        config = super().get_config()
        config.update(num_bins=self.num_bins, salt=self.salt, mask_value=self.mask_value,
                      output_mode=self.output_mode, sparse=self.sparse)
        return config


# -- crossing ---------------------------------------------------------------------------------
def _shift_mix(v):
    return v ^ (v >> 47)


def fingerprint_cat64(a, b):
    """TensorFlow's FingerprintCat64: two 64-bit fingerprints combined into one."""
    r = a ^ _CAT_MUL
    r ^= (_shift_mix((b * _CAT_MUL) & _MASK64) * _CAT_MUL) & _MASK64
    r = (r * _CAT_MUL) & _MASK64
    r = (_shift_mix(r) * _CAT_MUL) & _MASK64
    return _shift_mix(r)


def _feature_hash(value):
    if isinstance(value, (bytes, str)):
        return fingerprint64(value.encode() if isinstance(value, str) else value)
    return int(value) & _MASK64


class HashedCrossing(Layer):
    """Crosses features by hashing each combination of their values into num_bins bins."""

    def __init__(self, num_bins, output_mode="int", sparse=False, name=None, dtype=None,
                 **kwargs):
        if output_mode == "int" and dtype is None:
            dtype = "int64"
        super().__init__(name=name, dtype=dtype, **kwargs)
        if sparse:
            raise ValueError("HashedCrossing: `sparse=True` outputs are not available here; "
                             "use sparse=False (dense outputs).")
        if output_mode not in ("int", "one_hot"):
            raise ValueError("Invalid value for argument `output_mode` passed to "
                             "HashedCrossing. Allowed values are: 'int', 'one_hot'. Received: "
                             f"{output_mode!r}")
        if not isinstance(num_bins, int) or num_bins <= 0:
            raise ValueError("HashedCrossing: `num_bins` must be a positive integer. Received: "
                             f"num_bins={num_bins!r}")
        self.num_bins, self.output_mode, self.sparse = num_bins, output_mode, sparse

    def _check(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError("`HashedCrossing` should be called on a list or tuple of inputs. "
                             f"Received: inputs={inputs}")
        if len(inputs) < 2:
            raise ValueError("`HashedCrossing` should be called on at least two inputs. "
                             f"Received: inputs={inputs}")
        tensors = [convert_to_tensor(x) for x in inputs]
        shape = tuple(tensors[0].shape)
        if len(shape) > 2 or (len(shape) == 2 and shape[-1] != 1):
            raise ValueError("All `HashedCrossing` inputs should have shape `()`, `(batch_size)`"
                             f" or `(batch_size, 1)`. Received: inputs={inputs}")
        if any(tuple(t.shape) != shape for t in tensors[1:]):
            raise ValueError("All `HashedCrossing` inputs should have equal shape. Received: "
                             f"inputs={inputs}")
        if not all(t.dtype.is_integer or t.dtype == dtypes.string for t in tensors):
            raise ValueError("All `HashedCrossing` inputs should have an integer or string "
                             f"dtype. Received: inputs={inputs}")
        return tensors

    def cross_values(self, *arrays):
        """The bins (int64) of same-shaped NumPy arrays of features, crossed element by
        element."""
        arrays = [np.asarray(a) for a in arrays]
        out = np.zeros(arrays[0].shape, np.int64)
        flat = out.reshape(-1)
        columns = [a.reshape(-1).tolist() for a in arrays]
        for i, row in enumerate(zip(*columns)):
            h = _CROSS_KEY
            for value in row:
                h = fingerprint_cat64(h, _feature_hash(value))
            flat[i] = h % self.num_bins
        return out

    def _encoded(self, *arrays):
        bins = self.cross_values(*arrays)
        if self.output_mode == "int":
            return bins.astype(self._dtype.as_numpy_dtype)
        if bins.ndim == 2:
            bins = bins[:, 0]
        return np.eye(self.num_bins, dtype=self._dtype.as_numpy_dtype)[bins]

    def call(self, inputs):
        tensors = self._check(inputs)
        if state.graph is None:
            return constant(self._encoded(*[t.numpy() for t in tensors]), self._dtype)
        out = numpy_function(self._encoded, tensors, self._dtype)
        out.set_shape(self.compute_output_shape([tuple(t.shape) for t in tensors]))
        return out

    def _cast_inputs(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape[0])
        if self.output_mode == "int":
            return shape
        if len(shape) == 2:
            shape = shape[:-1]
        return shape + (self.num_bins,)

    def get_config(self):
        return {"num_bins": self.num_bins, "output_mode": self.output_mode,
                "sparse": self.sparse, "name": self.name, "dtype": self.dtype}
