"""Arguments wengert used to accept and ignore (issue 32): bad_indices_policy of gather_nd and
the scatters, tridiagonal_solve's perturb_singular, the stateless random `alg`, and
non_max_suppression_padded's sorted_input, canonicalized_coordinates, tile_size and batched
boxes. Each is honoured as TensorFlow 2.21 does, or refused with an error naming it.
TensorFlow's answers are written here as literals (checked by hand in TensorFlow 2.21) so
that CI without TensorFlow checks them.
"""
import numpy as np
import pytest

import wengert as tf

C = tf.constant


# -- bad_indices_policy -------------------------------------------------------------------------
def test_gather_nd_ignore_gives_zeros_for_bad_tuples():
    out = tf.gather_nd(C([[1.0, 2.0], [3.0, 4.0]]), C([[0, 1], [5, 0]]),
                       bad_indices_policy="IGNORE")
    np.testing.assert_array_equal(out.numpy(), [2.0, 0.0])  # TF 2.21: [2., 0.]
    rows = tf.gather_nd(C([[1.0, 2.0], [3.0, 4.0]]), C([[1], [7], [-1]]),
                        bad_indices_policy="IGNORE")
    np.testing.assert_array_equal(rows.numpy(), [[3, 4], [0, 0], [0, 0]])  # TF 2.21


@pytest.mark.parametrize("policy", ["", "DEFAULT", "ERROR"])
def test_gather_nd_raising_policies(policy):
    # TF 2.21: InvalidArgumentError "indices[1] = [5, 0] does not index into param shape [2,2]"
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.gather_nd(C([[1.0, 2.0], [3.0, 4.0]]), C([[0, 1], [5, 0]]),
                     bad_indices_policy=policy)


def test_unknown_bad_indices_policy_is_not_found():
    # TF 2.21: NotFoundError "Could not find device for node: GatherNd[bad_indices_policy=...]"
    with pytest.raises(tf.errors.NotFoundError, match="BOGUS"):
        tf.gather_nd(C([1.0]), C([[0]]), bad_indices_policy="BOGUS")


def test_scatter_nd_ignore_drops_bad_updates():
    out = tf.scatter_nd(C([[0], [5]]), C([1.0, 2.0]), [3], bad_indices_policy="IGNORE")
    np.testing.assert_array_equal(out.numpy(), [1.0, 0.0, 0.0])  # TF 2.21: [1., 0., 0.]
    out = tf.scatter_nd(C([[0, 1], [2, 0], [1, 1]]), C([1.0, 2.0, 3.0]), [2, 2],
                        bad_indices_policy="IGNORE")
    np.testing.assert_array_equal(out.numpy(), [[0, 1], [0, 3]])  # TF 2.21
    with pytest.raises(tf.errors.InvalidArgumentError):  # TF 2.21: ... does not index into
        tf.scatter_nd(C([[0], [5]]), C([1.0, 2.0]), [3], bad_indices_policy="ERROR")


def test_tensor_scatter_ignore_drops_bad_updates():
    out = tf.tensor_scatter_nd_add(C([1.0, 1.0, 1.0]), C([[0], [5]]), C([1.0, 2.0]),
                                   bad_indices_policy="IGNORE")
    np.testing.assert_array_equal(out.numpy(), [2.0, 1.0, 1.0])  # TF 2.21: [2., 1., 1.]
    out = tf.tensor_scatter_nd_max(C([1.0, 1.0, 1.0]), C([[2], [-1]]), C([5.0, 9.0]),
                                   bad_indices_policy="IGNORE")
    np.testing.assert_array_equal(out.numpy(), [1.0, 1.0, 5.0])  # TF 2.21: [1., 1., 5.]
    out = tf.raw_ops.TensorScatterUpdate(tensor=C([1.0, 1.0, 1.0]), indices=C([[2], [3]]),
                                         updates=C([5.0, 9.0]), bad_indices_policy="IGNORE")
    np.testing.assert_array_equal(out.numpy(), [1.0, 1.0, 5.0])  # TF 2.21: [1., 1., 5.]


def test_ignore_policy_in_a_graph():
    g = tf.Graph()
    with g.as_default():
        p = tf.compat.v1.placeholder(tf.int32, [None, 1])
        gathered = tf.gather_nd(C([[1.0, 2.0], [3.0, 4.0]]), p, bad_indices_policy="IGNORE")
        scattered = tf.scatter_nd(p, tf.ones([2]), [3], bad_indices_policy="IGNORE")
        with tf.compat.v1.Session(graph=g) as sess:
            a, b = sess.run([gathered, scattered], {p: [[1], [7]]})
    np.testing.assert_array_equal(a, [[3, 4], [0, 0]])
    np.testing.assert_array_equal(b, [0, 1, 0])


def test_gather_nd_ignore_with_batch_dims_is_not_implemented():
    with pytest.raises(NotImplementedError, match="bad_indices_policy='IGNORE'.*batch_dims"):
        tf.gather_nd(C([[1.0, 2.0]]), C([[0]]), batch_dims=1, bad_indices_policy="IGNORE")


# -- tridiagonal_solve(perturb_singular=...) ---------------------------------------------------
_DIAGONALS = C([[1.0, 1.0, 0.0], [4.0, 4.0, 4.0], [0.0, 1.0, 1.0]])
_RHS = C([[1.0], [2.0], [3.0]])


