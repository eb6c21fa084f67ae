"""TensorFlow 1's signatures in `wengert.compat.v1`: the functions whose TF 1 arguments differ from
TF 2's (`reduce_sum(x, reduction_indices=[1])`, `nn.dropout(h, keep_prob)`, `nn.softmax(x,
dim=1)`, `nn.conv2d(x, filter=W, ...)`, `nn.max_pool(value=...)`, `argmax(y, dimension=1)`,
`expand_dims(x, dim=0)`, `strings.split(source=...)`), run as TF 1 programs (eager execution
disabled, a Session) in wengert and in TensorFlow 2.21's tf.compat.v1 (tf1_scenarios.py,
answers stored), and eagerly where TensorFlow allows. The first scenario is the classic MNIST
softmax tutorial, line by line."""
import numpy as np
import pytest

import wengert as tf
from tf1_scenarios import assert_same, tf_answers, wengert_answers

v1 = tf.compat.v1

MNIST_SOFTMAX = '''
rng = np.random.RandomState(0)
images = (rng.rand(64, 784) * 0.02).astype(np.float32)
labels = np.eye(10, dtype=np.float32)[rng.randint(0, 10, 64)]
x = tf.placeholder(tf.float32, [None, 784])
W = tf.Variable(tf.zeros([784, 10]))
b = tf.Variable(tf.zeros([10]))
y = tf.nn.softmax(tf.matmul(x, W) + b)
y_ = tf.placeholder(tf.float32, [None, 10])
cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)
init = tf.initialize_all_variables()
sess = tf.Session()
sess.run(init)
losses = []
for i in range(8):
    batch_xs, batch_ys = images[8 * i:8 * i + 8], labels[8 * i:8 * i + 8]
    _, loss = sess.run([train_step, cross_entropy], feed_dict={x: batch_xs, y_: batch_ys})
    losses.append(loss)
correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
out["losses"] = np.array(losses)
out["accuracy"] = sess.run(accuracy, feed_dict={x: images, y_: labels})
out["b"] = sess.run(b)
out["W_column_sums"] = sess.run(tf.reduce_sum(W, reduction_indices=0))
sess.close()
'''

DEEP_MNIST = '''
rng = np.random.RandomState(1)
images = rng.rand(4, 784).astype(np.float32)
def weight_variable(shape):
    return tf.Variable(tf.constant(rng.standard_normal(shape).astype(np.float32) * 0.1))
def conv2d(x, W):
    return tf.nn.conv2d(x, W, strides=[1, 1, 1, 1], padding='SAME')
def max_pool_2x2(x):
    return tf.nn.max_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME')
x = tf.placeholder(tf.float32, [None, 784])
x_image = tf.reshape(x, [-1, 28, 28, 1])
h_conv1 = tf.nn.relu(conv2d(x_image, weight_variable([5, 5, 1, 4])) + 0.1)
h_pool1 = max_pool_2x2(h_conv1)
h_pool1_flat = tf.reshape(h_pool1, [-1, 14 * 14 * 4])
h_fc1 = tf.nn.relu(tf.matmul(h_pool1_flat, weight_variable([14 * 14 * 4, 16])))
keep_prob = tf.placeholder(tf.float32)
h_fc1_drop = tf.nn.dropout(h_fc1, keep_prob)
y_conv = tf.nn.softmax(tf.matmul(h_fc1_drop, weight_variable([16, 10])))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out["y_conv"] = sess.run(y_conv, {x: images, keep_prob: 1.0})
    dropped = sess.run(h_fc1_drop / tf.maximum(h_fc1, 1e-30), {x: images, keep_prob: 0.5})
    out["dropout_scales"] = np.unique(np.round(dropped[sess.run(h_fc1, {x: images}) > 0], 4))
'''

