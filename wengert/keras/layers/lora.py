"""LoRA (low-rank adaptation) for Dense, EinsumDense, Embedding and Conv1D/2D/3D, as Keras 3
adds it: a mixin with `enable_lora(rank, lora_alpha=None, a_initializer="he_uniform",
b_initializer="zeros")`.

Enabling LoRA on a built layer freezes its kernel (W; Embedding's `embeddings`) and adds two
trainable float32 weights, A = `lora_kernel_a` with W's leading axes and `rank` columns and
B = `lora_kernel_b` of shape [rank, W's last axis] (Embedding: `lora_embeddings_a` [input_dim,
rank], `lora_embeddings_b` [rank, output_dim]), both regularized like W. From then on the layer
computes with the effective kernel

    W' = W + (lora_alpha / rank) * (A @ B)        (lora_alpha defaults to rank)

so with B starting at zeros the layer's outputs are unchanged until A and B are trained, and
the gradient reaches only A, B and the other trainable weights. The weights keep Keras's order
(W, bias, A, B; W listed with the non-trainable ones). A layer made with `lora_rank=r`
(`lora_alpha=`) enables LoRA when it is built, and its config records both. Enabling it twice,
on an unbuilt layer, or on one with a kernel constraint is a ValueError, as in Keras.

Where Keras 3 makes `layer.kernel` itself the merged tensor, wengert keeps `layer.kernel` the
variable and computes W' in the call (`_lora_effective`); `.keras` / weights files store the
weights as they are (W, A, B), not merged as Keras's save_own_variables does.
"""
from ...ops.math_ops import cast
from ...ops.matmul_ops import matmul
from .. import initializers

__all__ = ["LoRA"]


class LoRA:
    """enable_lora for a layer whose low-rank-adapted weight is `self.<_lora_weight>`."""

    _lora_weight = "kernel"      # the attribute holding W
    _lora_names = ("lora_kernel_a", "lora_kernel_b")
    lora_enabled = False

    @property
    def _checkpoint_weight_keys(self):
        """Keras 3 keeps W in `self._<name>` (`kernel` is a property there), so TensorFlow's
        checkpoints of Keras 3 models key it "_kernel", "_embeddings" (tracking.py)."""
        return {self._lora_weight: "_" + self._lora_weight}

    def _init_lora(self, lora_rank, lora_alpha):
        """The constructor's lora_rank / lora_alpha (LoRA starts when the layer is built)."""
        if lora_rank is not None and (not isinstance(lora_rank, int) or lora_rank <= 0):
            raise ValueError(f"{type(self).__name__}: lora_rank must be a positive integer, "
                             f"got {lora_rank!r}.")
        self.lora_rank = lora_rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else lora_rank
        self.lora_enabled = False

    def _build_lora(self):
        """Called at the end of build: enable LoRA when the constructor asked for it."""
        if getattr(self, "lora_rank", None) and not self.lora_enabled:
            self.enable_lora(self.lora_rank, self.lora_alpha)

    def enable_lora(self, rank, lora_alpha=None, a_initializer="he_uniform",
                    b_initializer="zeros"):
        """Freeze W and add the trainable low-rank factors A and B (see the module docstring)."""
        weight_name = self._lora_weight
        if getattr(self, f"{weight_name}_constraint", None):
            raise ValueError(f"Lora is incompatible with {weight_name} constraints. In order to "
                             f"enable lora on this layer, remove the `{weight_name}_constraint` "
                             "argument.")
        if not self.built:
            raise ValueError("Cannot enable lora on a layer that isn't yet built.")
        if self.lora_enabled:
            raise ValueError("lora is already enabled. This can only be done once per layer.")
        if not isinstance(rank, int) or rank <= 0:
            raise ValueError(f"enable_lora: rank must be a positive integer, got {rank!r}.")
        weight = getattr(self, weight_name)
        shape = tuple(weight.shape)
        regularizer = getattr(self, f"{weight_name}_regularizer", None)
        a = self.add_weight(name=self._lora_names[0], shape=shape[:-1] + (rank,),
                            initializer=initializers.get(a_initializer), dtype="float32",
                            regularizer=regularizer)
        b = self.add_weight(name=self._lora_names[1], shape=(rank, shape[-1]),
                            initializer=initializers.get(b_initializer), dtype="float32",
                            regularizer=regularizer)
        setattr(self, self._lora_names[0], a)
        setattr(self, self._lora_names[1], b)
        _freeze(self, weight)
        self.lora_enabled = True
        self.lora_rank = rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else rank

    def _lora_effective(self):
        """W, or W + (alpha / rank) * A @ B once LoRA is enabled."""
        weight = getattr(self, self._lora_weight)
        if not self.lora_enabled:
            return weight
        a, b = (getattr(self, n) for n in self._lora_names)
        delta = matmul(a, b) * (self.lora_alpha / self.lora_rank)
        return weight + (delta if delta.dtype is weight.dtype else cast(delta, weight.dtype))

    def _lora_config(self, config):
        if getattr(self, "lora_rank", None):
            config["lora_rank"] = self.lora_rank
            config["lora_alpha"] = self.lora_alpha
        return config


def _freeze(layer, weight):
    """Make `weight` non-trainable where it is (the layer's weights keep Keras's order; a
    variable whose `trainable` is False never counts as trainable: tracking.py)."""
    weight._trainable = False
