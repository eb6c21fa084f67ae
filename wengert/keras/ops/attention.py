"""Keras 3's `keras.ops.nn.dot_product_attention` over wengert's ops, as Keras's TensorFlow
backend computes it. With query [B, T, N, H], key and value [B, S, K, H] (K key/value heads
shared by N / K query heads each),

    logits[b, n, t, s] = scale * <query[b, t, n], key[b, s, n]> + bias
    probs = softmax over s of logits, entries where `mask` is False (or s > t when is_causal)
            replaced by a large negative number first
    out[b, t, n] = sum_s probs[b, n, t, s] value[b, s, n]

scale defaults to 1 / sqrt(H). The logits and the softmax run in at least float32; the
probabilities are cast back to the inputs' (promoted) dtype. Flash attention and logit soft
capping are not available, as on Keras's TensorFlow backend.
"""
from ...ops.array_ops import where
from ...ops.broadcast_ops import ones_like
from ...ops.cast_ops import cast
from ...ops.creation_ops import ones, shape as dynamic_shape
from ...ops.einsum_ops import einsum
from ...ops.math_ops import logical_and
from ...ops.matrix_ops import band_part
from ...ops.nn.activations import softmax
from ...ops.shape_ops import repeat
from ...ops.unary_ops import sqrt
from .core import convert_to_tensor
from .dtypes import result_type

__all__ = ["dot_product_attention"]


def _large_negative(dtype):
    return cast((65500.0 if dtype == "float16" else 3.38953e38) * -0.7, dtype)


def _masked(logits, mask, is_causal):
    if mask is None and not is_causal:
        return logits
    keep = ones_like(logits, dtype="bool")
    if mask is not None:
        keep = logical_and(keep, convert_to_tensor(mask, "bool"))
    if is_causal:
        sizes = dynamic_shape(logits)
        causal = band_part(ones([sizes[2], sizes[3]], "bool"), -1, 0)
        keep = logical_and(keep, causal[None, None])
    return where(keep, logits, _large_negative(logits.dtype.name))


def dot_product_attention(query, key, value, bias=None, mask=None, scale=None, is_causal=False,
                          flash_attention=None, attn_logits_soft_cap=None):
    """Scaled dot-product attention of 4-D [batch, length, heads, head_dim] tensors."""
    if attn_logits_soft_cap is not None:
        raise ValueError("dot_product_attention: attn_logits_soft_cap is only supported for JAX "
                         "on TPU; set attn_logits_soft_cap=None.")
    if flash_attention:
        raise ValueError("dot_product_attention: flash attention is not supported on the "
                         "TensorFlow backend (nor here); pass flash_attention=None or False.")
    query, key, value = (convert_to_tensor(t) for t in (query, key, value))
    if query.shape.rank != 4:
        raise ValueError(f"dot_product_attention: only 4-D inputs are supported; got "
                         f"query.shape={query.shape}, key.shape={key.shape}, "
                         f"value.shape={value.shape}.")
    dtype = result_type(query.dtype.name, key.dtype.name, value.dtype.name)
    query, key, value = cast(query, dtype), cast(key, dtype), cast(value, dtype)
    heads, kv_heads = query.shape[2], key.shape[2]
    if heads is not None and kv_heads is not None and heads > kv_heads > 1:
        key = repeat(key, heads // kv_heads, axis=2)
        value = repeat(value, heads // kv_heads, axis=2)
    if scale is None:
        scale = 1.0 / sqrt(cast(dynamic_shape(key)[-1], "float32"))
    logits_dtype = result_type(dtype, "float32")
    logits = cast(einsum("btnh,bsnh->bnts", query, key), logits_dtype)
    logits = logits * cast(scale, logits_dtype)
    if bias is not None:
        logits = logits + cast(convert_to_tensor(bias, dtype), logits_dtype)
    probs = cast(softmax(_masked(logits, mask, is_causal), axis=-1), key.dtype)
    return einsum("bnts,bsnh->btnh", probs, value)
