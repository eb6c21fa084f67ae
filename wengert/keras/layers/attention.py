"""Attention layers: Attention (dot-product, Luong), AdditiveAttention (Bahdanau) and
MultiHeadAttention, with Keras 3's weights, masks and numerics.

Attention([query, value(, key)]): scores s = q k^T (times the learned scalar `scale` if
use_scale; score_mode="concat": s = c * sum(tanh(scale (q_i + k_j)))), masked where the value
mask is False (s - 1e9), optionally causal (query step i sees key steps <= i), weights
softmax(s) (dropout while training), output weights @ value, zeroed where the query mask is
False. AdditiveAttention: s = sum(scale * tanh(q_i + k_j)) with `scale` a learned vector.

MultiHeadAttention(num_heads, key_dim): q, k, v are projected by EinsumDense layers `query`,
`key`, `value` (kernels [dim, heads, key_dim], biases [heads, key_dim]); per head
softmax(q k^T / sqrt(key_dim)) weights v, and the `attention_output` EinsumDense (kernel [heads,
value_dim, out]) maps the heads back. `attention_axes` chooses the axes attended over (einsum
equations built as Keras does). The attention mask is the AND of `attention_mask` [B, T, S],
the query mask [B, T, 1], the value/key masks [B, 1, S], the causal mask (use_causal_mask) and
the sliding window |i - j| < w. As in Keras, when no attention scores are returned and there is
no dropout, masked scores are replaced by -1e9 before the softmax (a fully masked row then
attends uniformly); otherwise the softmax output is zeroed where masked. use_gate multiplies the
heads by sigmoid(EinsumDense `gate`(query)) before the output projection.
"""
import math
import string

from ...framework.tensor_shape import TensorShape
from .. import constraints, initializers, regularizers
from .. import backend_ops as K
from ..serialization import serialize_keras_object as _ser
from .base import Layer
from .einsum_dense import EinsumDense
from .layer_utils import random_dropout
from .mask_table import get_mask, set_mask

__all__ = ["Attention", "AdditiveAttention", "MultiHeadAttention"]

_LARGE = 1.0e9


def _causal(rows, cols):
    ones = K.ones(K.stack([1, rows, cols]), dtype="int32")
    return K.greater_equal(K.cumsum(ones, axis=-2), K.cumsum(ones, axis=-1))


