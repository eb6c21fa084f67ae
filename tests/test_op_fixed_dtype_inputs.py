"""TensorFlow's op inputs of one FIXED dtype (RFFT's int32 fft_length, SparseReshape's int64
indices, LogicalNot's bool x, DecodeBase64's string input), checked as TensorFlow checks them.

The table is every fixed-dtype input of every op type wengert declares that TensorFlow defines
(wengert/framework/op_dtype_constraints.json, TensorFlow 2.21's op definitions), resource handles
and TF1's string_ref accumulator handles left out: wengert holds a resource as an object (a
Variable, a table) or as an int64 handle (a queue's, an accumulator's), never as a tensor of
dtype resource. For each input:
  - tf.raw_ops.<Op> refuses a tensor of another dtype with TensorFlow's error, eagerly
    InvalidArgumentError ("cannot compute RFFT as input #1(zero-based) was expected to be a int32
    tensor but is a int64 tensor") and while a graph is built or a function traced TypeError
    ("Input 'fft_length' of 'RFFT' Op has type int64 that does not match expected type of
    int32"), before anything runs; a tensor of the right dtype passes that check;
  - where the input is one of the wengert OpDef's inputs (the op's inputs are TensorFlow's in
    order, or `tf_inputs` names them), the executor's check refuses it too (eager, graph
    building, tracing), so every path to the op is covered, not only tf.raw_ops.
Where wengert's OpDef takes the input as an attribute instead (LAYOUT below, with the reason),
the raw op's check and the public function's own conversion stand in for the executor's.
Public functions do what TensorFlow's do (CASES: error classes read from TensorFlow 2.21): some
convert the argument to the fixed dtype first (tf.signal.rfft's fft_length: ValueError for an
int64 tensor, TypeError for a float list, a NumPy int64 array is cast), others pass it to the op
(tf.split's axis: the op's InvalidArgumentError).
"""
import inspect
import os
import sys

import numpy as np
import pytest

import wengert as tf
from wengert.framework import op_dtype_constraints as odc
from wengert.framework.execute import execute
from wengert.framework.registry import get_op_def

sys.path.insert(0, os.path.dirname(__file__))
from test_op_dtype_constraints import all_op_types  # noqa: E402

KERNEL_NAMES = {"float32": "float", "float64": "double"}
WRONG = {"int32": "int64", "int64": "int32", "bool": "int32", "string": "int32",
         "float32": "float64", "float64": "float32", "uint64": "int64", "variant": "float32"}


def _fixed_inputs():
    rows = []
    for op_type in all_op_types():
        for position, (param, attr, _, allowed) in enumerate(odc.op_constraints(op_type) or ()):
            if not attr and allowed[0] not in ("resource", "string_ref"):
                rows.append((op_type, param, position, allowed[0]))
    return rows


FIXED = _fixed_inputs()
RAW = set(dir(tf.raw_ops))


def _in_raw_ops(op_type, param):
    return op_type in RAW and param in inspect.signature(getattr(tf.raw_ops, op_type)).parameters


def _mapped(op_type, param):
    """Whether `param` is one of the wengert OpDef's inputs (the executor checks it)."""
    return any(s[0] == param for s in odc._specs(get_op_def(op_type)))


# Fixed-dtype inputs that tf.raw_ops does not reach, with the reason.
NOT_RAW = {("Split", "split_dim"): "wengert's tf.raw_ops has no Split/SplitV (tf.split is "
                                   "checked instead: CASES)",
           ("SplitV", "split_dim"): "as Split"}
