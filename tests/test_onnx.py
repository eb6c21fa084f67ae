"""ONNX export checked in onnxruntime: every model and op case is converted with
wengert.onnx.from_function / from_keras (onnx.checker passes inside), run in onnxruntime at two
batch sizes (the signature's batch dimension is dynamic) and compared with wengert's own result
(float32, rtol 1e-5). Skips without `onnx` and `onnxruntime` (pip install 'wengert[onnx]'
onnxruntime)."""
import numpy as np
import pytest

import wengert as tf

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
import wengert.onnx as wonnx  # noqa: E402

K = tf.keras
RNG = np.random.default_rng(0)
BATCHES = (2, 5)


def run_onnx(model, feeds):
    session = ort.InferenceSession(model.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    return session.run(None, dict(zip(names, feeds)))


def assert_matches(model, fn, make_inputs, rtol=1e-5, atol=1e-6):
    onnx.checker.check_model(model)
    for batch in BATCHES:
        inputs = make_inputs(batch)
        want = fn(*[tf.constant(x) for x in inputs])
        want = list(want) if isinstance(want, (list, tuple)) else [want]
        got = run_onnx(model, inputs)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            w = np.asarray(w)
            assert g.dtype == w.dtype, (g.dtype, w.dtype)
            assert g.shape == w.shape, (g.shape, w.shape)
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)


def floats(*shape, low=-2.0, high=2.0):
    return lambda b: RNG.uniform(low, high, (b,) + shape).astype(np.float32)


def spec(*shape, dtype=tf.float32):
    return tf.TensorSpec((None,) + shape, dtype)


# -- models ---------------------------------------------------------------------------------------
def test_mlp():
    model = K.Sequential([K.layers.Dense(32, activation="relu", input_shape=(20,)),
                          K.layers.Dropout(0.5), K.layers.Dense(16, activation="tanh"),
                          K.layers.Dense(4, activation="softmax")])
    proto = wonnx.from_keras(model)
    assert proto.graph.input[0].type.tensor_type.shape.dim[0].dim_param  # dynamic batch
    assert_matches(proto, lambda x: model(x, training=False), lambda b: [floats(20)(b)])


def test_cnn_with_batch_norm_in_inference():
    model = K.Sequential([
        K.layers.Conv2D(6, 3, padding="same", activation="relu", input_shape=(14, 14, 2)),
        K.layers.BatchNormalization(),
        K.layers.MaxPooling2D(),
        K.layers.Conv2D(8, (3, 2), strides=2, padding="valid"),
        K.layers.AveragePooling2D(pool_size=2, padding="same"),
        K.layers.Flatten(),
        K.layers.Dense(5)])
    model.compile("adam", "mse")
    x = floats(14, 14, 2)(16)
    model.fit(x, RNG.normal(size=(16, 5)).astype(np.float32), epochs=1, verbose=0)  # BN stats
    proto = wonnx.from_keras(model)
    assert {"Conv", "MaxPool", "AveragePool"} <= {n.op_type for n in proto.graph.node}
    assert_matches(proto, lambda x: model(x, training=False), lambda b: [floats(14, 14, 2)(b)],
                   rtol=1e-5, atol=1e-5)


def test_functional_model_with_embedding_and_global_pooling():
    tokens = K.Input((6,), dtype=tf.int32, name="tokens")
    image = K.Input((8, 8, 3), name="image")
    a = K.layers.Flatten()(K.layers.Embedding(30, 4)(tokens))
    b = K.layers.GlobalAveragePooling2D()(K.layers.Conv2D(4, 3)(image))
    out = K.layers.Dense(3)(K.layers.Concatenate()([a, b]))
    model = K.Model([tokens, image], out)
    proto = wonnx.from_keras(model)
    assert [i.name for i in proto.graph.input] == ["tokens", "image"]
    assert_matches(proto, lambda t, i: model([t, i], training=False),
                   lambda b: [RNG.integers(0, 30, (b, 6)).astype(np.int32), floats(8, 8, 3)(b)])