SCENARIOS = {
    "mnist_softmax": MNIST_SOFTMAX,
    "deep_mnist": DEEP_MNIST,
    "reductions": '''
x = tf.constant(np.arange(1., 13.).reshape(3, 4) - 6.)
b = tf.constant([[True, False], [True, True]])
with tf.Session() as sess:
    for fn in ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
               "reduce_logsumexp"]:
        out[fn] = sess.run(getattr(tf, fn)(x, reduction_indices=[1]))
        out[fn + "_keep"] = sess.run(getattr(tf, fn)(x, 0, keep_dims=True))
        out["math_" + fn] = sess.run(getattr(tf.math, fn)(x, reduction_indices=0, keep_dims=True))
    out["all"] = sess.run(tf.reduce_all(b, reduction_indices=1))
    out["any"] = sess.run(tf.reduce_any(b, reduction_indices=[0], keep_dims=True))
    out["count_nonzero"] = sess.run(tf.count_nonzero(x, reduction_indices=1, keep_dims=True))
    out["count_nonzero_input"] = sess.run(tf.math.count_nonzero(input=x))
    out["argmax"] = sess.run(tf.argmax(x, dimension=1))
    out["argmax_default_axis"] = sess.run(tf.argmax(x))
    out["argmin"] = sess.run(tf.math.argmin(x, dimension=0, output_type=tf.int32))
    out["norm"] = sess.run(tf.norm(x, axis=1, keep_dims=True))
    out["linalg_norm"] = sess.run(tf.linalg.norm(x, keep_dims=True))
out["both_axes"] = error_of(lambda: tf.reduce_sum(x, axis=1, reduction_indices=1))
out["both_keepdims"] = error_of(lambda: tf.reduce_mean(x, keepdims=True, keep_dims=True))
out["both_argmax"] = error_of(lambda: tf.argmax(x, axis=1, dimension=1))
''',
    "nn": '''
logits = tf.constant([[1., 2., 3.], [1., -1., 0.5]])
labels = tf.constant([[0., 0., 1.], [0.5, 0.5, 0.]])
x = tf.constant(np.arange(24.).reshape(2, 3, 4) / 10)
xent_v1 = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
xent_v2 = tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits, dim=1)
with tf.Session() as sess:
    out["softmax"] = sess.run(tf.nn.softmax(logits, dim=0))
    out["softmax_positional"] = sess.run(tf.nn.softmax(logits, 0))
    out["math_softmax"] = sess.run(tf.math.softmax(logits, dim=1))
    out["log_softmax"] = sess.run(tf.nn.log_softmax(logits, dim=0))
    out["xent_v1"] = sess.run(xent_v1)
    out["xent_v2"] = sess.run(xent_v2)
    out["xent_v1_label_grad"] = str(tf.gradients(xent_v1, labels)[0])
    out["xent_v2_label_grad"] = sess.run(tf.gradients(xent_v2, labels)[0])
    out["weighted_xent"] = sess.run(tf.nn.weighted_cross_entropy_with_logits(
        targets=labels, logits=logits, pos_weight=2.))
    mean, var = tf.nn.moments(x, [0, 1], keep_dims=True)
    out["moments_mean"], out["moments_var"] = sess.run([mean, var])
    count, s, ss, _ = tf.nn.sufficient_statistics(x, [1], None, True)
    out["suff_count"], out["suff_sum"], out["suff_sq"] = sess.run([count, s, ss])
    wm, wv = tf.nn.weighted_moments(x, [2], tf.constant([1., 2., 0., 1.]), keep_dims=True)
    out["wmoments"] = np.concatenate(sess.run([wm, wv]), -1)
    out["in_top_k"] = sess.run(tf.nn.in_top_k(logits, [2, 1], 1))
    out["math_in_top_k"] = sess.run(tf.math.in_top_k(logits, [2, 2], 2))
    out["dropout_keep_1"] = sess.run(tf.nn.dropout(x, 1.0))
    out["dropout_keep_prob_1"] = sess.run(tf.nn.dropout(x, keep_prob=1))
    kept = sess.run(tf.nn.dropout(tf.ones([1000]), keep_prob=0.25, seed=3))
    out["dropout_values"] = np.unique(kept)
    out["dropout_rate_kw"] = sess.run(tf.nn.dropout(x, rate=0.0))
    out["crelu"] = sess.run(tf.nn.crelu(logits, None, 0))
out["dropout_both"] = error_of(lambda: tf.nn.dropout(x, 0.5, rate=0.5))
out["dropout_neither"] = error_of(lambda: tf.nn.dropout(x))
out["dropout_bad_keep_prob"] = error_of(lambda: tf.nn.dropout(x, "half"))
out["xent_axis_and_dim"] = error_of(
    lambda: tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits, axis=1))
out["xent_missing"] = error_of(lambda: tf.nn.softmax_cross_entropy_with_logits(logits=logits))
out["softmax_both"] = error_of(lambda: tf.nn.softmax(logits, axis=1, dim=1))
''',
    "conv": '''
rng = np.random.RandomState(2)
img = tf.constant(rng.rand(2, 6, 6, 3))
w = tf.constant(rng.rand(3, 3, 3, 4))
seq = tf.constant(rng.rand(2, 7, 3))
w1 = tf.constant(rng.rand(2, 3, 5))
dw = tf.constant(rng.rand(3, 3, 3, 2))
pw = tf.constant(rng.rand(1, 1, 6, 4))
k = tf.constant(rng.rand(2, 2, 3))
scale, offset = tf.constant([1., 2., 3.]), tf.constant([0., 1., 0.])
mean, var = tf.constant([0.5, 0.4, 0.3]), tf.constant([1., 2., 3.])
with tf.Session() as sess:
    out["conv2d"] = sess.run(tf.nn.conv2d(img, w, [1, 1, 1, 1], "SAME", True, "NHWC"))
    out["conv2d_filter_kw"] = sess.run(tf.nn.conv2d(img, filter=w, strides=[1, 2, 2, 1],
                                                    padding="VALID"))
    out["conv2d_filters_kw"] = sess.run(tf.nn.conv2d(img, filters=w, strides=[1, 1, 1, 1],
                                                     padding="VALID", dilations=[1, 2, 2, 1]))
    out["conv1d"] = sess.run(tf.nn.conv1d(value=seq, filters=w1, stride=2, padding="SAME"))
    out["conv1d_input"] = sess.run(tf.nn.conv1d(input=seq, filters=w1, stride=1,
                                                padding="VALID", data_format="NHWC"))
    out["conv2d_transpose"] = sess.run(tf.nn.conv2d_transpose(
        value=img, filter=tf.constant(rng.rand(3, 3, 2, 3)), output_shape=[2, 12, 12, 2],
        strides=[1, 2, 2, 1]))
    out["max_pool"] = sess.run(tf.nn.max_pool(value=img, ksize=[1, 2, 2, 1],
                                              strides=[1, 2, 2, 1], padding="SAME"))
    out["max_pool_input"] = sess.run(tf.nn.max_pool(None, [1, 3, 3, 1], [1, 1, 1, 1], "VALID",
                                                    input=img))
    out["avg_pool"] = sess.run(tf.nn.avg_pool(img, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"))
    out["convolution"] = sess.run(tf.nn.convolution(img, w, "SAME", [1, 1], [2, 2]))
    out["pool"] = sess.run(tf.nn.pool(img, [2, 2], "AVG", "SAME", None, [2, 2]))
    out["depthwise_rate"] = sess.run(tf.nn.depthwise_conv2d(img, dw, [1, 1, 1, 1], "SAME",
                                                            [2, 2]))
    out["separable_rate"] = sess.run(tf.nn.separable_conv2d(img, dw, pw, [1, 1, 1, 1],
                                                            "VALID", rate=[2, 2]))
    out["dilation2d"] = sess.run(tf.nn.dilation2d(img, k, [1, 1, 1, 1], [1, 2, 2, 1], "SAME"))
    out["erosion2d"] = sess.run(tf.nn.erosion2d(img, k, [1, 1, 1, 1], [1, 1, 1, 1], "VALID"))
    pooled, argmax = tf.nn.max_pool_with_argmax(img, [1, 2, 2, 1], [1, 2, 2, 1], "VALID",
                                                Targmax=tf.int32)
    out["argmax_pool"], out["argmax_pool_index"] = sess.run([pooled, argmax])
    out["argmax_pool_dtype"] = argmax.dtype.name
    y, m, v = tf.nn.fused_batch_norm(tf.cast(img, tf.float32), scale, offset, mean, var,
                                     exponential_avg_factor=0.25)
    out["fbn_y"], out["fbn_mean"], out["fbn_var"] = sess.run([y, m, v])
out["conv2d_both"] = error_of(lambda: tf.nn.conv2d(img, w, [1, 1, 1, 1], "SAME", filters=w))
out["argmax_pool_nchw"] = error_of(lambda: tf.nn.max_pool_with_argmax(
    img, [1, 2, 2, 1], [1, 2, 2, 1], "VALID", data_format="NCHW"))
''',
    "arrays": '''
x = tf.constant(np.arange(12).reshape(3, 4))
v = tf.constant([[1.], [2.]])
with tf.Session() as sess:
    out["expand_dims_dim"] = sess.run(tf.expand_dims(x, dim=1)).shape
    out["squeeze_dims"] = sess.run(tf.squeeze(v, squeeze_dims=1))
    out["squeeze_scalar_axis"] = sess.run(tf.squeeze(v, 1))
    out["reverse_sequence"] = sess.run(tf.reverse_sequence(x, [1, 2, 3], seq_dim=1,
                                                           batch_dim=0))
    out["shape_named"] = sess.run(tf.shape(x, "the_shape"))
    out["shape_name"] = tf.shape(x, "the_shape").name
    out["size"] = sess.run(tf.size(x, "the_size", tf.int64))
    out["gather"] = sess.run(tf.gather(x, [2, 0], None, "g", 1))
    out["gather_nd"] = sess.run(tf.gather_nd(x, [[1, 2]], "gnd"))
    out["boolean_mask"] = sess.run(tf.boolean_mask(x, [True, False, True], "bm", 0))
    out["pad"] = sess.run(tf.pad(v, [[1, 0], [0, 1]], "CONSTANT", "p", 7.))
    out["transpose"] = sess.run(tf.transpose(x, [1, 0], "t"))
    out["ones_like"] = sess.run(tf.ones_like(x, tf.float32, "o", False))
    out["zeros_like"] = sess.run(tf.zeros_like(tensor=x))
    out["constant_verified"] = sess.run(tf.constant([1, 2], shape=[2], verify_shape=True))
    out["convert_preferred"] = tf.convert_to_tensor(3, preferred_dtype=tf.int64).dtype.name
    s2b = tf.space_to_batch(tf.reshape(tf.range(16.), [1, 4, 4, 1]), [[0, 0], [0, 0]], 2)
    out["space_to_batch"] = sess.run(s2b)
    out["batch_to_space"] = sess.run(tf.batch_to_space(s2b, [[0, 0], [0, 0]], 2))
    out["nn_space_to_batch"] = sess.run(tf.nn.space_to_batch(
        tf.ones([1, 2, 2, 1]), [[0, 0], [0, 0]], block_size=2))
    out["matmul_grad_hint"] = sess.run(tf.matmul(v, v, transpose_b=True, grad_a=True))
    out["linalg_matmul"] = sess.run(tf.linalg.matmul(v, v, True, grad_b=True))
    out["depth_to_space"] = sess.run(tf.nn.depth_to_space(tf.ones([1, 1, 1, 4]), 2, "d2s"))
    out["cond_fn1_fn2"] = sess.run(tf.cond(tf.constant(True), fn1=lambda: x + 1,
                                           fn2=lambda: x - 1))
    singleton = tf.cond(tf.constant(False), lambda: [x + 1], lambda: [x - 1])
    out["cond_singleton_type"] = type(singleton).__name__
    loop = tf.while_loop(lambda i: i < 5, lambda i: i + 2, [tf.constant(0)])
    out["while_singleton_type"] = type(loop).__name__
    out["while_singleton"] = sess.run(loop)
    same = tf.while_loop(lambda i: i < 5, lambda i: [i + 2], [tf.constant(0)],
                         return_same_structure=True)
    out["while_same_structure_type"] = type(same).__name__
    y = tf.reduce_sum(v * v)
    out["gradients_colocate"] = sess.run(tf.gradients(y, v, colocate_gradients_with_ops=True))
out["expand_dims_none"] = error_of(lambda: tf.expand_dims(x))
out["expand_dims_both"] = error_of(lambda: tf.expand_dims(x, 0, dim=0))
out["constant_unverified"] = error_of(lambda: tf.constant([1, 2], shape=[3],
                                                          verify_shape=True))
out["cond_both"] = error_of(lambda: tf.cond(True, lambda: 1, lambda: 2, fn1=lambda: 3))
out["cond_missing"] = error_of(lambda: tf.cond(True, false_fn=lambda: 2))
''',
    "strings": '''
lines = tf.constant(["hello world", "a b  c", ""])
with tf.Session() as sess:
    sp = sess.run(tf.strings.split(lines))
    out["split_indices"], out["split_shape"] = sp.indices, sp.dense_shape
    out["split_values"] = [v.decode() for v in sp.values]
    sp = sess.run(tf.strings.split(source=lines, sep=" "))
    out["split_source_values"] = [v.decode() for v in sp.values]
    sp = sess.run(tf.strings.split("x,y,z", ","))
    out["split_scalar_indices"] = sp.indices
    rt = tf.strings.split(lines, result_type="RaggedTensor")
    out["split_ragged_splits"] = sess.run(rt.row_splits)
    out["reduce_join"] = [s.decode() for s in sess.run(tf.strings.reduce_join(
        [["a", "b"], ["c", "d"]], reduction_indices=[1], separator="-"))]
    out["reduce_join_keep"] = sess.run(tf.strings.reduce_join(
        [["a", "b"], ["c", "d"]], 0, keep_dims=True)).shape
    out["to_number"] = sess.run(tf.strings.to_number(input=["1.5", "-2"]))
    out["to_hash_bucket"] = sess.run(tf.strings.to_hash_bucket(input=["a", "b"],
                                                               num_buckets=7))
    out["length"] = sess.run(tf.strings.length(["héllo"], "len", "UTF8_CHAR"))
    out["substr"] = [s.decode() for s in sess.run(tf.strings.substr(["hello"], 1, 3, "s"))]
out["split_bad_type"] = error_of(lambda: tf.strings.split(lines, result_type="list"))
out["split_both"] = error_of(lambda: tf.strings.split(lines, source=lines))
''',
    "embeddings_images": '''
rng = np.random.RandomState(3)
table = rng.rand(7, 3).astype(np.float32)
shards_mod = [tf.constant(table[s::3]) for s in range(3)]
shards_div = [tf.constant(table[0:3]), tf.constant(table[3:5]), tf.constant(table[5:7])]
ids = tf.constant([[0, 4], [6, 2]])
sp_ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([1, 5, 3], tf.int64), [2, 2])
looked_up = tf.nn.embedding_lookup(shards_mod, ids)
grads = tf.gradients(tf.reduce_sum(looked_up * tf.constant([1., 2., 3.])), shards_mod)
img = tf.constant(rng.rand(1, 5, 6, 3).astype(np.float32))
sampled = (tf.constant([0, 6], tf.int64), tf.constant([[0.5], [0.25]]), tf.constant([0.5, 0.75]))
inputs = tf.constant(rng.rand(2, 3).astype(np.float32))
labels = tf.constant([[1], [4]], tf.int64)
with tf.Session() as sess:
    out["mod"] = sess.run(looked_up)
    out["mod_grads"] = np.concatenate(sess.run([tf.convert_to_tensor(g) for g in grads]))
    out["div"] = sess.run(tf.nn.embedding_lookup(shards_div, ids, "div", None, True, 0.5))
    out["single"] = sess.run(tf.nn.embedding_lookup(tf.constant(table), ids, "unknown"))
    out["sparse_mod"] = sess.run(tf.nn.embedding_lookup_sparse(shards_mod, sp_ids, None,
                                                               combiner="sum"))
    out["safe_div"] = sess.run(tf.nn.safe_embedding_lookup_sparse(shards_div, sp_ids))
    out["nce_mod"] = sess.run(tf.nn.nce_loss(shards_mod, tf.zeros([7]), labels, inputs, 2, 7,
                                             sampled_values=sampled))
    out["sampled_softmax_div"] = sess.run(tf.nn.sampled_softmax_loss(
        shards_div, tf.zeros([7]), labels, inputs, 2, 7, sampled_values=sampled,
        partition_strategy="div"))
    out["resize_bilinear"] = sess.run(tf.image.resize_bilinear(img, [4, 4], False, "rb", True))
    out["resize_nearest"] = sess.run(tf.image.resize_nearest_neighbor(img, [3, 9], True, "rn"))
    out["resize_bicubic"] = sess.run(tf.image.resize_bicubic(img, [7, 7], False, None, True))
    out["segment_sum"] = sess.run(tf.sparse.segment_sum(tf.constant(table), [0, 2, 3],
                                                        [0, 0, 2], "seg", 4))
    out["segment_mean"] = sess.run(tf.sparse.segment_mean(tf.constant(table), [1, 2], [0, 1]))
    out["bn_global"] = sess.run(tf.nn.batch_norm_with_global_normalization(
        img, tf.constant([0.5, 0.4, 0.3]), tf.constant([1., 2., 3.]), tf.constant([0., 1., 0.]),
        tf.constant([2., 2., 1.]), 0.001, True))
    pooled, rows, cols = tf.nn.fractional_max_pool(img, [1., 1.5, 1.5, 1.], True, False, True, 7,
                                                   1)
    got = sess.run([pooled, rows, cols])
    out["fractional_shapes"] = [str(t.shape) for t in got]
    out["fractional_rows_end"] = [got[1][0], got[1][-1], got[2][0], got[2][-1]]
    pooled, rows, cols = tf.nn.fractional_avg_pool(img, [1., 2., 2., 1.], False, True, True,
                                                   0, 5)
    out["fractional_avg_shape"] = str(sess.run(pooled).shape)
    out["fractional_seed_not_deterministic"] = error_of(lambda: sess.run(
        tf.nn.fractional_max_pool(img, [1., 2., 2., 1.], seed=3))).split(":")[0]
out["bad_strategy"] = error_of(lambda: tf.nn.embedding_lookup(shards_mod, ids, "unknown"))
''',
}


