"""TensorFlow 1's top-level names in `tf.compat.v1`: the names TensorFlow 2 moved (each the same
object as its TensorFlow 2 name), the `to_*` casts, `div`, `arg_max`, the v1 assertions with
`data`, v1 dimensions (`x.get_shape()[1].value`, shapes printed `(?, 3)`), session options
(byte-equal to TensorFlow's protos), logging and versions; values against TensorFlow 2.21."""
import logging

import numpy as np
import pytest

import wengert as tf
import wengert.compat.v1 as v1
from tf_ops_reference import TFCase, check, run_tf_or_skip
from wengert.compat.v1.renamed import RENAMED

RNG = np.random.default_rng(5)
X = RNG.standard_normal((3, 4))
INTS = np.array([7, -7, 9, -1], np.int32)

CASES = [
    TFCase("div_ints", "tf.compat.v1.div(x0, np.int32(2))", lambda x: v1.div(x, np.int32(2)),
           [INTS]),
    TFCase("div_floats", "tf.compat.v1.div(x0, 2.)", lambda x: v1.div(x, 2.), [X], wrt=(0,)),
    TFCase("floor_div", "tf.compat.v1.floor_div(x0, np.int32(3))",
           lambda x: v1.floor_div(x, np.int32(3)), [INTS]),
    TFCase("arg_max", "tf.compat.v1.arg_max(x0, 1)", lambda x: v1.arg_max(x, 1), [X]),
    TFCase("arg_min", "tf.compat.v1.arg_min(x0, 0, output_type=tf.int32)",
           lambda x: v1.arg_min(x, 0, output_type=tf.int32), [X]),
    TFCase("to_int32", "tf.compat.v1.to_int32(x0 * 3)", lambda x: v1.to_int32(x * 3), [X]),
    TFCase("to_double", "tf.compat.v1.to_double(x0)",
           lambda x: v1.to_double(x), [X.astype(np.float32)]),
    TFCase("clip_by_average_norm", "tf.compat.v1.clip_by_average_norm(x0, 0.1)",
           lambda x: v1.clip_by_average_norm(x, 0.1), [X.astype(np.float32)], wrt=(0,)),
    TFCase("batch_gather", "tf.compat.v1.batch_gather(x0, [[3, 0], [1, 1], [2, 0]])",
           lambda x: v1.batch_gather(x, [[3, 0], [1, 1], [2, 0]]), [X], wrt=(0,)),
    TFCase("bincount", "tf.compat.v1.bincount(x0, minlength=6)",
           lambda x: v1.bincount(x, minlength=6), [np.array([1, 1, 3, 0], np.int32)]),
    TFCase("confusion_matrix", "tf.compat.v1.confusion_matrix(x0, x0[::-1], 4, tf.float32)",
           lambda x: v1.confusion_matrix(x, x[::-1], 4, tf.float32),
           [np.array([0, 1, 3, 3], np.int64)]),
    TFCase("depth_to_space", "tf.compat.v1.depth_to_space(x0, 2)",
           lambda x: v1.depth_to_space(x, 2), [RNG.standard_normal((1, 2, 2, 4))], wrt=(0,)),
    TFCase("batch_to_space_nd", "tf.compat.v1.batch_to_space_nd(x0, [2, 2], [[0, 0], [0, 1]])",
           lambda x: v1.batch_to_space_nd(x, [2, 2], [[0, 0], [0, 1]]),
           [RNG.standard_normal((4, 1, 2, 1))], wrt=(0,)),
    TFCase("extract_image_patches",
           "tf.compat.v1.extract_image_patches(x0, ksizes=[1, 2, 2, 1], strides=[1, 1, 1, 1], "
           "rates=[1, 1, 1, 1], padding='VALID')",
           lambda x: v1.extract_image_patches(x, ksizes=[1, 2, 2, 1], strides=[1, 1, 1, 1],
                                              rates=[1, 1, 1, 1], padding="VALID"),
           [RNG.standard_normal((1, 3, 3, 2))], wrt=(0,)),
    TFCase("string_to_number", "tf.compat.v1.string_to_number(x0, out_type=tf.int32)",
           lambda x: v1.string_to_number(x, out_type=tf.int32), [np.array([b"12", b"-3"])]),
    TFCase("reduce_join", "tf.strings.to_number(tf.compat.v1.reduce_join(x0, "
           "reduction_indices=1, separator='0'))",
           lambda x: tf.strings.to_number(v1.reduce_join(x, reduction_indices=1, separator="0")),
           [np.array([[b"1", b"2"], [b"3", b"4"]])]),
    TFCase("matrix_inverse", "tf.compat.v1.matrix_inverse(x0)",
           lambda x: v1.matrix_inverse(x), [X[:3, :3] + 3 * np.eye(3)], wrt=(0,)),
    TFCase("unsorted_segment_sum", "tf.compat.v1.unsorted_segment_sum(x0, [0, 2, 0], 3)",
           lambda x: v1.unsorted_segment_sum(x, [0, 2, 0], 3), [X], wrt=(0,)),
]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_tensorflow(case, tf_results):
    check(case, tf_results[case.name])


