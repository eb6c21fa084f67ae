"""keras.layers.Hashing (Keras 3 semantics): values -> hash bins, computed on the host.

Each value becomes a string (integers in decimal; floats truncated to int64 first, as Keras
does) and is hashed as TensorFlow's string ops do:
    salt None:  tf.strings.to_hash_bucket_fast   = Fingerprint64(s) mod num_bins
    salt given: tf.strings.to_hash_bucket_strong = SipHash-2-4(key=salt)(s) mod num_bins
The hashes are ops/io/hashing.py's, TensorFlow's bit for bit. With `mask_value`, values equal
to it go to bin 0 and the others to 1 + hash mod (num_bins - 1). output_mode one_hot /
multi_hot / count encodes the bins over num_bins (float32 by default, as Keras).
"""
import numpy as np

from ...framework import dtypes
from ...ops.io.hashing import fingerprint64, siphash24
from .base import Layer
from .lookup import _encode, _host

__all__ = ["Hashing"]


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
