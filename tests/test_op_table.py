"""Checks every row of the op table (see tests/op_table/__init__.py)."""

import warnings

import numpy as np
import pytest

import wengert as tf
from wengert.autodiff.checker import check_grads
from wengert.framework.context import state
from wengert.framework.registry import registered_op_types
from wengert.framework.tensor import Tensor

import op_table

ROWS = op_table.all_rows()

CASES = [(row, i) for row in ROWS for i in range(len(row.samples))]
IDS = [f"{row.name}-{row.samples[i].name or i}" for row, i in CASES]

# Op types that no row calls directly, with the test that covers them instead.
COVERED_ELSEWHERE = {
    "ReadVariableOp": "tests/test_variables.py",
    "CheckNumerics": "tests/test_numerics.py",
    "CustomGradient": "tests/test_custom_gradient.py",
    "CustomGradientN": "tests/test_custom_gradient.py",
    # Graph-mode state and structure ops: they have no eager form to put in a row.
    "Const": "tests/test_graph.py",
    "Placeholder": "tests/test_session.py",
    "NoOp": "tests/test_session.py",
    "AssignVariableOp": "tests/test_session.py",
    "AssignAddVariableOp": "tests/test_session.py",
    "AssignSubVariableOp": "tests/test_session.py",
    "WriteSummary": "tests/test_summary.py",
    # issue 14: graph-only stateful ops and dataset iterator ops
    "PrintV2": "tests/test_host_calls.py",
    "Assert": "tests/test_host_calls.py",
    "AnonymousIteratorV3": "tests/test_data.py",
    "IteratorGetNext": "tests/test_data.py",
    "IteratorGetNextAsOptional": "tests/test_data.py",
    # issue 15: a variable read inside a cond branch or loop body of a traced function
    "ReadVariableInControlFlow": "tests/test_autograph_state.py",
    # issue 28: TF 1 graph helpers (a fed-or-default placeholder, Print, initialization checks)
    "PlaceholderWithDefault": "tests/test_tf1_collections.py",
    "Print": "tests/test_tf1_collections.py",
    "VarIsInitializedOp": "tests/test_tf1_collections.py",
    "VarHandleOp": "tests/test_tf1_variable_scope.py",
    # tf.CriticalSection's mutex ops: stateful, no eager row (locking is what they do)
    "MutexV2": "tests/test_critical_section.py",
    "MutexLock": "tests/test_critical_section.py",
    "ConsumeMutexLock": "tests/test_critical_section.py",
    # issue 29: tf.io's string and file ops, compared with TensorFlow in their own tests
    "ParseExamples": "tests/test_parse_example.py",
    "DecodeCSV": "tests/test_decode_csv.py",
    "DecodeRaw": "tests/test_io_codecs.py",
    "EncodeBase64": "tests/test_io_codecs.py",
    "DecodeBase64": "tests/test_io_codecs.py",
    "DecodeCompressed": "tests/test_io_codecs.py",
    "SerializeTensor": "tests/test_io_codecs.py",
    "ParseTensor": "tests/test_io_codecs.py",
    "ReadFile": "tests/test_io_codecs.py",
    "WriteFile": "tests/test_io_codecs.py",
    "MatchingFiles": "tests/test_io_codecs.py",
    "ParseSequenceExamples": "tests/test_parse_sequence_example.py",
    # issue 28: TF 1's summary ops, compared byte for byte with TensorFlow's
    "ScalarSummary": "tests/test_tf1_summaries.py",
    "HistogramSummary": "tests/test_tf1_summaries.py",
    "ImageSummary": "tests/test_tf1_summaries.py",
    "AudioSummaryV2": "tests/test_tf1_summaries.py",
    "TensorSummaryV2": "tests/test_tf1_summaries.py",
    "MergeSummary": "tests/test_tf1_summaries.py",
    # issue 29: the rest of tf.strings, compared with TensorFlow's answers
    "Substr": "tests/test_string_ops.py",
    "UnsortedSegmentJoin": "tests/test_string_ops.py",
    "StringNGrams": "tests/test_string_ops.py",
    "StringToHashBucket": "tests/test_string_ops.py",
    "StringToHashBucketFast": "tests/test_string_ops.py",
    "StringToHashBucketStrong": "tests/test_string_ops.py",
    "Fingerprint": "tests/test_string_ops.py",
    "UnicodeEncode": "tests/test_string_ops.py",
    "UnicodeTranscode": "tests/test_string_ops.py",
    "UnicodeDecode": "tests/test_string_unicode.py",
    "UnicodeDecodeWithOffsets": "tests/test_string_unicode.py",
    "UnicodeScript": "tests/test_string_unicode.py",
    "DenseToDenseSetOperation": "tests/test_sets.py",
    "DenseToSparseSetOperation": "tests/test_sets.py",
    "SparseToSparseSetOperation": "tests/test_sets.py",
    "SetSize": "tests/test_sets.py",
    # issue 29: tf.lookup's table ops, over a table object held in an attribute
    "HashTableV2": "tests/test_lookup.py",
    "MutableHashTableV2": "tests/test_lookup.py",
    "MutableDenseHashTableV2": "tests/test_lookup.py",
    "LookupTableImportV2": "tests/test_lookup.py",
    "InitializeTableV2": "tests/test_lookup.py",
    "InitializeTableFromTextFileV2": "tests/test_lookup.py",
    "LookupTableFindV2": "tests/test_lookup.py",
    "LookupTableInsertV2": "tests/test_lookup.py",
    "LookupTableRemoveV2": "tests/test_lookup.py",
    "LookupTableSizeV2": "tests/test_lookup.py",
    "LookupTableExportV2": "tests/test_lookup.py",
    # issue 28: TF 1's queues and the epoch counter of its input producers (threads, sessions)
    "FIFOQueueV2": "tests/test_tf1_queues.py",
    **dict.fromkeys(["ResourceConditionalAccumulator", "ResourceAccumulatorApplyGradient",
                     "ResourceAccumulatorTakeGradient", "ResourceAccumulatorNumAccumulated",
                     "ResourceAccumulatorSetGlobalStep", "SparseConditionalAccumulator",
                     "SparseAccumulatorApplyGradient", "SparseAccumulatorTakeGradient",
                     "AccumulatorNumAccumulated", "AccumulatorSetGlobalStep"],
                    "tests/test_tf1_accumulators.py"),
    "PaddingFIFOQueueV2": "tests/test_tf1_queues.py",
    "RandomShuffleQueueV2": "tests/test_tf1_queues.py",
    "PriorityQueueV2": "tests/test_tf1_queues.py",
    "QueueEnqueueV2": "tests/test_tf1_queues.py",
    "QueueEnqueueManyV2": "tests/test_tf1_queues.py",
    "QueueDequeueV2": "tests/test_tf1_queues.py",
    "QueueDequeueManyV2": "tests/test_tf1_queues.py",
    "QueueDequeueUpToV2": "tests/test_tf1_queues.py",
    "QueueCloseV2": "tests/test_tf1_queues.py",
    "QueueSizeV2": "tests/test_tf1_queues.py",
    "QueueIsClosedV2": "tests/test_tf1_queues.py",
    "ResourceCountUpTo": "tests/test_tf1_queues.py",
    # issue 28: TF 1's readers of the files named in a queue
    "TextLineReaderV2": "tests/test_tf1_readers.py",
    "TFRecordReaderV2": "tests/test_tf1_readers.py",
    "WholeFileReaderV2": "tests/test_tf1_readers.py",
    "FixedLengthRecordReaderV2": "tests/test_tf1_readers.py",
    "IdentityReaderV2": "tests/test_tf1_readers.py",
    "ReaderReadV2": "tests/test_tf1_readers.py",
    "ReaderReadUpToV2": "tests/test_tf1_readers.py",
    "ReaderNumRecordsProducedV2": "tests/test_tf1_readers.py",
    "ReaderNumWorkUnitsCompletedV2": "tests/test_tf1_readers.py",
    "ReaderResetV2": "tests/test_tf1_readers.py",
    # issue 28: compat.v1's remaining ops (bit patterns, edit distances, serialized sparse
    # tensors and JSON Examples: integer or string outputs), compared with TensorFlow there
    "Bitcast": "tests/test_tf1_new_ops.py",
    "EditDistance": "tests/test_tf1_new_ops.py",
    "RandomIndexShuffle": "tests/test_tf1_new_ops.py",
    "SerializeSparse": "tests/test_tf1_new_ops.py",
    "SerializeManySparse": "tests/test_tf1_new_ops.py",
    "DeserializeManySparse": "tests/test_tf1_new_ops.py",
    "DecodeJSONExample": "tests/test_tf1_new_ops.py",
    "EncodeWav": "tests/test_audio_wav.py",
    "DecodeWav": "tests/test_audio_wav.py",
}


