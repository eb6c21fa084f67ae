"""tf.lookup against TensorFlow 2.21 (answers stored in tests/references/test_lookup.npz):
StaticHashTable with KeyValueTensorInitializer and TextFileInitializer, StaticVocabularyTable's
out-of-vocabulary buckets (FarmHash Fingerprint64, string and integer keys), MutableHashTable
and DenseHashTable; TensorFlow's errors for a key of the wrong dtype, a duplicate key with another
value and DenseHashTable's reserved keys; tables inside tf.function, Dataset.map and TF 1 graphs
(tables_initializer), and the raw ops over a table object."""
import numpy as np
import pytest
from tf_ops_reference import TFCase, check, run_tf_or_skip

import wengert as tf
from wengert.framework.errors import FailedPreconditionError, InvalidArgumentError

L = tf.lookup
WORDS = np.array([b"a", b"b", b"c", b"hello"], dtype="S5")  # (no object arrays in .npz)
QUERY = np.array([[b"a", b"zz"], [b"hello", b""], [b"world", b"c"]], dtype="S5")
IDS = np.array([10, 20, 30], np.int64)
INT_QUERY = np.array([10, 3, 30, -5, 123456, 7], np.int64)
VOCAB_FILE = "apple\\t7\\nbanana\\t8\\ncherry\\t9\\n"
TF_FILE = ("(lambda p: (open(p, 'w').write('" + VOCAB_FILE + "'), p)[1])("
           "__import__('tempfile').mkdtemp() + '/vocab.txt')")


def _vocab_file(tmp_dir):
    path = tmp_dir / "vocab.txt"
    path.write_text(VOCAB_FILE.replace("\\t", "\t").replace("\\n", "\n"))
    return str(path)


def _static(keys, values, default):
    return L.StaticHashTable(L.KeyValueTensorInitializer(keys, values), default)


def _vocab(keys, buckets, key_dtype=None):
    init = L.KeyValueTensorInitializer(keys, tf.range(len(keys), dtype=tf.int64))
    return L.StaticVocabularyTable(init, buckets, lookup_key_dtype=key_dtype)


def _mutable(x, q):
    table = L.experimental.MutableHashTable(tf.string, tf.int64, -1)
    table.insert(x, tf.constant([1, 2, 3, 4], tf.int64))
    table.insert(tf.constant(["b"]), tf.constant([50], tf.int64))
    table.remove(tf.constant(["a", "nothing"]))
    return table.lookup(q), table.size()


def _dense(q):
    table = L.experimental.DenseHashTable(tf.int64, tf.float32, default_value=-1.5,
                                          empty_key=0, deleted_key=-1)
    table.insert(tf.constant([10, 20, 30], tf.int64), tf.constant([0.5, 1.5, 2.5]))
    table.remove(tf.constant([20], tf.int64))
    return table.lookup(q), table.size()


def _lookup_and_size(table, q):
    return table.lookup(q), table.size()


def _dense_assign_erase(x):
    table = L.experimental.DenseHashTable(tf.int64, tf.int64, default_value=-1, empty_key=-2,
                                          deleted_key=-3)
    table.insert_or_assign(x, x * 2)
    table.erase(x[:1])
    return table.lookup(x), table.size()


TF_MUTABLE = ("(lambda t: (t.insert(x0, tf.constant([1, 2, 3, 4], tf.int64)), "
              "t.insert(tf.constant(['b']), tf.constant([50], tf.int64)), "
              "t.remove(tf.constant(['a', 'nothing'])), [t.lookup(x1), t.size()])[-1])("
              "tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1))")
TF_DENSE = ("(lambda t: (t.insert(tf.constant([10, 20, 30], tf.int64), "
            "tf.constant([0.5, 1.5, 2.5])), t.remove(tf.constant([20], tf.int64)), "
            "[t.lookup(x0), t.size()])[-1])(tf.lookup.experimental.DenseHashTable("
            "tf.int64, tf.float32, default_value=-1.5, empty_key=0, deleted_key=-1))")
TF_STATIC = ("tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(x0, x1), {})")