# Why an input is not among the wengert OpDef's inputs (the raw op checks it instead).
LAYOUT = {
    "attribute": "wengert takes the value as a static attribute of the op (an fft_length's axes, "
                 "a number of samples, a pattern, a collective's keys), read when the call is "
                 "made: no tensor of it reaches the op",
    "sparse": "wengert's crosses take *inputs of several lists of different lengths (each "
              "SparseTensor's parts, dense and ragged features), not told apart by position",
    "variant": "wengert's TensorList and mutex handles are Python objects, not variant tensors",
    "values": "wengert's op takes other values than TensorFlow's: PrintV2 the tensors to print "
              "(TensorFlow's a string it formatted first), MergeSummary the summaries as *inputs "
              "of a kernel in summary/, not named",
}
LAYOUT_OF = {
    "CollectiveGatherV2": "attribute",
    "CollectiveReduceV2": "attribute", "ConsumeMutexLock.mutex_lock": "variant",
    "TensorListGetItem.input_handle": "variant",
    "TensorListScatterIntoExistingList.input_handle": "variant",
    "FFTND.axes": "attribute", "IFFTND.axes": "attribute", "RFFTND.axes": "attribute",
    "IRFFTND.axes": "attribute", "Multinomial.num_samples": "attribute",
    "StatelessMultinomial.num_samples": "attribute", "ReduceJoin.reduction_indices": "attribute",
    "RegexFullMatch.pattern": "attribute", "RegexReplace.pattern": "attribute",
    "RegexReplace.rewrite": "attribute", "Fingerprint.method": "attribute",
    "StringSplitV2.sep": "attribute", "SparseCrossV2.sep": "attribute",
    "TileGrad.multiples": "attribute", "StatelessShuffle": "attribute",
    "WriteSummary.tag": "attribute", "WriteSummary.summary_metadata": "attribute",
    "SparseReduceMax.reduction_axes": "attribute",
    "SparseReduceMaxSparse.reduction_axes": "attribute",
    "SparseReduceSum.reduction_axes": "attribute",
    "SparseReduceSumSparse.reduction_axes": "attribute",
    "FractionalAvgPoolGrad": "attribute", "FractionalMaxPoolGrad": "attribute",
    "InitializeTableFromTextFileV2.filename": "attribute", "Split": "attribute",
    "SplitV": "attribute", "SparseCross": "sparse", "SparseCrossV2": "sparse",
    "RaggedCross": "sparse", "PrintV2": "values", "MergeSummary": "values",
}


def _layout(op_type, param):
    return LAYOUT_OF.get(f"{op_type}.{param}") or LAYOUT_OF.get(op_type)


def _tensor(dtype):
    if dtype == "string":
        return tf.constant(["a"])
    if dtype == "variant":
        return None
    return tf.constant([1], dtype=getattr(tf, dtype))


def _eager_text(op_type, position, want, have):
    return (rf"{op_type}: cannot compute {op_type} as input #{position}\(zero-based\) was "
            rf"expected to be a {KERNEL_NAMES.get(want, want)} tensor but is a "
            rf"{KERNEL_NAMES.get(have, have)} tensor")


def _graph_text(op_type, param, want, have):
    return (rf"Input '{param}' of '{op_type}' Op has type {have} that does not match expected "
            rf"type of {want}")


def _ids(rows):
    return [f"{r[0]}.{r[1]}" for r in rows]


RAW_ROWS = [r for r in FIXED if _in_raw_ops(r[0], r[1])]
MAPPED_ROWS = [r for r in FIXED if _mapped(r[0], r[1])]


def test_the_table_is_every_fixed_dtype_input():
    assert len(FIXED) == 210  # 253 fixed-dtype inputs: 39 resource, 4 string_ref handles
    names = {f"{r[0]}.{r[1]}": r[3] for r in FIXED}
    assert names["RFFT.fft_length"] == names["IRFFT3D.fft_length"] == "int32"
    assert names["Conv2DBackpropInput.input_sizes"] == "int32"
    assert names["Conv2DBackpropFilter.filter_sizes"] == "int32"
    assert names["SparseReshape.input_indices"] == names["SparseAdd.b_shape"] == "int64"
    assert names["SelectV2.condition"] == "bool" and names["ReadFile.filename"] == "string"
    assert names["InTopKV2.predictions"] == "float32"
    assert names["MatrixSolveLs.l2_regularizer"] == "float64"
    assert names["StatelessShuffle.key"] == "uint64"


def test_every_fixed_input_is_checked_on_some_path():
    unreached = {(r[0], r[1]) for r in FIXED if r not in RAW_ROWS and r not in MAPPED_ROWS}
    assert unreached == set(NOT_RAW)
    assert len(RAW_ROWS) == 208 and len(MAPPED_ROWS) == 163  # the executor: 163 of 210


def test_each_layout_difference_has_a_reason():
    for op_type, param, _, _ in FIXED:
        if not _mapped(op_type, param):
            assert _layout(op_type, param) in LAYOUT, (op_type, param)
    reasons = {key for key in LAYOUT_OF if "." in key}
    reasons |= {f"{r[0]}.{r[1]}" for r in FIXED if r[0] in LAYOUT_OF and not _mapped(r[0], r[1])}
    stale = {f"{r[0]}.{r[1]}" for r in FIXED if _mapped(r[0], r[1])} & reasons
    assert not stale  # an input the executor now checks keeps no reason why it does not


