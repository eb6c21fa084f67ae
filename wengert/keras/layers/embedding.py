"""Embedding: integer ids -> rows of a trainable table.

With the table E [input_dim, output_dim], an input of ids i (any shape) becomes E[i] (shape
i.shape + [output_dim]) by `nn.embedding_lookup`. Its gradient with respect to E is sparse: only
the looked-up rows get the incoming gradients (summed over repeats), returned as
IndexedSlices(values, indices, dense_shape), which optimizers apply to those rows only. The
table starts uniform in [-0.05, 0.05], as in Keras. Float inputs are cast to int32 ids (the
layer does not cast its inputs to its float dtype). With mask_zero=True, id 0 is padding: the
output carries the mask ids != 0 to the layers after it (recurrent layers skip those steps), and
input_dim counts the padding id.
"""
from ...framework import dtypes
from ...framework.ragged_tensor import RaggedTensor
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...ops.math_ops import cast, not_equal
from ...ops.nn import embedding
from .. import regularizers
from .base import Layer
from .lora import LoRA
from .weight_options import add_weight_with_options, set_weight_options, weight_options_config

__all__ = ["Embedding"]


class Embedding(LoRA, Layer):
    """Turns non-negative integer ids into dense vectors: ids [...] -> [..., output_dim]
    (enable_lora: lora.py, on the embeddings)."""

    _lora_weight = "embeddings"
    _lora_names = ("lora_embeddings_a", "lora_embeddings_b")

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, activity_regularizer=None,
                 embeddings_constraint=None, mask_zero=False, input_length=None, **kwargs):
        if input_length is not None and "input_shape" not in kwargs:
            kwargs["input_shape"] = (input_length,)
        kwargs.setdefault("autocast", False)
        lora_rank, lora_alpha = kwargs.pop("lora_rank", None), kwargs.pop("lora_alpha", None)
        super().__init__(**kwargs)
        self._init_lora(lora_rank, lora_alpha)
        self.activity_regularizer = regularizers.get(activity_regularizer)
        if embeddings_initializer == "uniform":  # Keras's alias of RandomUniform(-0.05, 0.05)
            embeddings_initializer = "random_uniform"
        set_weight_options(self, "embeddings", embeddings_initializer, embeddings_regularizer,
                           embeddings_constraint)
        if int(input_dim) <= 0 or int(output_dim) <= 0:
            raise ValueError(f"Both `input_dim` and `output_dim` should be positive, received "
                             f"input_dim={input_dim} and output_dim={output_dim}.")
        self.mask_zero = bool(mask_zero)
        self.supports_masking = self.mask_zero
        self.input_dim, self.output_dim = int(input_dim), int(output_dim)
        self.input_length = input_length

    def build(self, input_shape):
        self.embeddings = add_weight_with_options(self, "embeddings",
                                                  (self.input_dim, self.output_dim))
        self.built = True
        self._build_lora()

    def call(self, inputs):
        if isinstance(inputs, RaggedTensor):  # keras.Input(ragged=True): rows of ids
            return inputs.with_flat_values(self.call(inputs.flat_values))
        inputs = convert_to_tensor(inputs)
        if not inputs.dtype.is_integer:
            inputs = cast(inputs, dtypes.int32)
        return embedding.embedding_lookup(self._lora_effective(), inputs)

    def compute_mask(self, inputs, mask=None):
        if not self.mask_zero:
            return None
        if isinstance(inputs, RaggedTensor):
            return inputs.with_flat_values(self.compute_mask(inputs.flat_values))
        inputs = convert_to_tensor(inputs)
        return not_equal(inputs, cast(0, inputs.dtype))

    def compute_output_shape(self, input_shape):
        return TensorShape(tuple(TensorShape(input_shape)) + (self.output_dim,))

    def get_config(self):
        config = super().get_config()
        config.update(input_dim=self.input_dim, output_dim=self.output_dim,
                      **weight_options_config(self, "embeddings"), mask_zero=self.mask_zero)
        return self._lora_config(config)
