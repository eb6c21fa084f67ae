"""GroupQueryAttention (Ainslie et al. 2023): multi-head attention whose keys and values have
fewer heads than its queries, each key/value head shared by a group of query heads.

For query [B, T, dim], value [B, S, dim] and key (default: value) [B, S, dim]:

    q = query  . Wq  [dim, Nq, H]   -> [B, T, Nq, H]
    k = key    . Wk  [dim, Nkv, H]  -> [B, S, Nkv, H]
    v = value  . Wv  [dim, Nkv, H]  -> [B, S, Nkv, H]

k and v are repeated Nq / Nkv times along the head axis (head j serves query heads
j*r ... j*r + r - 1, ops.repeat's order), then each query head attends as in
MultiHeadAttention: softmax(q k^T / sqrt(H) + mask) v, and the heads are projected back by
Wo [Nq, H, dim]. Biases (use_bias) are per head, use_gate multiplies the heads by
sigmoid(query . Wg) before the output projection, and the masks (query/value/key masks,
attention_mask, use_causal_mask, sliding_window) combine as in MultiHeadAttention, whose
machinery this layer reuses (weights in Keras's order: query, key, [gate], value,
attention_output). Gradients come from the einsum, matmul, gather and softmax ops. Keras's
class is GroupedQueryAttention, exported as GroupQueryAttention: the files it writes name the
former, the same class here.
"""
import math

from ...framework.tensor_shape import TensorShape
from .. import backend, backend_ops as K
from ..serialization import serialize_keras_object as _ser
from .attention import MultiHeadAttention, _attention_equations

__all__ = ["GroupQueryAttention"]


class GroupQueryAttention(MultiHeadAttention):
    """Grouped-query attention over [batch, time, features] inputs."""

    def __init__(self, head_dim, num_query_heads, num_key_value_heads, dropout=0.0,
                 use_bias=True, sliding_window=None, flash_attention=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, use_gate=False, seed=None,
                 **kwargs):
        if not kwargs.get("name"):
            kwargs["name"] = backend.unique_name("grouped_query_attention")
        if num_query_heads % num_key_value_heads != 0:
            raise ValueError("`num_query_heads` must be divisible by `num_key_value_heads`.")
        if sliding_window is not None and (not isinstance(sliding_window, int)
                                           or sliding_window <= 0):
            raise ValueError("`sliding_window` must be `None` or a positive integer. "
                             f"Received: sliding_window={sliding_window}")
        if flash_attention and dropout > 0.0:
            raise ValueError("Dropout is not supported when flash attention is enabled. Please "
                             "set dropout to 0.0 to use flash attention.")
        super().__init__(num_query_heads, head_dim, dropout=dropout, use_bias=use_bias,
                         flash_attention=flash_attention, use_gate=use_gate,
                         sliding_window=sliding_window, kernel_initializer=kernel_initializer,
                         bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer,
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                         seed=seed, **kwargs)
        self.head_dim = int(head_dim)
        self.num_query_heads = int(num_query_heads)
        self.num_key_value_heads = int(num_key_value_heads)
        self.num_repeats = self.num_query_heads // self.num_key_value_heads
        self._inverse_sqrt_head_dim = 1.0 / math.sqrt(float(self.head_dim))

    def build(self, query_shape, value_shape=None, key_shape=None):
        query_shape = TensorShape(query_shape)
        value_shape = TensorShape(value_shape if value_shape is not None else query_shape)
        key_shape = TensorShape(key_shape if key_shape is not None else value_shape)
        for name, shape in (("query", query_shape), ("value", value_shape), ("key", key_shape)):
            if shape.rank != 3:
                raise ValueError(f"GroupQueryAttention: `{name}` must have shape (batch, "
                                 f"length, features); received shape {shape}.")
        self._shapes = (query_shape, value_shape, key_shape)
        nq, nkv, h = self.num_query_heads, self.num_key_value_heads, self.head_dim

        def projection(equation, shape, heads, bias, name, activation=None):
            layer = self._dense(equation, [None, heads, h], bias, name, activation)
            layer._build_from_shape(shape)
            return layer
        self._query_dense = projection("bqm,muh->bquh", query_shape, nq, "uh", "query")
        self._key_dense = projection("bkm,mvh->bkvh", key_shape, nkv, "vh", "key")
        if self._use_gate:
            self._gate_dense = projection("bqm,muh->bquh", query_shape, nq, "uh", "gate",
                                          "sigmoid")
        self._value_dense = projection("bkm,mvh->bkvh", value_shape, nkv, "vh", "value")
        self._attention_axes_resolved = (1,)
        self._dot_equation, self._combine_equation, _ = _attention_equations(4, (1,))
        self._norm_axes = [3]
        self._output_dense = self._dense("bquh,uhm->bqm", [None, query_shape[-1]], "m",
                                         "attention_output")
        self._output_dense._build_from_shape(TensorShape([None, None, nq, h]))
        self.built = True

    def _compute_attention(self, query, key, value, attention_mask=None, training=None,
                           return_attention_scores=False):
        if self.num_repeats > 1:
            heads = K.constant([j // self.num_repeats for j in range(self.num_query_heads)])
            key, value = K.gather(key, heads, axis=2), K.gather(value, heads, axis=2)
        return super()._compute_attention(query, key, value, attention_mask, training,
                                          return_attention_scores)

    def get_config(self):
        config = super().get_config()
        for key in ("num_heads", "key_dim", "value_dim", "output_shape", "attention_axes"):
            config.pop(key)
        config.update(head_dim=self.head_dim, num_query_heads=self.num_query_heads,
                      num_key_value_heads=self.num_key_value_heads,
                      activity_regularizer=_ser(self.activity_regularizer))
        return config


GroupedQueryAttention = GroupQueryAttention