CASES = [
    TFCase("static_lookup", f"{TF_STATIC.format(-7)}.lookup(x2)",
           lambda k, v, q: _static(k, v, -7).lookup(q), [WORDS, IDS[[0, 1, 2, 0]], QUERY]),
    TFCase("static_size", f"{TF_STATIC.format(-7)}.size()",
           lambda k, v: _static(k, v, -7).size(), [WORDS, IDS[[0, 1, 2, 0]]]),
    TFCase("static_float_values", f"{TF_STATIC.format(0.25)}.lookup(x2)",
           lambda k, v, q: _static(k, v, 0.25).lookup(q),
           [IDS, np.array([1.5, -2.0, 3.0], np.float32), INT_QUERY]),
    TFCase("static_duplicate_same_value", f"{TF_STATIC.format(-1)}.size()",
           lambda k, v: _static(k, v, -1).size(), [WORDS[[0, 0, 1]], IDS[[0, 0, 1]]]),
    TFCase("vocab_string_buckets",
           "tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(x0, "
           "tf.range(4, dtype=tf.int64)), 5).lookup(x1)",
           lambda k, q: _vocab(k, 5).lookup(q), [WORDS, QUERY]),
    TFCase("vocab_size",
           "tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(x0, "
           "tf.range(4, dtype=tf.int64)), 5).size()",
           lambda k: _vocab(k, 5).size(), [WORDS]),
    TFCase("vocab_int_buckets",
           "tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(x0, "
           "tf.range(3, dtype=tf.int64)), 7, lookup_key_dtype=tf.int32).lookup(x1)",
           lambda k, q: _vocab(k, 7, tf.int32).lookup(q),
           [IDS, INT_QUERY.astype(np.int32)]),
    TFCase("mutable", TF_MUTABLE, _mutable, [WORDS, QUERY]),
    TFCase("dense", TF_DENSE, _dense, [np.array([10, 20, 30, 40], np.int64)]),
    TFCase("text_file_columns",
           f"tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer({TF_FILE}, tf.string, 0, "
           "tf.int64, 1), -1).lookup(tf.constant(['banana', 'x', 'cherry']))",
           None, []),
    TFCase("text_file_whole_line",
           f"tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer({TF_FILE}, tf.string, "
           "tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER),"
           " -1).lookup(tf.constant(['banana\\t8', 'banana', 'apple\\t7']))", None, []),
    TFCase("wrong_key_dtype", f"{TF_STATIC.format(-1)}.lookup(tf.constant([1]))",
           None, [WORDS, IDS[[0, 1, 2, 0]]]),
    TFCase("duplicate_key", f"{TF_STATIC.format(-1)}.size()",
           None, [WORDS[[0, 0]], IDS[[0, 1]]]),
    TFCase("dense_empty_key", TF_DENSE.replace("tf.constant([10, 20, 30], tf.int64)",
                                               "tf.constant([0], tf.int64)").replace(
        "tf.constant([0.5, 1.5, 2.5])", "tf.constant([0.5])"), None, [IDS]),
    TFCase("vocab_without_initializer",
           "(lambda t: [t.lookup(x0), t.size()])(tf.lookup.StaticVocabularyTable(None, 6))",
           lambda q: _lookup_and_size(L.StaticVocabularyTable(None, 6), q), [QUERY]),
    TFCase("sparse_keys", "tf.sparse.to_dense(tf.lookup.StaticVocabularyTable("
           "tf.lookup.KeyValueTensorInitializer(x0, tf.range(4, dtype=tf.int64)), 3).lookup("
           "tf.SparseTensor([[0, 1], [2, 0], [2, 2]], x1, [3, 3])), default_value=-9)",
           lambda k, v: tf.sparse.to_dense(_vocab(k, 3).lookup(
               tf.SparseTensor([[0, 1], [2, 0], [2, 2]], v, [3, 3])), default_value=-9),
           [WORDS, QUERY[:, 0]]),
    TFCase("dense_insert_or_assign_erase",
           "(lambda t: (t.insert_or_assign(x0, x0 * 2), t.erase(x0[:1]), "
           "[t.lookup(x0), t.size()])[-1])(tf.lookup.experimental.DenseHashTable("
           "tf.int64, tf.int64, default_value=-1, empty_key=-2, deleted_key=-3))",
           _dense_assign_erase, [IDS]),
    TFCase("text_file_indices", "tf.constant([tf.lookup.TextFileIndex.WHOLE_LINE, "
           "tf.lookup.TextFileIndex.LINE_NUMBER])", None, []),
]
VALUE_CASES = [c for c in CASES if c.fn is not None]


@pytest.fixture(scope="module")
def tf_results():
    return run_tf_or_skip(CASES)


@pytest.mark.parametrize("case", VALUE_CASES, ids=[c.name for c in VALUE_CASES])
def test_values_match_tensorflow(case, tf_results):
    check(case, tf_results[case.name])