def test_every_renamed_name_is_its_tensorflow_2_object():
    for old, new in RENAMED.items():
        value = tf
        for part in new.split("."):
            value = getattr(value, part)
        assert getattr(v1, old) is value, old
    assert "cholesky" in dir(v1)


def test_random_names_take_tensorflow_1_arguments():
    draws = v1.multinomial([[0., 0., 50.]], 5, seed=3, output_dtype=tf.int32)
    assert draws.dtype == tf.int32 and draws.numpy().tolist() == [[2] * 5]
    counts = v1.random_poisson([1., 4.], [1000], seed=2)
    assert counts.shape == (1000, 2)
    np.testing.assert_allclose(counts.numpy().mean(axis=0), [1., 4.], rtol=0.15)


def test_set_random_seed_seeds_the_graph_being_built():
    graph = tf.Graph()
    with graph.as_default():
        v1.set_random_seed(7)
        assert graph.seed == 7 and v1.get_seed(None)[0] == 7


def test_assertions_show_their_data_in_graphs():
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None])
        checked = v1.assert_positive(x, [x, "is not positive"], message="x:")
        with v1.Session() as sess:
            sess.run(checked, {x: [1., 2.]})
            with pytest.raises(tf.errors.InvalidArgumentError, match="x:\n.*-1.*\nis not pos"):
                sess.run(checked, {x: [1., -1.]})
    with pytest.raises(tf.errors.InvalidArgumentError, match="too far"):
        v1.assert_near(tf.constant([1.]), tf.constant([1.5]), data=["too far"])
    v1.assert_equal(tf.constant([2]), tf.constant([2]), data=["never shown"])
    with pytest.raises(ValueError, match=r"rank in \(1, 2\)"):
        v1.assert_rank_in(tf.zeros([2, 2, 2]), [1, 2])


def test_v1_dimensions_and_printed_shapes():
    shape = tf.TensorShape([None, 3])
    assert str(shape) == "(None, 3)" and shape[1] == 3 and type(shape[1]) is int
    assert [repr(d) for d in shape.dims] == ["Dimension(None)", "Dimension(3)"]
    v1.disable_v2_tensorshape()
    try:
        assert str(shape) == "(?, 3)"
        assert repr(shape) == "TensorShape([Dimension(None), Dimension(3)])"
        assert shape[1].value == 3 and shape[1] * 2 == 6 and shape[0] is None
        assert v1.dimension_value(shape[1]) == 3 and v1.dimension_value(None) is None
        assert v1.dimension_at_index(shape, 0).value is None
    finally:
        v1.enable_v2_tensorshape()
    assert str(shape) == "(None, 3)" and type(shape[1]) is int
    unknown = v1.Dimension(None)
    assert str(unknown) == "?" and (unknown == 3) is None
    with pytest.raises(TypeError, match="unknown Dimension"):
        int(unknown)


# ConfigProto(allow_soft_placement=True, device_count={"GPU": 0},
# intra_op_parallelism_threads=2) with gpu_options.allow_growth, a memory fraction of 0.5 and
# global_jit_level ON_1, as TensorFlow 2.21 serialises it.
TF_CONFIG_BYTES = "0a070a0347505510001002320b09000000000000e03f2001380152041a022801"