class _BaseDenseAttention(Layer):
    """Shared by Attention and AdditiveAttention: masks, softmax, dropout, output."""

    def __init__(self, dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.dropout, self.seed = float(dropout), seed
        self.supports_masking = True

    def _validate(self, inputs, mask):
        if not isinstance(inputs, (list, tuple)) or len(inputs) not in (2, 3):
            raise ValueError(f"{type(self).__name__} layer must be called on a list of inputs, "
                             f"namely [query, value] or [query, value, key]. Received: "
                             f"inputs={inputs}.")
        if mask is not None and (not isinstance(mask, (list, tuple)) or len(mask) not in (2, 3)):
            raise ValueError(f"{type(self).__name__} layer mask must be a list of length 2, "
                             f"namely [query_mask, value_mask]. Received: mask={mask}.")

    def call(self, inputs, mask=None, training=None, return_attention_scores=False,
             use_causal_mask=False):
        self._validate(inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        q_mask = mask[0] if mask else None
        v_mask = mask[1] if mask else None
        scores = self._scores(query, key)
        scores_mask = None
        if v_mask is not None:
            scores_mask = K.expand_dims(K.cast(v_mask, "bool"), -2)
        if use_causal_mask:
            dims = K.shape(scores)
            causal = _causal(dims[-2], dims[-1])
            scores_mask = causal if scores_mask is None else K.logical_and(scores_mask, causal)
        if scores_mask is not None:
            scores = scores - _LARGE * K.cast(K.logical_not(scores_mask), scores.dtype)
        weights = K.softmax(scores, axis=-1)
        dropped = random_dropout(self, weights, self.dropout) if training and \
            self.dropout > 0 else weights
        output = K.matmul(dropped, value)
        if q_mask is not None:
            output = output * K.cast(K.expand_dims(q_mask, -1), output.dtype)
        if return_attention_scores:
            return [output, weights]
        return output

    def compute_mask(self, inputs, mask=None):
        if mask is None or mask[0] is None:
            return None
        return K.convert_to_tensor(mask[0])

    def compute_output_shape(self, input_shape):
        query, value = TensorShape(input_shape[0]), TensorShape(input_shape[1])
        return TensorShape(tuple(query)[:-1] + (value[-1],))

    def get_config(self):
        config = super().get_config()
        config.update(dropout=self.dropout, seed=self.seed)
        return config


class Attention(_BaseDenseAttention):
    """Dot-product attention (Luong-style)."""

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, **kwargs):
        super().__init__(dropout=dropout, seed=seed, **kwargs)
        if score_mode not in ("dot", "concat"):
            raise ValueError(f"Invalid value for argument score_mode. Expected one of "
                             f"{{'dot', 'concat'}}. Received: score_mode={score_mode}")
        self.use_scale, self.score_mode = bool(use_scale), score_mode

    def build(self, input_shape):
        self.scale = self.add_weight("scale", (), initializer="ones") if self.use_scale \
            else None
        self.concat_score_weight = self.add_weight("concat_score_weight", (),
                                                   initializer="ones") \
            if self.score_mode == "concat" else None
        self.built = True

    def _scores(self, query, key):
        if self.score_mode == "dot":
            scores = K.matmul(query, key, transpose_b=True)
            return scores * self.scale if self.scale is not None else scores
        summed = K.expand_dims(query, -2) + K.expand_dims(key, -3)
        if self.scale is not None:
            summed = self.scale * summed
        return self.concat_score_weight * K.reduce_sum(K.tanh(summed), axis=-1)

    def get_config(self):
        config = super().get_config()
        config.update(use_scale=self.use_scale, score_mode=self.score_mode)
        return config


class AdditiveAttention(_BaseDenseAttention):
    """Additive attention (Bahdanau-style)."""

    def __init__(self, use_scale=True, dropout=0.0, **kwargs):
        super().__init__(dropout=dropout, **kwargs)
        self.use_scale = bool(use_scale)

    def build(self, input_shape):
        dim = TensorShape(input_shape[1])[-1]
        self.scale = self.add_weight("scale", (dim,), initializer="glorot_uniform") \
            if self.use_scale else None
        self.built = True

    def _scores(self, query, key):
        summed = K.tanh(K.expand_dims(query, -2) + K.expand_dims(key, -3))
        if self.scale is not None:
            summed = self.scale * summed
        return K.reduce_sum(summed, axis=-1)

    def get_config(self):
        config = super().get_config()
        config["use_scale"] = self.use_scale
        config.pop("seed", None)
        return config


# -- multi-head attention ---------------------------------------------------------------------
def _letter(i):
    return string.ascii_lowercase[i]


def _proj_equation(free, bound, output):
    """(equation, bias axes, output rank) of a projection einsum."""
    inp = "".join(_letter(i) for i in range(free))
    out = inp
    kernel = "".join(_letter(free + i) for i in range(bound))
    inp += kernel
    extra = "".join(_letter(free + bound + i) for i in range(output))
    return f"{inp},{kernel}{extra}->{out}{extra}", extra, len(out + extra)


def _attention_equations(rank, attn_axes):
    target = "".join(_letter(i) for i in range(rank))
    batch_dims = [i for i in range(rank) if i not in attn_axes and i != rank - 1]
    source, offset = "", rank
    for i in range(rank):
        if i in batch_dims or i == rank - 1:
            source += target[i]
        else:
            source += _letter(offset)
            offset += 1
    product = "".join([target[i] for i in batch_dims] + [target[i] for i in attn_axes]
                      + [source[i] for i in attn_axes])
    return f"{source},{target}->{product}", f"{product},{source}->{target}", len(product)


class MultiHeadAttention(Layer):
    """Multi-head attention (Vaswani et al. 2017) with TensorFlow's weight layout."""

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True,
                 output_shape=None, attention_axes=None, flash_attention=None, use_gate=False,
                 sliding_window=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 seed=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.supports_masking = True
        self._num_heads, self._key_dim = int(num_heads), int(key_dim)
        self._value_dim = int(value_dim) if value_dim else self._key_dim
        self._dropout, self._use_bias, self._use_gate = float(dropout), bool(use_bias), \
            bool(use_gate)
        self._out_shape_arg = ([output_shape] if isinstance(output_shape, int) else
                              list(output_shape) if output_shape else None)
        self._attention_axes = ([attention_axes] if isinstance(attention_axes, int) else
                                list(attention_axes) if attention_axes is not None else None)
        self._sliding_window = sliding_window
        self._flash_attention = flash_attention  # True: Keras's TensorFlow backend refuses it
        self._kernel_initializer = initializers.get(kernel_initializer)
        self._bias_initializer = initializers.get(bias_initializer)
        self._kernel_regularizer = regularizers.get(kernel_regularizer)
        self._bias_regularizer = regularizers.get(bias_regularizer)
        self._kernel_constraint = constraints.get(kernel_constraint)
        self._bias_constraint = constraints.get(bias_constraint)
        self.seed = seed
        self._inverse_sqrt_key_dim = 1.0 / math.sqrt(float(self._key_dim))
        self._shapes = None

    num_heads = property(lambda self: self._num_heads)
    key_dim = property(lambda self: self._key_dim)
    value_dim = property(lambda self: self._value_dim)
    dropout = property(lambda self: self._dropout)
    use_bias = property(lambda self: self._use_bias)
    attention_axes = property(lambda self: self._attention_axes)
    query_dense = property(lambda self: self._query_dense)
    key_dense = property(lambda self: self._key_dense)
    value_dense = property(lambda self: self._value_dense)
    output_dense = property(lambda self: self._output_dense)

    # -- building -----------------------------------------------------------------------------
    def _dense(self, equation, shape, bias_axes, name, activation=None):
        kernel_init = type(self._kernel_initializer).from_config(
            self._kernel_initializer.get_config()) if hasattr(
            self._kernel_initializer, "get_config") else self._kernel_initializer
        return EinsumDense(equation, output_shape=shape, activation=activation,
                           bias_axes=bias_axes if self._use_bias else None, name=name,
                           kernel_initializer=kernel_init,
                           bias_initializer=self._bias_initializer,
                           kernel_regularizer=self._kernel_regularizer,
                           bias_regularizer=self._bias_regularizer,
                           kernel_constraint=self._kernel_constraint,
                           bias_constraint=self._bias_constraint, dtype=self.dtype)

    def build(self, query_shape, value_shape=None, key_shape=None):
        query_shape = TensorShape(query_shape)
        value_shape = TensorShape(value_shape if value_shape is not None else query_shape)
        key_shape = TensorShape(key_shape if key_shape is not None else value_shape)
        self._shapes = (query_shape, value_shape, key_shape)
        heads = [self._num_heads]

        def projection(shape, dim, name, activation=None):
            eq, bias, rank = _proj_equation(shape.rank - 1, 1, 2)
            layer = self._dense(eq, [None] * (rank - 3) + heads + [dim], bias, name, activation)
            layer._build_from_shape(shape)
            return layer, rank
        self._query_dense, rank = projection(query_shape, self._key_dim, "query")
        self._key_dense, _ = projection(key_shape, self._key_dim, "key")
        if self._use_gate:
            self._gate_dense, _ = projection(query_shape, self._value_dim, "gate", "sigmoid")
        self._value_dense, _ = projection(value_shape, self._value_dim, "value")
        axes = tuple(range(1, rank - 2)) if self._attention_axes is None else tuple(
            a if a >= 0 else (rank - 1) + a for a in self._attention_axes)
        self._attention_axes_resolved = axes
        self._dot_equation, self._combine_equation, scores_rank = _attention_equations(rank,
                                                                                       axes)
        self._norm_axes = list(range(scores_rank - len(axes), scores_rank))
        out_shape = self._out_shape_arg or [query_shape[-1]]
        eq, bias, out_rank = _proj_equation(query_shape.rank - 1, 2, len(out_shape))
        self._output_dense = self._dense(eq, [None] * (out_rank - 1 - len(out_shape))
                                         + list(out_shape), bias, "attention_output")
        head_shape = list(self._query_dense.compute_output_shape(query_shape))
        head_shape[-1] = self._value_dim
        self._output_dense._build_from_shape(TensorShape(head_shape))
        self.built = True

    def _maybe_build(self, inputs):
        pass  # built in call, from the query, value and key shapes together

    def _symbolic_build(self, inputs, args, kwargs):
        value = args[0] if args else kwargs.get("value")
        key = args[1] if len(args) > 1 else kwargs.get("key")
        if not self.built:
            self._build_input_shape = inputs.shape
            self.build(inputs.shape, value.shape if value is not None else None,
                       key.shape if key is not None else None)

    def get_build_config(self):
        if self._shapes is None:
            return None
        q, v, k = (list(s.as_list()) for s in self._shapes)
        return {"shapes_dict": {"query_shape": q, "value_shape": v, "key_shape": k}}

    def build_from_config(self, config):
        shapes = (config or {}).get("shapes_dict")
        if shapes and not self.built:
            self.build(shapes["query_shape"], shapes.get("value_shape"),
                       shapes.get("key_shape"))

    # -- calling ------------------------------------------------------------------------------
    def _attention_mask(self, query, value, query_mask, value_mask, key_mask, attention_mask,
                        use_causal_mask):
        auto = None
        for mask, axis in ((query_mask, -1), (value_mask, -2), (key_mask, -2)):
            if mask is not None:
                m = K.expand_dims(K.cast(mask, "bool"), axis)
                auto = m if auto is None else K.logical_and(auto, m)
        rows, cols = K.shape(query)[1], K.shape(value)[1]
        if use_causal_mask:
            m = _causal(rows, cols)
            auto = m if auto is None else K.logical_and(auto, m)
        if self._sliding_window is not None:
            i = K.reshape(K.range(rows), [1, -1, 1])
            j = K.reshape(K.range(cols), [1, 1, -1])
            m = K.less(K.abs(i - j), self._sliding_window)
            auto = m if auto is None else K.logical_and(auto, m)
        if auto is not None:
            attention_mask = auto if attention_mask is None else K.logical_and(
                K.cast(attention_mask, "bool"), auto)
        return attention_mask

    def _compute_attention(self, query, key, value, attention_mask=None, training=None,
                           return_attention_scores=False):
        fast = not (self._dropout > 0.0 or return_attention_scores or query.shape.rank != 4)
        if attention_mask is not None:
            attention_mask = K.cast(attention_mask, "bool")
            for _ in range(len(self._dot_equation.split("->")[1]) - attention_mask.shape.rank):
                attention_mask = K.expand_dims(attention_mask,
                                               -len(self._attention_axes_resolved) * 2 - 1)
        standard = self._attention_axes_resolved == (1,) and query.shape.rank == 4
        if not fast:
            query = query * self._inverse_sqrt_key_dim
        if standard:  # [B, T, N, H] x [B, S, N, H] -> [B, N, T, S] as a batched matmul
            scores = K.matmul(K.transpose(query, [0, 2, 1, 3]), K.transpose(key, [0, 2, 1, 3]),
                              transpose_b=True)
        else:
            scores = K.einsum(self._dot_equation, key, query)
        if fast:
            scores = scores * self._inverse_sqrt_key_dim
        if attention_mask is not None:
            scores = K.where(attention_mask, scores, K.cast(-_LARGE, scores.dtype))
        weights = self._softmax(scores)
        if attention_mask is not None and not fast:
            weights = K.where(attention_mask, weights, K.zeros_like(weights))
        dropped = random_dropout(self, weights, self._dropout) if training and \
            self._dropout > 0 else weights
        if standard:
            output = K.transpose(K.matmul(dropped, K.transpose(value, [0, 2, 1, 3])),
                                 [0, 2, 1, 3])
        else:
            output = K.einsum(self._combine_equation, dropped, value)
        return output, (None if fast else weights)

    def _softmax(self, scores):
        if len(self._norm_axes) == 1:
            return K.softmax(scores, axis=self._norm_axes[0])
        return K.exp(scores - K.reduce_logsumexp(scores, axis=self._norm_axes, keepdims=True))

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None,
             attention_mask=None, return_attention_scores=False, training=None,
             use_causal_mask=False):
        if key is None:
            key = value
        if self._flash_attention:  # Keras's errors, raised by its TensorFlow backend too
            raise ValueError("Returning attention scores is not supported when flash attention "
                             "is enabled. Please disable flash attention to access attention "
                             "scores." if return_attention_scores else
                             "Flash attention is not supported in tensorflow backend.")
        if not self.built:
            self.build(query.shape, value.shape, key.shape)
        query_mask = query_mask if query_mask is not None else get_mask(query)
        value_mask = value_mask if value_mask is not None else get_mask(value)
        if key is not value:
            key_mask = key_mask if key_mask is not None else get_mask(key)
        attention_mask = self._attention_mask(query, value, query_mask, value_mask, key_mask,
                                              attention_mask, use_causal_mask)
        held = [(t, get_mask(t)) for t in (query, value, key)]
        for t, _ in held:  # the projections see no masks (they apply to the attention)
            set_mask(t, None)
        try:
            gate = self._gate_dense(query) if self._use_gate else None
            q, k, v = self._query_dense(query), self._key_dense(key), self._value_dense(value)
        finally:
            for t, mask in held:
                if mask is not None:
                    set_mask(t, mask)
        output, scores = self._compute_attention(q, k, v, attention_mask, training,
                                                 return_attention_scores)
        output = self._output_dense(output * gate if gate is not None else output)
        if query_mask is not None:
            set_mask(output, query_mask)
        if return_attention_scores:
            return [output, scores]
        return output

    def compute_mask(self, inputs, mask=None):
        return mask

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        query_shape = TensorShape(query_shape)
        if self._out_shape_arg:
            return TensorShape(tuple(query_shape)[:-1] + tuple(self._out_shape_arg))
        return query_shape

    def get_config(self):
        config = super().get_config()
        config.update(num_heads=self._num_heads, key_dim=self._key_dim,
                      value_dim=self._value_dim, dropout=self._dropout,
                      use_bias=self._use_bias, use_gate=self._use_gate,
                      output_shape=self._out_shape_arg, attention_axes=self._attention_axes,
                      sliding_window=self._sliding_window,
                      kernel_initializer=_ser(self._kernel_initializer),
                      bias_initializer=_ser(self._bias_initializer),
                      kernel_regularizer=_ser(self._kernel_regularizer),
                      bias_regularizer=_ser(self._bias_regularizer),
                      activity_regularizer=_ser(self.activity_regularizer),
                      kernel_constraint=_ser(self._kernel_constraint),
                      bias_constraint=_ser(self._bias_constraint), seed=self.seed)
        return config
