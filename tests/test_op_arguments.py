"""Op arguments that TensorFlow 2.21 reads, read here with TensorFlow's effect (each expected
value and error below is what TensorFlow 2.21 gives for the same call), or read and documented
where TensorFlow's own implementation ignores them on a CPU (gather's validate_indices, the
TPU options of approx_max_k, moments' shift, histogram_fixed_width_bins' dtype, the seeds of the
deterministic candidate samplers, use_cudnn_on_gpu)."""
import numpy as np
import pytest

import wengert as tf
import wengert.compat.v1 as v1

DATA = [[1., 2.], [3., 4.], [5., 6.]]


def test_split_num_must_count_the_sizes():
    x = tf.range(6.)
    assert [p.shape[0] for p in tf.split(x, [1, 5], num=2)] == [1, 5]
    assert len(tf.split(x, 3, num=2)) == 3  # with equal parts TensorFlow reads the count
    with pytest.raises(tf.errors.InvalidArgumentError, match="num=3 parts, but size_splits"):
        tf.split(x, [1, 5], num=3)


def test_get_static_value_partial_gives_the_known_part_of_a_stack():
    graph = tf.Graph()
    with graph.as_default():
        p = v1.placeholder(tf.int32, [])
        flat, nested = tf.stack([p, 3]), tf.stack([[p, 3], [4, 5]])
        assert tf.get_static_value(flat) is None
        part = tf.get_static_value(flat, partial=True)
        assert part.dtype == object and part[0] is None and part[1] == 3
        part = tf.get_static_value(nested, partial=True)
        assert part.shape == (2, 2) and part[0, 0] is None and part[0, 1] == 3
        assert part[1].tolist() == [4, 5]
        assert tf.get_static_value(tf.shape(v1.placeholder(tf.float32, [None, 4])),
                                   partial=True) is None
        assert tf.get_static_value(p, partial=True) is None


@pytest.mark.parametrize("call", [
    lambda: tf.matmul(tf.ones([2, 2, 2]), tf.ones([2, 2]), b_is_sparse=True),
    lambda: tf.matmul(tf.ones([2, 2, 2], tf.float64), tf.ones([2, 2, 2], tf.float64),
                      a_is_sparse=True),
    lambda: tf.linalg.matvec(tf.ones([2, 2, 2]), tf.ones([2, 2]), a_is_sparse=True),
])
def test_sparse_hints_refuse_batches_as_tensorflow_does(call):
    with pytest.raises(tf.errors.InvalidArgumentError, match="a_is_sparse / b_is_sparse"):
        call()


def test_sparse_hints_give_the_same_product_of_matrices():
    a = tf.constant([[1., 0.], [0., 2.]])
    assert tf.matmul(a, a, a_is_sparse=True, b_is_sparse=True).numpy().tolist() == [[1, 0],
                                                                                   [0, 4]]
    assert tf.linalg.matvec(a, [1., 1.], a_is_sparse=True).numpy().tolist() == [1., 2.]


@pytest.mark.parametrize("fn, rows", [
    (tf.sparse.segment_sum, [[1., 1.], [2., 2.]]),
    (tf.sparse.segment_mean, [[.5, .5], [1.5, 1.5]]),
    (tf.sparse.segment_sqrt_n, [[.70710677, .70710677], [1.7071068, 1.7071068]]),
])
def test_sparse_gradient_gives_indexed_slices(fn, rows):
    d = tf.constant(DATA)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(d)
        sparse = fn(d, [0, 2, 2], [0, 0, 1], sparse_gradient=True)
        dense = fn(d, [0, 2, 2], [0, 0, 1])
    got = tape.gradient(sparse, d)
    assert isinstance(got, tf.IndexedSlices)
    assert got.indices.numpy().tolist() == [0, 2]
    np.testing.assert_allclose(got.values.numpy(), rows, rtol=1e-6)
    assert list(got.dense_shape.numpy()) == [3, 2]
    np.testing.assert_allclose(tf.convert_to_tensor(got).numpy(),
                               tape.gradient(dense, d).numpy(), rtol=1e-6)


def test_sparse_gradient_indices_ascend_and_num_segments_is_kept():
    d = tf.constant(DATA)
    with tf.GradientTape() as tape:
        tape.watch(d)
        y = tf.sparse.segment_sqrt_n(d, [2, 0, 2], [0, 0, 1], num_segments=3,
                                     sparse_gradient=True)
    got = tape.gradient(y, d)
    assert got.indices.numpy().tolist() == [0, 2]
    np.testing.assert_allclose(got.values.numpy(), [[.70710677] * 2, [1.7071068] * 2],
                               rtol=1e-6)


def test_sample_distorted_bounding_box_seed2_seeds_the_op():
    boxes = tf.constant([[[0.1, 0.1, 0.9, 0.9]]])

    def crops(**seeds):
        tf.random.set_seed(0)
        return [v1.image.sample_distorted_bounding_box([100, 100, 3], boxes, **seeds)[0]
                .numpy().tolist() for _ in range(4)]
    assert crops(seed2=7) == crops(seed2=7)
    assert crops(seed2=7) != crops(seed2=8)


def test_sample_distorted_bounding_box_needs_a_seed_under_op_determinism(monkeypatch):
    from wengert.framework.device import settings
    monkeypatch.setattr(settings, "op_determinism", True)
    with pytest.raises(ValueError, match='requires "seed" or "seed2" to be non-zero'):
        v1.image.sample_distorted_bounding_box([100, 100, 3], tf.constant([[[0., 0., 1., 1.]]]))