@pytest.fixture(scope="module")
def theirs():
    return tf_answers(SCENARIOS)


@pytest.fixture(autouse=True)
def eager_after():
    yield
    v1.enable_eager_execution()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_tf1_program_agrees_with_tensorflow(name, theirs):
    assert_same(wengert_answers(SCENARIOS[name]), theirs[name])


def test_eager_tf1_spellings():
    x = np.arange(6.).reshape(2, 3)
    assert v1.reduce_sum(x, reduction_indices=[1]).numpy().tolist() == [3., 12.]
    assert v1.reduce_mean(x, 0, keep_dims=True).numpy().tolist() == [[1.5, 2.5, 3.5]]
    assert v1.argmax(x, dimension=1).numpy().tolist() == [2, 2]
    assert v1.nn.dropout(tf.constant(x), 1.0).numpy().tolist() == x.tolist()
    assert v1.nn.in_top_k([[0.1, 0.9], [0.8, 0.2]], [1, 1], 1).numpy().tolist() == [True, False]
    assert v1.expand_dims([1, 2], dim=0).shape == (1, 2)
    assert v1.cond(True, lambda: [tf.constant(1)], lambda: [tf.constant(2)]).numpy() == 1
    assert isinstance(v1.cond(True, lambda: [1], lambda: [2], strict=True), list)
    assert int(v1.while_loop(lambda i: i < 3, lambda i: i + 1, [0])) == 3
    with pytest.raises(ValueError, match="Cannot specify both 'reduction_indices' and 'axis'"):
        v1.reduce_sum(x, axis=1, reduction_indices=1)
    with pytest.raises(ValueError, match="Cannot specify both 'keep_prob' and 'rate'"):
        v1.nn.dropout(tf.constant(x), keep_prob=0.5, rate=0.5)


def test_eager_draw_bounding_boxes_takes_name_before_colors():
    images = np.random.RandomState(4).rand(1, 5, 6, 3).astype(np.float32)
    boxes = np.array([[[0.1, 0.2, 0.8, 0.9]]], np.float32)
    mine = v1.image.draw_bounding_boxes(images, boxes, "boxes", [[1., 0., 0.]])
    np.testing.assert_array_equal(mine, tf.image.draw_bounding_boxes(images, boxes,
                                                                     [[1., 0., 0.]]))


def test_tensorflow_2_keeps_its_signatures():
    with pytest.raises(TypeError):
        tf.reduce_sum([1.], reduction_indices=0)  # pylint: disable=unexpected-keyword-arg
    with pytest.raises(TypeError):
        tf.nn.dropout(tf.ones([2]), keep_prob=0.5)  # pylint: disable=unexpected-keyword-arg
    assert tf.nn.in_top_k([1, 1], [[0.1, 0.9], [0.8, 0.2]], 1).numpy().tolist() == [True, False]