def test_session_options_are_tensorflows_protos():
    config = v1.ConfigProto(allow_soft_placement=True, device_count={"GPU": 0},
                            intra_op_parallelism_threads=2)
    config.gpu_options.allow_growth = True
    config.gpu_options.per_process_gpu_memory_fraction = 0.5
    config.graph_options.optimizer_options.global_jit_level = v1.OptimizerOptions.ON_1
    assert config.SerializeToString().hex() == TF_CONFIG_BYTES
    assert v1.ConfigProto.FromString(bytes.fromhex(TF_CONFIG_BYTES)) == config
    options = v1.RunOptions(trace_level=v1.RunOptions.FULL_TRACE)
    assert options.SerializeToString() == b"\x08\x03"
    graph = tf.Graph()
    with graph.as_default():
        total = tf.reduce_sum(tf.constant([1., 2.]))
        with v1.Session(config=config) as sess:
            assert sess.run(total, options=options, run_metadata=v1.RunMetadata()) == 3.


def test_session_refuses_options_of_the_wrong_kind():
    with pytest.raises(TypeError, match="`config` of Session must be a tf.ConfigProto, but got \"dict\""):
        v1.Session(config={"allow_soft_placement": True})
    graph = tf.Graph()
    with graph.as_default(), v1.Session() as sess:
        with pytest.raises(TypeError, match="`options` .* tf.RunOptions"):
            sess.run(tf.constant(1.), options={"trace_level": 3})


def test_switches_scopes_and_versions():
    assert v1.control_flow_v2_enabled()
    v1.disable_control_flow_v2()
    assert not v1.control_flow_v2_enabled()
    v1.enable_control_flow_v2()
    assert v1.executing_eagerly_outside_functions()
    assert v1.VERSION == tf.version.VERSION == "2.21.0"
    graph = tf.Graph()
    with graph.as_default():
        assert not v1.executing_eagerly_outside_functions()
        anchor = tf.constant(0.)
        with v1.op_scope([], "outer"), v1.colocate_with(anchor), v1.container("c") as name:
            assert tf.constant(1.).name == "outer/Const:0" and name == "c"
        with pytest.raises(ValueError, match="ignore_existing=True"):
            with v1.colocate_with(None):
                pass
        assert v1.tables_initializer().name == "init_all_tables"


def test_logging_uses_the_tensorflow_logger():
    # a handler of the test's own on TensorFlow's logger: what reaches the root logger depends on
    # which tests ran before in the same process (pytest's capture handlers live there)
    logger = tf.get_logger()
    assert logger.name == "tensorflow" and v1.logging.get_verbosity() == v1.logging.WARN
    seen = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())
    logger.addHandler(handler)
    try:
        v1.logging.set_verbosity(v1.logging.INFO)
        for step in range(5):
            v1.logging.log_every_n(v1.logging.INFO, "step %d", 2, step)
        v1.logging.info("done")
        v1.logging.debug("below the verbosity")
    finally:
        v1.logging.set_verbosity(v1.logging.WARN)
        logger.removeHandler(handler)
    assert seen == ["step 0", "step 2", "step 4", "done"]


def test_get_logger_sets_up_one_handler_when_threads_ask_at_once():
    import threading
    logger = logging.getLogger("tensorflow")
    saved = logger.handlers[:]
    for h in saved:
        logger.removeHandler(h)
    try:
        barrier = threading.Barrier(8)
        threads = [threading.Thread(target=lambda: (barrier.wait(), tf.get_logger()))
                   for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(logger.handlers) == 1
    finally:
        for h in logger.handlers[:]:
            logger.removeHandler(h)
        for h in saved:
            logger.addHandler(h)


def test_py_func_runs_python_on_values_in_graphs():
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None])
        doubled = v1.py_func(lambda a: (a * 2).astype(np.float32), [x], tf.float32)
        with v1.Session() as sess:
            assert sess.run(doubled, {x: [1., 2.]}).tolist() == [2., 4.]
