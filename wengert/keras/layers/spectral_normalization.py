"""SpectralNormalization: a wrapper that divides a layer's kernel by its largest singular value
(Miyato et al. 2018), estimated by power iteration, so that the layer is about 1-Lipschitz.

The kernel W (the wrapped layer's `kernel`, or `embeddings` for Embedding) is viewed as a matrix
[prod(all but last axis), last axis]. With u the stored row vector [1, last axis] (the
non-trainable weight `vector_u`, truncated normal with stddev 0.02 to start), each of the
`power_iterations` steps takes

    v = normalize(u W^T),    u = normalize(v W)

with normalize(x) = x * min(rsqrt(sum x^2), 1 / 1e-7) (Keras's L2 normalization). Then
sigma = v W u^T, and while training the kernel variable is assigned W / sigma and `vector_u`
is assigned u (an all-zero kernel is left as it is). The wrapped layer then runs with the kernel
as it now stands, so at inference (training=False) the layer is the plain wrapped layer, as in
Keras. Gradients reach the kernel variable itself, through the wrapped layer's ops (the
assignment is not differentiated, as in Keras, where u and v are also held constant). As in
Keras the wrapper holds the kernel as its own attribute too, so its weights are listed
[kernel, vector_u, the wrapped layer's other weights].
"""
from .. import backend_ops as K, initializers
from .wrappers import Wrapper

__all__ = ["SpectralNormalization"]

_EPSILON = 1e-7


def _normalize(x):
    inverse = K.rsqrt(K.reduce_sum(K.square(x)))
    return x * K.minimum(inverse, K.constant(1.0 / _EPSILON, x.dtype))


class SpectralNormalization(Wrapper):
    """Wraps a layer with a `kernel` (or `embeddings`) and keeps that kernel's spectral norm
    near 1 while training."""

    def __init__(self, layer, power_iterations=1, **kwargs):
        super().__init__(layer, **kwargs)
        if power_iterations <= 0:
            raise ValueError("`power_iterations` should be greater than zero. Received: "
                             f"`power_iterations={power_iterations}`")
        self.power_iterations = int(power_iterations)

    def _wrapped_kernel(self):
        for name in ("kernel", "embeddings"):
            weight = getattr(self.layer, name, None)
            if weight is not None:
                return weight
        raise ValueError(f"{type(self.layer).__name__} object has no attribute 'kernel' nor "
                         "'embeddings'")

    def build(self, input_shape):
        if not self.layer.built:
            self.layer._build_from_shape(input_shape)
        kernel = self.kernel = self._wrapped_kernel()
        self.kernel_shape = tuple(kernel.shape)
        self.vector_u = self.add_weight(
            name="vector_u", shape=(1, self.kernel_shape[-1]), trainable=False,
            initializer=initializers.TruncatedNormal(stddev=0.02), dtype=kernel.dtype)
        self.built = True

    def normalized_weights(self):
        """(u, W / sigma) after `power_iterations` steps from the stored u."""
        kernel = K.convert_to_tensor(self.kernel)
        weights = K.reshape(kernel, [-1, self.kernel_shape[-1]])
        u = K.convert_to_tensor(self.vector_u)
        for _ in range(self.power_iterations):
            v = _normalize(K.matmul(u, weights, transpose_b=True))
            u = _normalize(K.matmul(v, weights))
        u, v = K.stop_gradient(u), K.stop_gradient(v)
        sigma = K.matmul(K.matmul(v, weights), u, transpose_b=True)
        return u, K.reshape(weights / sigma, self.kernel_shape)

    def call(self, inputs, training=False):
        if training:
            kernel = self.kernel
            old_kernel = K.convert_to_tensor(kernel)
            old_u = K.convert_to_tensor(self.vector_u)
            u, normalized = self.normalized_weights()
            zero = K.reduce_all(K.equal(old_kernel, K.zeros_like(old_kernel)))
            self.vector_u.assign(K.where(zero, old_u, u))
            kernel.assign(K.where(zero, old_kernel, normalized))
        output = self.layer(inputs)
        return K.cast(output, inputs.dtype) if output.dtype != inputs.dtype else output

    def compute_output_shape(self, input_shape):
        return self.layer.compute_output_shape(input_shape)

    def get_config(self):
        config = super().get_config()
        config["power_iterations"] = self.power_iterations
        return config