@pytest.mark.parametrize("name, index", [("text_file_columns", 0), ("text_file_whole_line", -2)])
def test_text_file_initializer_matches_tensorflow(name, index, tf_results, tmp_path):
    path = _vocab_file(tmp_path)
    if index == 0:
        table = L.StaticHashTable(L.TextFileInitializer(path, tf.string, 0, tf.int64, 1), -1)
        got = table.lookup(tf.constant(["banana", "x", "cherry"]))
    else:
        init = L.TextFileInitializer(path, tf.string, L.TextFileIndex.WHOLE_LINE, tf.int64,
                                     L.TextFileIndex.LINE_NUMBER)
        got = L.StaticHashTable(init, -1).lookup(tf.constant(["banana\t8", "banana",
                                                              "apple\t7"]))
    np.testing.assert_array_equal(got.numpy(), tf_results[name]["outputs"][0])


def test_text_file_index_constants(tf_results):
    want = tf_results["text_file_indices"]["outputs"][0].tolist()
    assert [L.TextFileIndex.WHOLE_LINE, L.TextFileIndex.LINE_NUMBER] == want


def test_wrong_key_dtype_is_tensorflows_type_error(tf_results):
    table = _static(WORDS, IDS[[0, 1, 2, 0]], -1)
    with pytest.raises(TypeError) as info:
        table.lookup(tf.constant([1]))
    assert tf_results["wrong_key_dtype"]["error"] == f"TypeError: {info.value}"


def test_duplicate_key_with_another_value_is_refused(tf_results):
    with pytest.raises(FailedPreconditionError) as info:
        _static(WORDS[[0, 0]], IDS[[0, 1]], -1)
    message = str(info.value).split(": ", 1)[1]
    assert message in tf_results["duplicate_key"]["error"]
    assert tf_results["duplicate_key"]["error"].startswith("FailedPreconditionError")


def test_dense_reserved_keys_are_refused(tf_results):
    table = L.experimental.DenseHashTable(tf.int64, tf.float32, -1.5, empty_key=0,
                                          deleted_key=-1)
    with pytest.raises(InvalidArgumentError) as info:
        table.insert(tf.constant([0], tf.int64), tf.constant([0.5]))
    assert str(info.value).split(": ", 1)[1] in tf_results["dense_empty_key"]["error"]
    with pytest.raises(InvalidArgumentError, match="deleted_key"):
        table.remove(tf.constant([-1], tf.int64))
    with pytest.raises(ValueError, match="must differ"):
        L.experimental.DenseHashTable(tf.int64, tf.int64, -1, empty_key=3, deleted_key=3)


def test_oov_buckets_are_fingerprint64_mod_buckets():
    from wengert.ops.io.hashing import fingerprint64
    table = _vocab(WORDS, 9)
    keys = [b"x", b"hello world", b"\xff" * 70]
    got = table.lookup(tf.constant(np.array(keys, dtype=object))).numpy()
    assert got.tolist() == [4 + fingerprint64(k) % 9 for k in keys]


def test_tables_inside_tf_function_and_dataset_map():
    static = _static(WORDS, IDS[[0, 1, 2, 0]], -1)
    mutable = L.experimental.MutableHashTable(tf.string, tf.int64, -1)

    @tf.function
    def step(keys):
        mutable.insert(keys, tf.constant([7, 8], tf.int64))
        return mutable.lookup(keys), static.lookup(keys)

    found, ids = step(tf.constant(["a", "q"]))
    assert found.numpy().tolist() == [7, 8] and ids.numpy().tolist() == [10, -1]
    assert mutable.size().numpy() == 2
    ds = tf.data.Dataset.from_tensor_slices(["c", "nope", "hello"]).map(static.lookup)
    assert [int(v) for v in ds.as_numpy_iterator()] == [30, -1, 10]

    @tf.function
    def build_inside(q):
        return _static(WORDS, IDS[[0, 1, 2, 0]], -3).lookup(q)

    assert build_inside(tf.constant(["b", "zz"])).numpy().tolist() == [20, -3]


def test_tf1_graph_needs_tables_initializer():
    with tf.Graph().as_default():
        table = _static(["a", "b"], [1, 2], -1)
        vocab = _vocab(["a", "b"], 3)
        out, ids = table.lookup(tf.constant(["b", "z"])), vocab.lookup(tf.constant(["b"]))
        inits = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.TABLE_INITIALIZERS)
        assert [op.type for op in inits] == ["LookupTableImportV2"] * 2
        with tf.compat.v1.Session() as sess:
            with pytest.raises(FailedPreconditionError, match="Table not initialized"):
                sess.run(out)
            sess.run(tf.compat.v1.tables_initializer())
            assert sess.run(out).tolist() == [2, -1] and sess.run(ids).tolist() == [1]


