"""ReversibleEmbedding: an Embedding that also maps vectors back to logits over its vocabulary.

Called as usual (reverse=False) it is Embedding: ids [...] -> rows of the table
E [input_dim, output_dim]. Called with reverse=True on vectors h [..., output_dim] it gives
logits h @ E^T [..., input_dim] with the tied table (tie_weights=True, the default), or
h @ R with its own trainable `reverse_embeddings` R [output_dim, input_dim]
(tie_weights=False, initialized like the table). `reverse_dtype` casts h and the kernel before
the product; `logit_soft_cap` c bounds the logits smoothly: c * tanh(logits / c). The reverse
call carries no mask. Gradients come from the matmul (and tanh).
"""
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from .. import backend_ops as K
from .embedding import Embedding

__all__ = ["ReversibleEmbedding"]


class ReversibleEmbedding(Embedding):
    """Embedding with a reverse projection from vectors to vocabulary logits."""

    def __init__(self, input_dim, output_dim, tie_weights=True, embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None, mask_zero=False,
                 reverse_dtype=None, logit_soft_cap=None, **kwargs):
        kwargs.pop("quantization_config", None)
        super().__init__(input_dim, output_dim, embeddings_initializer=embeddings_initializer,
                         embeddings_regularizer=embeddings_regularizer,
                         embeddings_constraint=embeddings_constraint, mask_zero=mask_zero,
                         **kwargs)
        self.tie_weights = bool(tie_weights)
        self.reverse_dtype = reverse_dtype
        if logit_soft_cap is not None and float(logit_soft_cap) <= 0:
            raise ValueError("ReversibleEmbedding: `logit_soft_cap` must be a positive number "
                             f"or None. Received: logit_soft_cap={logit_soft_cap!r}")
        self.logit_soft_cap = logit_soft_cap

    def build(self, input_shape=None):
        super().build(input_shape)
        if not self.tie_weights:
            self.reverse_embeddings = self.add_weight(
                "reverse_embeddings", (self.output_dim, self.input_dim),
                initializer=self.embeddings_initializer)
        self.built = True

    def call(self, inputs, reverse=False):
        self.__dict__["_reversed_call"] = bool(reverse)
        if not reverse:
            return super().call(inputs)
        inputs = convert_to_tensor(inputs)
        kernel = K.transpose(self._lora_effective()) if self.tie_weights else \
            convert_to_tensor(self.reverse_embeddings)
        dtype = self.reverse_dtype or kernel.dtype
        if inputs.dtype != dtype:
            inputs = K.cast(inputs, dtype)
        if kernel.dtype != dtype:
            kernel = K.cast(kernel, dtype)
        logits = K.matmul(inputs, kernel)
        if self.logit_soft_cap is not None:
            cap = K.constant(self.logit_soft_cap, logits.dtype)
            logits = K.tanh(logits / cap) * cap
        return logits

    def compute_mask(self, inputs, mask=None):
        if self.__dict__.get("_reversed_call"):
            return None
        return super().compute_mask(inputs, mask)

    def compute_output_shape(self, input_shape, reverse=False):
        shape = list(TensorShape(input_shape))
        if reverse:
            return TensorShape(shape[:-1] + [self.input_dim])
        return TensorShape(shape + [self.output_dim])

    def get_config(self):
        config = super().get_config()
        config.update(tie_weights=self.tie_weights, reverse_dtype=self.reverse_dtype,
                      logit_soft_cap=self.logit_soft_cap)
        return config