@pytest.mark.parametrize("row", RAW_ROWS, ids=_ids(RAW_ROWS))
def test_raw_ops_refuse_another_dtype_eagerly(row):
    op_type, param, position, want = row
    have = WRONG[want]
    with pytest.raises(tf.errors.InvalidArgumentError, match=_eager_text(op_type, position,
                                                                          want, have)):
        getattr(tf.raw_ops, op_type)(**_arguments(op_type, param, _tensor(have)))


@pytest.mark.parametrize("row", RAW_ROWS, ids=_ids(RAW_ROWS))
def test_raw_ops_refuse_another_dtype_in_a_graph(row):
    op_type, param, _, want = row
    have = WRONG[want]
    g = tf.Graph()
    with g.as_default():
        value = _tensor(have)
        count = len(g.get_operations())
        with pytest.raises(TypeError, match=_graph_text(op_type, param, want, have)):
            getattr(tf.raw_ops, op_type)(**_arguments(op_type, param, value))
        assert len(g.get_operations()) == count  # refused before any op was added


@pytest.mark.parametrize("row", RAW_ROWS, ids=_ids(RAW_ROWS))
def test_raw_ops_pass_the_right_dtype(row):
    op_type, param, _, want = row
    value = _tensor(want)
    if value is None:
        pytest.skip("wengert has no variant tensors of TensorList handles to pass")
    try:
        getattr(tf.raw_ops, op_type)(**_arguments(op_type, param, value))
    except Exception as err:  # the other arguments are placeholders: any other complaint
        assert "does not match expected type" not in str(err)
        assert f"was expected to be a {KERNEL_NAMES.get(want, want)} tensor" not in str(err)


def _arguments(op_type, param, value):
    """`param` set to `value`, every other argument TensorFlow requires None (the dtype check
    comes first, as TensorFlow's does)."""
    params = inspect.signature(getattr(tf.raw_ops, op_type)).parameters
    args = {n: None for n, p in params.items()
            if n != "name" and p.default is inspect.Parameter.empty}
    args[param] = [value] if _is_list(op_type, param) else value
    return args


def _is_list(op_type, param):
    return any(s[0] == param and s[2] == "list" for s in odc.op_constraints(op_type))


def _operands(op_def, param, have):
    """Inputs for the op, one per input it declares, with `param` of dtype `have` and the others
    of dtypes it allows (the check refuses before the kernel runs, so values do not matter)."""
    out = []
    specs = odc._specs(op_def)
    for p, attr, _, allowed in specs:
        if p == param:
            out.append(_tensor(have))
            continue
        dtype = "float32" if allowed is None or allowed[0] in ("resource", "string_ref",
                                                               "variant") else allowed[0]
        out.append(_tensor(dtype))
    return tuple(out)


@pytest.mark.parametrize("row", MAPPED_ROWS, ids=_ids(MAPPED_ROWS))
def test_the_executor_refuses_another_dtype(row):
    op_type, param, position, want = row
    op_def = get_op_def(op_type)
    have = WRONG[want]
    with pytest.raises(tf.errors.InvalidArgumentError, match=_eager_text(op_type, position,
                                                                          want, have)):
        execute(op_def, _operands(op_def, param, have), {})
    g = tf.Graph()
    with g.as_default():
        inputs = _operands(op_def, param, have)
        with pytest.raises(TypeError, match=_graph_text(op_type, param, want, have)):
            execute(op_def, inputs, {})


# -- public functions: TensorFlow 2.21's answers ---------------------------------------------------
def _i64(v):
    return tf.constant(v, tf.int64)