def test_mutable_table_in_a_tf1_graph():
    with tf.Graph().as_default():
        table = L.experimental.MutableHashTable(tf.string, tf.int64, -1)
        insert = table.insert(tf.constant(["a", "b"]), tf.constant([1, 2], tf.int64))
        found, size = table.lookup(tf.constant(["a", "c"])), table.size()
        assert insert.type == "LookupTableInsertV2"
        with tf.compat.v1.Session() as sess:
            assert sess.run(found).tolist() == [-1, -1]
            sess.run(insert)
            assert sess.run(found).tolist() == [1, -1] and sess.run(size) == 2
            sess.run(table.remove(tf.constant(["a"])))
            assert sess.run(size) == 1


def test_export_and_key_value_dtypes():
    table = _static(WORDS[:3], IDS, -1)
    keys, values = table.export()
    assert dict(zip(keys.numpy().tolist(), values.numpy().tolist())) == {b"a": 10, b"b": 20,
                                                                         b"c": 30}
    assert (table.key_dtype, table.value_dtype) == (tf.string, tf.int64)
    init = L.KeyValueTensorInitializer([1, 2], [1.5, 2.5])
    assert (init.key_dtype, init.value_dtype) == (tf.int32, tf.float32)
    with pytest.raises(ValueError, match="num_oov_buckets"):
        L.StaticVocabularyTable(init, 0)


def test_raw_ops_take_the_table_object():
    R = tf.raw_ops
    table = L.experimental.MutableHashTable(tf.int64, tf.int64, 0)
    R.LookupTableInsertV2(table_handle=table, keys=tf.constant([5], tf.int64),
                          values=tf.constant([50], tf.int64))
    got = R.LookupTableFindV2(table_handle=table, keys=tf.constant([5, 6], tf.int64),
                              default_value=tf.constant(0, tf.int64))
    assert got.numpy().tolist() == [50, 0]
    assert R.LookupTableSizeV2(table_handle=table).numpy() == 1
    keys, values = R.LookupTableExportV2(table_handle=table, Tkeys=tf.int64, Tvalues=tf.int64)
    assert keys.numpy().tolist() == [5] and values.numpy().tolist() == [50]
    R.LookupTableRemoveV2(table_handle=table, keys=tf.constant([5], tf.int64))
    assert table.size().numpy() == 0
    static = _static(["k"], [1], 0)
    R.LookupTableImportV2(table_handle=static, keys=tf.constant(["j"]), values=tf.constant([2]))
    assert static.lookup(tf.constant(["j", "k"])).numpy().tolist() == [2, 1]
    with pytest.raises(Exception, match="table object"):
        R.HashTableV2(key_dtype=tf.string, value_dtype=tf.int64)


def _table_with(keys, values):
    table = L.experimental.MutableHashTable(tf.string, tf.int64, -1)
    table.insert(tf.constant(keys), tf.constant(values, tf.int64))
    return table


def test_mutable_table_saves_and_restores_with_checkpoint(tmp_path):
    table = _table_with(["a", "b", "c"], [1, 2, 3])
    path = tf.train.Checkpoint(table=table).write(str(tmp_path / "ck"))
    names = [n for n, _ in tf.train.list_variables(path) if n.startswith("table/")]
    assert names == ["table/.ATTRIBUTES/table-keys",
                     "table/.ATTRIBUTES/table-values"]  # TensorFlow 2.21's keys
    assert tf.train.load_variable(path, names[1]).tolist() == [1, 2, 3]
    fresh = _table_with(["z"], [9])
    tf.train.Checkpoint(table=fresh).read(path)
    assert fresh.lookup(tf.constant(["a", "c", "z"])).numpy().tolist() == [1, 3, -1]
    assert fresh.size().numpy() == 3



def test_compat_v1_static_table_has_its_initializer_op():
    with tf.Graph().as_default():
        table = tf.compat.v1.lookup.StaticHashTable(
            tf.compat.v1.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2]), -1)
        found = table.lookup(tf.constant(["b", "q"]))
        assert table.initializer.type == "LookupTableImportV2"
        with tf.compat.v1.Session() as sess:
            sess.run(table.initializer)
            assert sess.run(found).tolist() == [2, -1]
    assert _static(["a"], [1], 0).__class__ is L.StaticHashTable
    assert tf.compat.v1.lookup.StaticHashTable(L.KeyValueTensorInitializer(["a"], [1]),
                                               0).initializer is None