def _tensors(args, dtype=None):
    out = []
    for a in args:
        if isinstance(a, np.ndarray) and a.dtype.kind == "f" and dtype is not None:
            out.append(tf.constant(a.astype(dtype)))
        elif isinstance(a, np.ndarray):
            out.append(tf.constant(a))
        else:
            out.append(a)
    return out


def _outputs(result):
    if isinstance(result, (list, tuple)):
        return list(result)
    return [result]


@pytest.mark.parametrize("row,index", CASES, ids=IDS)
def test_forward_matches_numpy(row, index):
    sample = row.samples[index]
    got = _outputs(row.fn(*_tensors(sample.args), **sample.kwargs))
    want = _outputs(row.ref(*sample.args, **sample.kwargs))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert isinstance(g, Tensor)
        if np.asarray(w).dtype.kind in "OSU":  # strings: exact
            np.testing.assert_array_equal(g.numpy(), w)
        else:
            np.testing.assert_allclose(g.numpy(), w, rtol=row.fwd_rtol, atol=1e-12)
        assert g.shape == np.shape(w)


@pytest.mark.parametrize("row,index", [c for c in CASES if c[0].float32],
                         ids=[i for c, i in zip(CASES, IDS) if c[0].float32])
def test_float32_keeps_dtype(row, index):
    sample = row.samples[index]
    got = _outputs(row.fn(*_tensors(sample.args, np.float32), **sample.kwargs))
    want = _outputs(row.ref(*sample.args, **sample.kwargs))
    for g, w in zip(got, want):
        w = np.asarray(w)
        if w.dtype.kind == "f":
            assert g.dtype == tf.float32, f"{row.name} returned {g.dtype} for float32 inputs"
            np.testing.assert_allclose(g.numpy(), w, rtol=2e-3, atol=2e-4)