def _cases():
    x4 = tf.constant([1.0, 2.0, 3.0, 4.0])
    x22 = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    c22 = tf.cast(x22, tf.complex64)
    outb, filt = tf.ones([1, 3, 3, 3]), tf.ones([2, 2, 2, 3])
    one = [1, 1, 1, 1]
    v1 = tf.compat.v1
    conv = tf.errors.InvalidArgumentError
    return {
        "rfft fft_length int64": (ValueError, lambda: tf.signal.rfft(x4, _i64([4]))),
        "rfft fft_length float list": (TypeError, lambda: tf.signal.rfft(x4, [4.0])),
        "rfft fft_length NumPy int64": (None, lambda: tf.signal.rfft(x4, np.array([4]))),
        "irfft2d fft_length int64": (ValueError, lambda: tf.signal.irfft2d(c22, _i64([2, 2]))),
        "fftnd axes int64": (ValueError, lambda: tf.signal.fftnd(c22, [2, 2], _i64([0, 1]))),
        "conv2d_transpose output_shape int64": (conv, lambda: tf.nn.conv2d_transpose(
            outb, filt, _i64([1, 4, 4, 2]), strides=1, padding="VALID")),
        "conv2d_backprop_input input_sizes int64": (conv, lambda: v1.nn.conv2d_backprop_input(
            _i64([1, 4, 4, 2]), filt, outb, strides=one, padding="VALID")),
        "conv2d_backprop_filter filter_sizes int64": (conv, lambda: v1.nn.conv2d_backprop_filter(
            tf.ones([1, 4, 4, 2]), _i64([2, 2, 2, 3]), outb, strides=one, padding="VALID")),
        "conv3d_transpose output_shape int64": (None, lambda: tf.nn.conv3d_transpose(
            tf.ones([1, 3, 3, 3, 3]), tf.ones([2, 2, 2, 2, 3]), _i64([1, 4, 4, 4, 2]),
            strides=1, padding="VALID")),
        "one_hot depth int64": (ValueError, lambda: tf.one_hot([0, 1], _i64(3))),
        "split axis int64": (conv, lambda: tf.split(x22, 2, axis=_i64(0))),
        "split sizes axis int64": (conv, lambda: tf.split(x22, [1, 1], axis=_i64(0))),
        "where int32 condition": (ValueError, lambda: tf.where(tf.constant([1, 0]), x22[0],
                                                               x22[1])),
        "logical_and int32": (conv, lambda: tf.logical_and(tf.constant([1]), tf.constant([0]))),
        "logical_not int32": (conv, lambda: tf.logical_not(tf.constant([1]))),
        "in_top_k float64": (conv, lambda: tf.math.in_top_k(
            tf.constant([1]), tf.constant([[0.1, 0.5, 0.3]], tf.float64), 1)),
        "in_top_k NumPy float64": (None, lambda: tf.math.in_top_k(
            np.array([1]), np.array([[0.1, 0.5, 0.3]]), 1)),
        "categorical num_samples int64": (conv, lambda: tf.random.categorical(
            tf.zeros([1, 3]), _i64(2))),
        "stateless_categorical num_samples int64": (ValueError, lambda:
                                                    tf.random.stateless_categorical(
                                                        tf.zeros([1, 3]), _i64(2), [1, 2])),
        "diag k int64": (conv, lambda: tf.linalg.diag(x4, k=_i64(1))),
        "diag num_rows int64": (conv, lambda: tf.linalg.diag(x4, num_rows=_i64(5), k=1)),
        "diag_part k int64": (conv, lambda: tf.linalg.diag_part(x22, k=_i64(0))),
        "set_diag k int64": (ValueError, lambda: tf.linalg.set_diag(x22, [1.0, 1.0],
                                                                    k=_i64(0))),
        "dynamic_partition int64": (conv, lambda: tf.dynamic_partition(
            x4, _i64([0, 1, 0, 1]), 2)),
        "dynamic_stitch int64": (conv, lambda: tf.dynamic_stitch([_i64([0, 1])], [x22])),
        "sobol_sample dim int64": (conv, lambda: tf.math.sobol_sample(_i64(2), 3)),
        "ctc_greedy_decoder sequence_length int64": (conv, lambda: tf.nn.ctc_greedy_decoder(
            tf.ones([2, 1, 3]), _i64([2]))),
        "ctc_beam_search_decoder sequence_length int64": (conv, lambda:
                                                          tf.nn.ctc_beam_search_decoder(
                                                              tf.ones([2, 1, 3]), _i64([2]),
                                                              beam_width=2)),
        "decode_base64 int32": (conv, lambda: tf.io.decode_base64(tf.constant([1]))),
        "strings.length int32": (conv, lambda: tf.strings.length(tf.constant([1]))),
        "read_file int32": (conv, lambda: tf.io.read_file(tf.constant(1))),
        "matching_files int32": (conv, lambda: tf.io.matching_files(tf.constant(1))),
        "encode_wav sample_rate int64": (conv, lambda: tf.audio.encode_wav(
            tf.zeros([4, 1]), _i64(44100))),
        "encode_wav audio float64": (conv, lambda: tf.audio.encode_wav(
            tf.zeros([4, 1], tf.float64), 44100)),
        "unicode_encode int64": (conv, lambda: tf.strings.unicode_encode(_i64([65]), "UTF-8")),
        "reduce_join axis int64": (conv, lambda: tf.strings.reduce_join(["a", "b"],
                                                                        axis=_i64(0))),
        "uniform_candidate_sampler true_classes int32": (conv, lambda:
                                                         tf.random.uniform_candidate_sampler(
                                                             tf.constant([[1]]), 1, 2, True, 5)),
        "compute_accidental_hits true_classes int32": (conv, lambda:
                                                       tf.nn.compute_accidental_hits(
                                                           tf.constant([[1]]), _i64([1, 2]), 1)),
        "switch_case branch_index int64": (None, lambda: tf.switch_case(
            _i64(0), [lambda: x4, lambda: x4])),
    }


