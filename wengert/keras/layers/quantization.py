"""Keras 3's quantization hooks on every layer: `quantize`, `quantized_build`, `quantized_call`
(a mixin of Layer), refused.

Keras 3 quantizes the weights of Dense, EinsumDense and Embedding layers in place
(`layer.quantize("int8")`: an int8 kernel and per-channel scales, calls that quantize their
inputs too) and raises NotImplementedError for every other layer. wengert does not quantize:
a layer Keras cannot quantize raises Keras's own NotImplementedError, and one Keras can
quantize raises NotImplementedError naming the mode, after the argument checks Keras makes
(an unbuilt layer or an unknown mode is a ValueError), so no program silently computes in
float where it asked for int8. `Model.quantize` (model_quantization.py) refuses the same way.
"""

__all__ = ["QuantizationHooks", "QUANTIZATION_MODES", "check_quantize_mode"]

QUANTIZATION_MODES = ("int8", "float8", "int4", "gptq", "awq")
_KERAS_QUANTIZES = ("Dense", "EinsumDense", "Embedding", "ReversibleEmbedding")


def check_quantize_mode(mode):
    if mode not in QUANTIZATION_MODES:
        raise ValueError(f"Invalid quantization mode. Expected one of {QUANTIZATION_MODES}. "
                         f"Received: mode={mode}")


def keras_quantizes(layer):
    """Whether Keras 3 quantizes this layer (it is, or derives from, one of its kinds)."""
    return any(k.__name__ in _KERAS_QUANTIZES and k.__module__.startswith("wengert.")
               for k in type(layer).__mro__)


def refusal(layer, mode):
    return NotImplementedError(
        f"Layer {type(layer).__name__} ({layer.name!r}): quantize(mode={mode!r}) is not "
        "implemented in wengert (Keras 3 quantizes Dense, EinsumDense and Embedding weights; "
        "wengert keeps them in floating point). Run the model unquantized, or quantize it "
        "with Keras itself.")


class QuantizationHooks:
    """Layer.quantize / quantized_build / quantized_call, as Keras 3 declares them."""

    def quantize(self, mode=None, type_check=True, config=None):
        if not keras_quantizes(self):
            raise NotImplementedError(f"Layer {type(self).__name__} does not have a `quantize` "
                                      "method implemented.")
        if not self.built:
            raise ValueError(f"Cannot quantize a layer that isn't yet built. Layer "
                             f"'{self.name}' (of type '{type(self).__name__}') is not built "
                             "yet.")
        if mode is None and config is not None:
            mode = getattr(config, "mode", None)
        check_quantize_mode(mode)
        raise refusal(self, mode)

    def quantized_build(self, input_shape, mode):
        if not keras_quantizes(self):
            raise NotImplementedError(f"Layer {type(self).__name__} does not have a "
                                      "`quantized_build` method implemented.")
        check_quantize_mode(mode)
        raise refusal(self, mode)

    @property
    def quantization_mode(self):
        """None: wengert's layers are never quantized."""
        return None

    def quantized_call(self, *args, **kwargs):
        raise NotImplementedError(f"Invalid quantization mode. Expected one of "
                                  f"{QUANTIZATION_MODES}. Received: "
                                  f"quantization_mode={self.quantization_mode}")