@pytest.mark.parametrize("call, expected", [
    # TensorFlow ignores these on a CPU; each call gives the plain call's answer
    (lambda: tf.gather(tf.range(6.), [1, 2], validate_indices=False), [1., 2.]),
    (lambda: tf.argsort([3, 1, 3, 1], stable=False), [1, 3, 0, 2]),
    (lambda: tf.histogram_fixed_width_bins([0.5, 1.5, 2.5, 9.9], [0., 10.], nbins=5,
                                           dtype=tf.int64), [0, 0, 1, 4]),
    (lambda: tf.math.approx_max_k([[1., 5., 3., 2.]], 2, recall_target=0.5,
                                  reduction_input_size_override=100,
                                  aggregate_to_topk=False)[1], [[1, 2]]),
    (lambda: tf.math.approx_min_k([[1., 5., 3., 2.]], 2, recall_target=0.5)[1], [[0, 3]]),
    (lambda: v1.nn.moments(tf.constant([0.5, 1.5, 2.5, 9.9]), [0], shift=100.)[0], 3.6),
    (lambda: tf.random.all_candidate_sampler(tf.constant([[1], [3]], tf.int64), 1, 4, True,
                                             seed=3)[0], [0, 1, 2, 3]),
    (lambda: tf.nn.compute_accidental_hits(tf.constant([[1], [3]], tf.int64),
                                           tf.constant([0, 1, 3], tf.int64), 1, seed=3)[1],
     [1, 2]),
    (lambda: tf.linalg.pinv(tf.constant([[1., 0.], [0., 2.]]), validate_args=True),
     [[1., 0.], [0., .5]]),
    (lambda: tf.linalg.matrix_rank(tf.constant([[1., 0.], [0., 2.]]), validate_args=True), 2),
])
def test_arguments_tensorflow_reads_and_ignores_on_a_cpu(call, expected):
    np.testing.assert_allclose(np.asarray(call()), expected, rtol=1e-6)


def test_conv2d_backprop_use_cudnn_on_gpu_changes_nothing():
    x, w = tf.ones([1, 3, 3, 1]), tf.ones([2, 2, 1, 1])
    dy = tf.ones([1, 2, 2, 1])
    for flag in (True, False):
        f = v1.nn.conv2d_backprop_filter(x, [2, 2, 1, 1], dy, [1, 1, 1, 1], "VALID",
                                         use_cudnn_on_gpu=flag)
        i = v1.nn.conv2d_backprop_input([1, 3, 3, 1], w, dy, [1, 1, 1, 1], "VALID",
                                        use_cudnn_on_gpu=flag)
        assert f.numpy().ravel().tolist() == [4.] * 4
        assert i.numpy().ravel().tolist() == [1., 2., 1., 2., 4., 2., 1., 2., 1.]


def test_check_numerics_cuts_file_paths_as_tensorflow_does():
    tf.debugging.enable_check_numerics(path_length_limit=12)
    try:
        with pytest.raises(tf.errors.InvalidArgumentError) as err:
            tf.math.log(tf.constant([-1.]))
    finally:
        tf.debugging.disable_check_numerics()
        tf.debugging.enable_check_numerics()
        tf.debugging.disable_check_numerics()
    located = [line for line in str(err.value).splitlines() if line.strip().startswith("at ")]
    path = located[0].strip()[len("at "):].split(":")[0]
    assert path.startswith("...") and len(path) == 3 + 12 and __file__.endswith(path[3:])
    with pytest.raises(TypeError, match="path_length_limit must be an int"):
        tf.debugging.enable_check_numerics(path_length_limit="50")


@pytest.mark.parametrize("kwargs, expected", [
    # TensorFlow 2.21's bisection answers to within tol=0.1 (the exact ones are
    # [0.7752552, 2, 3.2247448])
    ({}, [0.7343728, 1.9531249, 3.2656274]),
    ({"select": "i", "select_range": [1, 2]}, [1.9531249, 3.2656274]),
    ({"select": "v", "select_range": [1., 4.]}, [1.984374, 3.2031264]),
])
def test_eigh_tridiagonal_tol_bisects_as_tensorflow_does(kwargs, expected):
    got = tf.linalg.eigh_tridiagonal([1., 2., 3.], [0.5, 0.5], tol=0.1, **kwargs)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)
    values, vectors = tf.linalg.eigh_tridiagonal([1., 2., 3.], [0.5, 0.5], eigvals_only=False,
                                                 tol=0.1, **kwargs)
    np.testing.assert_allclose(values.numpy(), expected, rtol=1e-6)
    assert vectors.shape == [3, len(expected)]


def test_eigh_tridiagonal_tol_in_float64_and_without_tol():
    got = tf.linalg.eigh_tridiagonal(tf.constant([1., 2., 3.], tf.float64),
                                     tf.constant([.5, .5], tf.float64), tol=1e-3)
    np.testing.assert_allclose(got.numpy(), [0.77502441, 1.99963379, 3.22497559], rtol=1e-7)
    np.testing.assert_allclose(tf.linalg.eigh_tridiagonal([1., 2., 3.], [.5, .5]).numpy(),
                               [0.7752552, 2., 3.2247448], rtol=1e-6)