CASES = sorted(_cases())


@pytest.mark.parametrize("case", CASES)
def test_public_functions_do_what_tensorflows_do(case):
    error, call = _cases()[case]
    if error is None:
        call()
    else:
        with pytest.raises(error):
            call()


def test_the_right_dtypes_compute_tensorflows_values():
    x = tf.constant([1.0, 2.0, 3.0, 4.0])
    np.testing.assert_allclose(tf.raw_ops.RFFT(input=x, fft_length=tf.constant([4])).numpy(),
                               [10, -2 + 2j, -2], atol=1e-6)
    np.testing.assert_allclose(tf.signal.rfft(x, np.array([4], np.int64)).numpy(),
                               [10, -2 + 2j, -2], atol=1e-6)
    out = tf.raw_ops.SparseReshape(input_indices=tf.constant([[0, 1]], tf.int64),
                                   input_shape=tf.constant([2, 2], tf.int64),
                                   new_shape=tf.constant([4], tf.int64))
    np.testing.assert_array_equal(out[0].numpy(), [[1]])
    np.testing.assert_array_equal(
        tf.raw_ops.LogicalNot(x=tf.constant([True, False])).numpy(), [False, True])
    assert tf.raw_ops.DecodeBase64(input=tf.constant(["aGk"])).numpy().tolist() == [b"hi"]
    grad = tf.compat.v1.nn.conv2d_backprop_input(
        tf.constant([1, 3, 3, 1]), tf.ones([2, 2, 1, 1]), tf.ones([1, 2, 2, 1]),
        strides=[1, 1, 1, 1], padding="VALID")
    np.testing.assert_array_equal(grad.numpy()[0, :, :, 0], [[1, 2, 1], [2, 4, 2], [1, 2, 1]])
    np.testing.assert_array_equal(tf.math.in_top_k(np.array([1]), np.array([[0.1, 0.5, 0.3]]),
                                                   1).numpy(), [True])
    np.testing.assert_array_equal(
        tf.dynamic_stitch([tf.constant([1]), tf.constant([0])],
                          [tf.constant([5.0]), tf.constant([6.0])]).numpy(), [6.0, 5.0])


def test_tracing_refuses_as_graph_building_does():
    f = tf.function(lambda n: tf.raw_ops.RFFT(input=tf.ones([4]), fft_length=n),
                    autograph=False)
    with pytest.raises(TypeError, match=_graph_text("RFFT", "fft_length", "int32", "int64")):
        f(_i64([4]))
    g = tf.function(lambda s: tf.compat.v1.nn.conv2d_backprop_input(
        s, tf.ones([2, 2, 1, 1]), tf.ones([1, 2, 2, 1]), strides=[1, 1, 1, 1],
        padding="VALID"), autograph=False)
    with pytest.raises(TypeError, match=_graph_text("Conv2DBackpropInput", "input_sizes",
                                                    "int32", "int64")):
        g(_i64([1, 3, 3, 1]))
    np.testing.assert_array_equal(g(tf.constant([1, 3, 3, 1])).numpy()[0, :, :, 0],
                                  [[1, 2, 1], [2, 4, 2], [1, 2, 1]])