def test_perturb_singular_solves_a_nonsingular_system_as_without():
    out = tf.linalg.tridiagonal_solve(_DIAGONALS, _RHS, perturb_singular=True)
    # TF 2.21: [[0.17857143], [0.2857143], [0.6785714]]
    np.testing.assert_allclose(out.numpy(), [[0.17857143], [0.2857143], [0.6785714]],
                               rtol=1e-6)


def test_perturb_singular_needs_partial_pivoting():
    # TF 2.21: ValueError "partial_pivoting must be True if perturb_singular is."
    with pytest.raises(ValueError, match="partial_pivoting must be True if perturb_singular"):
        tf.linalg.tridiagonal_solve(_DIAGONALS, _RHS, perturb_singular=True,
                                    partial_pivoting=False)


def test_perturb_singular_of_a_singular_matrix_is_not_implemented():
    singular = C([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    with pytest.raises(NotImplementedError, match="perturb_singular=True"):
        tf.linalg.tridiagonal_solve(singular, C([[1.0], [2.0]]), perturb_singular=True)


# -- stateless random alg ----------------------------------------------------------------------
@pytest.mark.parametrize("fn", [tf.random.stateless_uniform, tf.random.stateless_normal,
                                tf.random.stateless_truncated_normal])
def test_philox_and_auto_select_draw_the_same(fn):
    # TF 2.21 on a CPU: alg="philox", 1, "auto_select", 3 give one sequence
    base = fn([3], seed=[1, 2]).numpy()
    for alg in ["philox", 1, "auto_select", 3, tf.random.Algorithm.PHILOX]:
        np.testing.assert_array_equal(fn([3], seed=[1, 2], alg=alg).numpy(), base)


@pytest.mark.parametrize("alg", ["threefry", 2])
def test_threefry_is_refused_as_on_tensorflows_cpu(alg):
    # TF 2.21: InvalidArgumentError "counter must be a vector with length at least 2"
    with pytest.raises(tf.errors.InvalidArgumentError, match="alg="):
        tf.random.stateless_uniform([3], seed=[1, 2], alg=alg)


def test_unknown_alg_is_a_value_error():
    # TF 2.21: ValueError "Argument `alg` got unsupported value bogus. Supported values are ..."
    with pytest.raises(ValueError, match="unsupported value 'bogus'"):
        tf.random.stateless_normal([3], seed=[1, 2], alg="bogus")


# -- non_max_suppression_padded -----------------------------------------------------------------
_BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                   [0, 10.1, 1, 11.1], [0, 100, 1, 101]], np.float32)
_SCORES = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3], np.float32)


def _nms(boxes=_BOXES, scores=_SCORES, size=3, **kwargs):
    idx, valid = tf.image.non_max_suppression_padded(C(boxes), C(scores), size, 0.5, **kwargs)
    return idx.numpy().tolist(), valid.numpy().tolist()


def test_nms_padded_one_image():
    assert _nms() == ([3, 0, 5], 3)  # TF 2.21
    assert _nms(size=5, pad_to_max_output_size=True) == ([3, 0, 5, 0, 0], 3)  # TF 2.21
    assert _nms(size=6, score_threshold=0.55, pad_to_max_output_size=True) == (
        [3, 0, 0, 0, 0, 0], 2)  # TF 2.21


def test_nms_padded_sorted_input_selects_in_the_given_order():
    assert _nms(pad_to_max_output_size=True, sorted_input=True) == ([0, 3, 5], 3)  # TF 2.21


def test_nms_padded_tile_size_and_corner_order_do_not_change_the_result():
    assert _nms(pad_to_max_output_size=True, tile_size=2) == ([3, 0, 5], 3)  # TF 2.21
    flipped = _BOXES[:, [2, 3, 0, 1]]
    assert _nms(flipped, pad_to_max_output_size=True) == ([3, 0, 5], 3)  # TF 2.21


def test_nms_padded_batched_boxes():
    boxes = np.stack([_BOXES, _BOXES[::-1]])
    scores = np.stack([_SCORES, _SCORES])
    assert _nms(boxes, scores, 4, pad_to_max_output_size=True) == (
        [[3, 0, 5, 0], [3, 0, 1, 0]], [3, 3])  # TF 2.21
    assert _nms(_BOXES[None, None], _SCORES[None, None], 2, pad_to_max_output_size=True) == (
        [[[3, 0]]], [[2]])  # TF 2.21: batch dimensions [1, 1]


def test_nms_padded_batched_boxes_need_padding():
    # TF 2.21: ValueError "'pad_to_max_output_size' (value False) must be True for batched input"
    with pytest.raises(ValueError, match="must be True for batched input"):
        _nms(np.stack([_BOXES, _BOXES]), np.stack([_SCORES, _SCORES]), 4)


def test_nms_padded_refuses_non_canonical_boxes_said_canonical():
    with pytest.raises(NotImplementedError, match="canonicalized_coordinates=True"):
        _nms(_BOXES[:, [2, 3, 0, 1]], canonicalized_coordinates=True)
    assert _nms(canonicalized_coordinates=True) == ([3, 0, 5], 3)
