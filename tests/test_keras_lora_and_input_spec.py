"""LoRA on Dense, EinsumDense and Embedding (layers/lora.py) and keras.InputSpec
(layers/input_spec.py); the expected values are Keras 3.15's on TensorFlow 2.21 for the same
programs."""
import numpy as np
import pytest

import wengert as tf

K = tf.keras
X = np.array([[1.0, 2.0]], "float32")
A = np.arange(4, dtype="float32").reshape(2, 2)


def test_dense_lora_freezes_the_kernel_and_adds_the_scaled_product():
    dense = K.layers.Dense(3, kernel_initializer="ones", name="dense")
    dense.build((None, 2))
    dense.enable_lora(2, lora_alpha=4)
    assert [v.path for v in dense.weights] == ["dense/kernel", "dense/bias",
                                               "dense/lora_kernel_a", "dense/lora_kernel_b"]
    assert [v.name for v in dense.trainable_weights] == ["bias", "lora_kernel_a",
                                                         "lora_kernel_b"]
    assert [v.name for v in dense.non_trainable_weights] == ["kernel"]
    dense.lora_kernel_a.assign(A)
    dense.lora_kernel_b.assign(np.ones((2, 3), "float32"))
    np.testing.assert_allclose(dense(X).numpy(), [[25.0, 25.0, 25.0]])  # 3 + (4/2) * 11
    config = dense.get_config()
    assert (config["lora_rank"], config["lora_alpha"]) == (2, 4)
    with tf.GradientTape() as tape:
        out = tf.reduce_sum(dense(X))
    grads = tape.gradient(out, dense.trainable_weights)
    assert all(g is not None for g in grads)
    with pytest.raises(ValueError, match="already enabled"):
        dense.enable_lora(2)
    with pytest.raises(ValueError, match="isn't yet built"):
        K.layers.Dense(2).enable_lora(2)
    constrained = K.layers.Dense(2, kernel_constraint="non_neg")
    constrained.build((None, 2))
    with pytest.raises(ValueError, match="incompatible with kernel constraints"):
        constrained.enable_lora(2)


def test_lora_rank_in_the_constructor_enables_it_at_build_with_zero_b():
    dense = K.layers.Dense(3, lora_rank=2)
    dense.build((None, 4))
    assert [v.name for v in dense.trainable_weights] == ["bias", "lora_kernel_a",
                                                         "lora_kernel_b"]
    assert tuple(dense.lora_kernel_a.shape) == (4, 2)
    assert np.abs(dense.lora_kernel_b.numpy()).sum() == 0.0
    clone = K.layers.Dense.from_config(dense.get_config())
    clone.build((None, 4))
    assert clone.lora_enabled and clone.lora_rank == 2


def test_embedding_and_einsum_dense_lora():
    emb = K.layers.Embedding(4, 3, embeddings_initializer="ones", name="embedding")
    emb.build((None,))
    emb.enable_lora(1)
    emb.lora_embeddings_a.assign(np.arange(4, dtype="float32").reshape(4, 1))
    emb.lora_embeddings_b.assign(np.ones((1, 3), "float32"))
    assert [v.path for v in emb.weights] == ["embedding/embeddings",
                                             "embedding/lora_embeddings_a",
                                             "embedding/lora_embeddings_b"]
    np.testing.assert_allclose(emb(np.array([[1, 3]])).numpy(), [[[2.0] * 3, [4.0] * 3]])
    ed = K.layers.EinsumDense("ab,bc->ac", output_shape=3, kernel_initializer="ones")
    ed.build((None, 2))
    ed.enable_lora(2)
    ed.lora_kernel_a.assign(A)
    ed.lora_kernel_b.assign(np.ones((2, 3), "float32"))
    np.testing.assert_allclose(ed(X).numpy(), [[14.0, 14.0, 14.0]])


def test_input_spec():
    spec = K.InputSpec(shape=(None, 28, 1), dtype="float32", axes={"-1": 1}, name="img",
                       optional=True, allow_last_axis_squeeze=True)
    assert repr(spec) == "InputSpec(dtype=float32, shape=(None, 28, 1), ndim=3, axes={-1: 1})"
    assert spec.get_config() == {"dtype": "float32", "shape": (None, 28, 1), "ndim": 3,
                                 "max_ndim": None, "min_ndim": None, "axes": {-1: 1},
                                 "optional": True}
    assert (spec.name, spec.optional, spec.allow_last_axis_squeeze) == ("img", True, True)
    assert K.InputSpec.from_config(spec.get_config()).shape == (None, 28, 1)
    assert K.layers.InputSpec is K.InputSpec
    with pytest.raises(ValueError, match="Axis 2 is greater than the maximum allowed value: 1"):
        K.InputSpec(ndim=2, axes={2: 3})
    with pytest.raises(TypeError, match="integer keys"):
        K.InputSpec(axes={"a": 3})


@pytest.mark.parametrize("cls,shape,size,total,squares", [
    ("Conv1D", (1, 5, 3), 150, -91.36540222167969, 1072.17333984375),
    ("Conv2D", (2, 5, 5, 3), 150, 0.0, 18763.28125),
    ("Conv3D", (1, 3, 4, 4, 3), 144, 0.0, 3560.090576171875)])
def test_convolution_lora(cls, shape, size, total, squares):
    x = np.linspace(-1, 1, size, dtype="float32").reshape((2, 5, 5, 3) if cls != "Conv3D"
                                                           else shape)
    x = x[:, 0] if cls == "Conv1D" else x
    conv = getattr(K.layers, cls)(4, 3, kernel_initializer="ones", name="c")
    conv.build((None,) + shape[1:])
    conv.enable_lora(2, lora_alpha=3)
    a_shape = tuple(conv.lora_kernel_a.shape)
    assert a_shape == (3,) * (len(shape) - 1) + (2,)
    conv.lora_kernel_a.assign(np.linspace(0, 1, int(np.prod(a_shape)),
                                          dtype="float32").reshape(a_shape))
    conv.lora_kernel_b.assign(np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4))
    assert [v.name for v in conv.trainable_weights] == ["bias", "lora_kernel_a",
                                                        "lora_kernel_b"]
    y = conv(x)
    np.testing.assert_allclose(float(tf.reduce_sum(y)), total, atol=1e-3)
    np.testing.assert_allclose(float(tf.reduce_sum(y * y)), squares, rtol=1e-5)