def _layer_norm(x, gamma, beta):
    mean = tf.reduce_mean(x, axis=-1, keepdims=True)
    var = tf.reduce_mean(tf.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * tf.math.rsqrt(var + 1e-5) * gamma + beta


def test_attention_block():
    d, heads = 16, 4
    weights = {k: tf.Variable(RNG.normal(size=(d, d)).astype(np.float32) * 0.3)
               for k in ("q", "k", "v", "o")}
    ff1 = tf.Variable(RNG.normal(size=(d, 32)).astype(np.float32) * 0.3)
    ff2 = tf.Variable(RNG.normal(size=(32, d)).astype(np.float32) * 0.3)
    gamma, beta = tf.Variable(np.ones(d, np.float32)), tf.Variable(np.zeros(d, np.float32))

    def split_heads(t):
        t = tf.reshape(t, [tf.shape(t)[0], -1, heads, d // heads])
        return tf.transpose(t, [0, 2, 1, 3])

    @tf.function(input_signature=[tf.TensorSpec([None, 7, d], name="x"),
                                  tf.TensorSpec([None, 7], tf.bool, name="mask")])
    def block(x, mask):
        q = split_heads(tf.einsum("btd,de->bte", x, weights["q"]))
        k = split_heads(tf.einsum("btd,de->bte", x, weights["k"]))
        v = split_heads(tf.matmul(x, weights["v"]))
        scores = tf.matmul(q, k, transpose_b=True) / np.float32(np.sqrt(d // heads))
        scores = tf.where(mask[:, None, None, :], scores, tf.fill(tf.shape(scores), -1e9))
        context = tf.transpose(tf.matmul(tf.nn.softmax(scores, axis=-1), v), [0, 2, 1, 3])
        context = tf.reshape(context, [-1, 7, d])
        h = _layer_norm(x + tf.matmul(context, weights["o"]), gamma, beta)
        return _layer_norm(h + tf.matmul(tf.nn.gelu(tf.matmul(h, ff1)) if hasattr(tf.nn, "gelu")
                                         else tf.nn.relu(tf.matmul(h, ff1)), ff2), gamma, beta)

    proto = wonnx.from_function(block)
    assert [i.name for i in proto.graph.input] == ["x", "mask"]
    assert_matches(proto, block, lambda b: [floats(7, d)(b), RNG.uniform(size=(b, 7)) > 0.3],
                   atol=1e-5)


# -- ops ------------------------------------------------------------------------------------------
def positive(*shape):
    return floats(*shape, low=0.2, high=2.0)


def unit(*shape):
    return floats(*shape, low=-0.9, high=0.9)


UNARY = {
    "abs": tf.abs, "neg": tf.negative, "exp": tf.exp, "expm1": tf.math.expm1, "sin": tf.sin,
    "cos": tf.cos, "tan": tf.tan, "tanh": tf.tanh, "sigmoid": tf.sigmoid, "sign": tf.sign,
    "square": tf.square, "floor": tf.floor, "ceil": tf.math.ceil, "round": tf.round,
    "sinh": tf.sinh, "cosh": tf.cosh, "atan": tf.atan, "asinh": tf.asinh, "erf": tf.math.erf,
    "relu": tf.nn.relu, "relu6": lambda x: tf.nn.relu6(x * 4.0), "elu": tf.nn.elu,
    "selu": tf.nn.selu, "softplus": tf.nn.softplus, "softsign": tf.math.softsign,
    "leaky_relu": lambda x: tf.nn.leaky_relu(x, 0.3), "identity": tf.identity,
    "stop_gradient": tf.stop_gradient,
}
UNARY_POSITIVE = {"log": tf.math.log, "log1p": tf.math.log1p, "sqrt": tf.sqrt,
                  "rsqrt": tf.math.rsqrt, "reciprocal": tf.math.reciprocal,
                  "acosh": lambda x: tf.acosh(x + 1.0)}
UNARY_UNIT = {"asin": tf.asin, "acos": tf.acos, "atanh": tf.atanh}


@pytest.mark.parametrize("name", sorted(UNARY) + sorted(UNARY_POSITIVE) + sorted(UNARY_UNIT))
def test_elementwise_unary(name):
    fn = {**UNARY, **UNARY_POSITIVE, **UNARY_UNIT}[name]
    make = positive if name in UNARY_POSITIVE else unit if name in UNARY_UNIT else floats
    assert_matches(wonnx.from_function(fn, [spec(3, 4)]), fn, lambda b: [make(3, 4)(b)])


BINARY = {
    "add": tf.add, "sub": tf.subtract, "mul": tf.multiply, "div": tf.divide,
    "maximum": tf.maximum, "minimum": tf.minimum, "squared": lambda x, y: tf.square(x - y),
    "floordiv": tf.math.floordiv, "floormod": tf.math.floormod,
    "pow": lambda x, y: tf.pow(tf.abs(x) + 0.5, y),
    "compare": lambda x, y: [tf.equal(x, y), tf.not_equal(x, y), tf.less(x, y),
                             tf.less_equal(x, y), tf.greater(x, y), tf.greater_equal(x, y)],
    "logical": lambda x, y: [tf.logical_and(x > 0, y > 0), tf.logical_or(x > 0, y > 0),
                             tf.math.logical_xor(x > 0, y > 0), tf.logical_not(x > y)],
    "where": lambda x, y: tf.where(x > y, x, y * 2.0),
    "clip": lambda x, y: tf.clip_by_value(x, -0.5, tf.abs(y)),
    "add_n": lambda x, y: tf.add_n([x, y * x, x]),
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_elementwise_binary_with_broadcasting(name):
    fn = BINARY[name]
    assert_matches(wonnx.from_function(fn, [spec(3, 4), spec(1, 4)]), fn,
                   lambda b: [floats(3, 4)(b), floats(1, 4, low=0.3)(b)])


def test_integer_floor_division_and_modulo():
    def fn(x, y):
        return tf.math.floordiv(x, y), tf.math.floormod(x, y)
    ints = lambda b: [RNG.integers(-20, 20, (b, 6)).astype(np.int32),  # noqa: E731
                      np.where(RNG.uniform(size=(b, 6)) > 0.5, 3, -4).astype(np.int32)]
    assert_matches(wonnx.from_function(fn, [spec(6, dtype=tf.int32)] * 2), fn, ints)


REDUCTIONS = {
    "sum": lambda x: tf.reduce_sum(x, axis=1), "mean": lambda x: tf.reduce_mean(x, [1, 2]),
    "max": lambda x: tf.reduce_max(x, axis=-1, keepdims=True), "min": tf.reduce_min,
    "prod": lambda x: tf.reduce_prod(x, axis=2),
    "logsumexp": lambda x: tf.reduce_logsumexp(x, axis=1),
    "norm": lambda x: tf.norm(x, axis=-1),
    "any_all": lambda x: [tf.reduce_any(x > 1.0, axis=1), tf.reduce_all(x > -1.5, axis=[1, 2])],
    "argmax": lambda x: [tf.argmax(x, axis=-1), tf.argmin(x, axis=1, output_type=tf.int32)],
    "cumsum": lambda x: [tf.cumsum(x, axis=1), tf.cumsum(x, axis=2, exclusive=True,
                                                          reverse=True)],
    "softmax": lambda x: [tf.nn.softmax(x), tf.nn.log_softmax(x, axis=1)],
    "top_k": lambda x: list(tf.math.top_k(x, k=2)),
}


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@pytest.mark.parametrize("opset", [13, 17, 18])
def test_reductions_and_normalizers(name, opset):
    fn = REDUCTIONS[name]
    proto = wonnx.from_function(fn, [spec(3, 4)], opset=opset)
    assert proto.opset_import[0].version == opset
    assert_matches(proto, fn, lambda b: [floats(3, 4)(b)])


SHAPES = {
    "reshape": lambda x: tf.reshape(x, [-1, 12]),
    "reshape_dynamic": lambda x: tf.reshape(x, [tf.shape(x)[0], 2, 6]),
    "transpose": lambda x: tf.transpose(x, [2, 0, 1]),
    "concat": lambda x: tf.concat([x, x * 2.0], axis=-1),
    "split": lambda x: tf.split(x, 2, axis=2),
    "split_sizes": lambda x: tf.split(x, [1, -1], axis=1),
    "stack_unstack": lambda x: tf.stack(tf.unstack(x, axis=1)[::-1], axis=2),
    "expand_squeeze": lambda x: tf.squeeze(tf.expand_dims(x, 1), axis=1) + 0.0,
    "slices": lambda x: [x[:, 1], x[..., ::-2], x[:, None, 1:, -1], x[0], x[:, -1:, 1::2]],
    "slice_op": lambda x: tf.slice(x, [0, 1, 0], [-1, 2, 3]),
    "reverse": lambda x: tf.reverse(x, [1, 2]),
    "pad": lambda x: tf.pad(x, [[0, 0], [1, 2], [0, 1]], constant_values=0.5),
    "mirror_pad": lambda x: tf.pad(x, [[0, 0], [1, 1], [2, 0]], mode="REFLECT"),
    "tile": lambda x: tf.tile(x, [1, 2, 1]),
    "broadcast": lambda x: tf.broadcast_to(x[:, :1, :], tf.shape(x)),
    "fill_like": lambda x: [tf.zeros_like(x), tf.ones_like(x), tf.fill(tf.shape(x), 3.0)],
    "gather": lambda x: [tf.gather(x, [2, 0, 2], axis=1), tf.gather(x, [1, 0], axis=-1)],
    "gather_nd": lambda x: tf.gather_nd(x[:, :, 0], [[0, 1], [1, 2]]),
    "one_hot": lambda x: tf.one_hot(tf.argmax(x, axis=-1), 4, on_value=2.0, off_value=-1.0),
    "cast_shape": lambda x: [tf.cast(x * 3.0, tf.int32), tf.shape(x), tf.size(x), tf.rank(x)],
    "range": lambda x: tf.cast(tf.range(tf.shape(x)[1]), tf.float32) + x[0, :, 0],
    "matmul": lambda x: [tf.matmul(x[:, 0], x[:, 1], transpose_b=True),
                         tf.matmul(x, x, transpose_a=True)],
    "einsum": lambda x: [tf.einsum("bij,bkj->bik", x, x), tf.einsum("bij->bj", x)],
    # sizes known only when the graph runs (the batch): bounds and sizes read from tensors
    "runtime_slices": lambda x: [x[tf.shape(x)[0] - 1], x[:, 1, :tf.shape(x)[0] - 1],
                                 tf.slice(x, [tf.shape(x)[0] - 2, 0, 1], [-1, 2, 2])],
    "runtime_sizes": lambda x: [tf.tile(x[:1], [tf.shape(x)[0], 1, 1]),
                                tf.one_hot(tf.argmax(x[0], axis=-1), tf.shape(x)[0])],
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_shape_and_indexing_ops(name):
    fn = SHAPES[name]
    assert_matches(wonnx.from_function(fn, [spec(3, 4)]), fn, lambda b: [floats(3, 4)(b)])


def test_where_with_one_argument_gives_indices():
    def fn(x):
        return tf.where(x > 0.5)
    assert_matches(wonnx.from_function(fn, [spec(3, 4)]), fn, lambda b: [floats(3, 4)(b)])


@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
def test_raw_convolutions_and_pools(data_format):
    w = tf.constant(RNG.normal(size=(3, 3, 2, 4)).astype(np.float32))
    dw = tf.constant(RNG.normal(size=(2, 2, 2, 3)).astype(np.float32))
    strides = [1, 1, 2, 2] if data_format == "NCHW" else [1, 2, 2, 1]
    ksize = [1, 1, 3, 3] if data_format == "NCHW" else [1, 3, 3, 1]

    def fn(x):
        out = [tf.nn.conv2d(x, w, strides, "SAME", data_format=data_format),
               tf.nn.conv2d(x, w, 1, "VALID", data_format=data_format, dilations=2),
               tf.nn.max_pool2d(x, ksize, strides, "SAME", data_format=data_format),
               tf.nn.avg_pool2d(x, ksize, strides, "SAME", data_format=data_format)]
        if data_format == "NHWC":
            out.append(tf.nn.depthwise_conv2d(x, dw, [1, 1, 1, 1], "SAME"))
            out.append(tf.nn.conv2d(x, w, 1, [[0, 0], [1, 0], [2, 1], [0, 0]]))
        return out
    shape = (2, 9, 8) if data_format == "NCHW" else (9, 8, 2)
    assert_matches(wonnx.from_function(fn, [spec(*shape)]), fn, lambda b: [floats(*shape)(b)],
                   atol=1e-5)


def test_fused_batch_norm_in_inference():
    scale, offset = np.float32([1.5, 0.5]), np.float32([0.1, -0.2])
    mean, var = np.float32([0.3, -0.1]), np.float32([2.0, 0.5])

    def fn(x):
        y, _, _ = tf.compat.v1.nn.fused_batch_norm(x, scale, offset, mean, var, epsilon=1e-3,
                                                   is_training=False)
        return y
    assert_matches(wonnx.from_function(fn, [spec(4, 4, 2)]), fn, lambda b: [floats(4, 4, 2)(b)])


# -- errors, files, signatures --------------------------------------------------------------------
def test_an_op_without_a_lowering_is_named():
    def fn(x):
        return tf.math.lgamma(x) + 1.0
    with pytest.raises(tf.errors.UnimplementedError, match="Lgamma.*no ONNX lowering"):
        wonnx.from_function(fn, [spec(3)])


def test_training_mode_batch_norm_is_refused():
    def fn(x):
        return tf.compat.v1.nn.fused_batch_norm(x, np.ones(2, np.float32),
                                                np.zeros(2, np.float32), is_training=True)[0]
    with pytest.raises(tf.errors.UnimplementedError, match="inference mode"):
        wonnx.from_function(fn, [spec(3, 3, 2)])


def test_output_path_and_signature_names(tmp_path):
    @tf.function(input_signature=[tf.TensorSpec([None, 3], name="features")])
    def f(x):
        return tf.reduce_sum(x * 2.0, axis=1), x + 1.0
    path = tmp_path / "f.onnx"
    proto = wonnx.from_function(f, output_path=str(path))
    loaded = onnx.load(str(path))
    assert [i.name for i in loaded.graph.input] == ["features"]
    assert [o.name for o in loaded.graph.output] == ["output_0", "output_1"]
    assert loaded.SerializeToString() == proto.SerializeToString()
    with pytest.raises(ValueError, match="input_signature"):
        wonnx.from_function(lambda x: x)


def test_plain_function_uses_its_parameter_names():
    def scale(values, factor):
        return values * factor
    proto = wonnx.from_function(scale, [spec(2), tf.TensorSpec([], tf.float32)])
    assert [i.name for i in proto.graph.input] == ["values", "factor"]
    got = run_onnx(proto, [np.ones((3, 2), np.float32), np.array(4.0, np.float32)])[0]
    np.testing.assert_array_equal(got, np.full((3, 2), 4.0, np.float32))


# -- recurrent layers: the fused sequences as ONNX LSTM / GRU ------------------------------------
@pytest.mark.parametrize("make", [
    lambda: K.layers.LSTM(8, return_sequences=True),
    lambda: K.layers.LSTM(6, return_state=True),
    lambda: K.layers.GRU(8, return_sequences=True),
    lambda: K.layers.GRU(5, reset_after=False),
    lambda: K.layers.GRU(7, return_state=True),
], ids=["lstm-sequences", "lstm-states", "gru-sequences", "gru-reset-before", "gru-states"])
def test_recurrent_layers(make):
    inputs = K.Input((5, 3))
    outputs = make()(inputs)
    model = K.Model(inputs, outputs)
    proto = wonnx.from_keras(model)
    assert any(node.op_type in ("LSTM", "GRU") for node in proto.graph.node)
    assert_matches(proto, lambda x: model(x, training=False), lambda b: [floats(5, 3)(b)],
                   rtol=1e-5, atol=1e-5)


def test_a_masked_recurrent_layer_is_refused_by_name():
    tokens = K.Input((6,), dtype=tf.int32)
    hidden = K.layers.LSTM(4)(K.layers.Embedding(20, 3, mask_zero=True)(tokens))
    with pytest.raises(tf.errors.UnimplementedError, match="LSTMSequence.*masked"):
        wonnx.from_keras(K.Model(tokens, hidden))
