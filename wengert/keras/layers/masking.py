"""Masking: marks the time steps whose features all equal `mask_value` as padding.

Its output is x * any(x != mask_value, axis=-1, keepdims=True): masked steps become zeros (the
gradient there is zero too), and the mask any(x != mask_value, axis=-1) goes to the next layer
(see mask_table.py for how masks travel).
"""
from ...framework.tensor_shape import TensorShape
from .. import backend_ops as K
from .base import Layer
from .mask_table import set_mask

__all__ = ["Masking"]


class Masking(Layer):
    """Masks the time steps whose features all equal `mask_value` (zeroing them)."""

    supports_masking = True

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value

    def compute_mask(self, inputs, mask=None):
        return K.reduce_any(K.not_equal(inputs, K.cast(self.mask_value, inputs.dtype)), axis=-1)

    def call(self, inputs):
        keep = K.reduce_any(K.not_equal(inputs, K.cast(self.mask_value, inputs.dtype)),
                            axis=-1, keepdims=True)
        outputs = inputs * K.cast(keep, inputs.dtype)
        set_mask(outputs, K.squeeze(keep, -1))
        return outputs

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    def get_config(self):
        config = super().get_config()
        config["mask_value"] = self.mask_value
        return config