@pytest.mark.parametrize("row,index", CASES, ids=IDS)
def test_shape_rule_matches_eager(row, index):
    """Each recorded op's shape rule predicts the shape and dtype its kernel produced."""
    sample = row.samples[index]
    args = _tensors(sample.args)
    with tf.GradientTape(persistent=True) as tape, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # watching a string tensor warns (no gradient)
        for a in args:
            if isinstance(a, Tensor):
                tape.watch(a)
        row.fn(*args, **sample.kwargs)
    for op in tape._records:
        if op.op_def.shape is None:
            continue
        predicted = op.op_def.shape(*op.inputs, **op.attrs)
        if isinstance(predicted, tuple) and len(predicted) == 2 and not isinstance(
                predicted[0], tuple):
            predicted = [predicted]
        predicted = predicted if isinstance(predicted, list) else [predicted]
        for (shape, dtype), out in zip(predicted, op.outputs):
            # Data-dependent dimensions (boolean_mask, where) are None in the rule.
            assert tf.TensorShape(shape).is_compatible_with(out.shape), \
                f"{op.type}: rule {shape} vs {out.shape}"
            if tf.TensorShape(shape).rank is not None:  # py_function: unknown, as in TF
                assert tf.TensorShape(shape).rank == len(out.shape), f"{op.type}: rank differs"
            assert dtype == out.dtype, f"{op.type}: rule {dtype} vs {out.dtype}"


GRAD_CASES = [c for c in CASES if c[0].grad]


@pytest.mark.parametrize("row,index", GRAD_CASES,
                         ids=[i for c, i in zip(CASES, IDS) if c[0].grad])
def test_gradients_match_finite_differences(row, index):
    sample = row.samples[index]
    fn = lambda *a: row.fn(*a, **sample.kwargs)  # noqa: E731
    fn.__name__ = row.name
    order = 2 if row.grad2 else 1
    check_grads(fn, list(sample.args), order=order, wrt=sample.wrt, rtol=row.rtol,
                atol=row.atol, eps=row.eps)


def test_every_registered_op_has_a_row():
    seen = set()

    def observe(op_def, inputs, outputs, attrs, name):
        seen.add(op_def.type)
    state.observers = (observe,)
    try:
        for row, index in CASES:
            sample = row.samples[index]
            if row.grad:
                fn = lambda *a, row=row, s=sample: row.fn(*a, **s.kwargs)  # noqa: E731
                check_grads(fn, list(sample.args), order=2 if row.grad2 else 1, wrt=sample.wrt,
                            rtol=row.rtol, atol=row.atol, eps=row.eps)
            else:
                row.fn(*_tensors(sample.args), **sample.kwargs)
    finally:
        state.observers = ()
    missing = set(registered_op_types("wengert.")) - seen - set(COVERED_ELSEWHERE)
    assert not missing, f"registered op types with no op-table row: {sorted(missing)}"
