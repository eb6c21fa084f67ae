"""tf.data's file readers: TextLineDataset, FixedLengthRecordDataset, CsvDataset,
make_csv_dataset and list_files. The expected values are what TensorFlow 2.21 gave running the
same pipeline over the same files (recorded here as literals: string outputs cannot go into the
.npz references), and the bad-input cases raise TensorFlow's error classes with its words."""
import collections
import gzip

import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import InvalidArgumentError

A_CSV = 'x,y,s\n1,2.5,a\n3,,"b,c"\n5,6.5,d\n'


@pytest.fixture
def files(tmp_path):
    (tmp_path / "a.csv").write_text(A_CSV)
    (tmp_path / "bad.csv").write_text("1,2.5,a\n3,4\n5,6.5,d\n")
    (tmp_path / "r.bin").write_bytes(bytes(range(23)))
    (tmp_path / "r2.bin").write_bytes(bytes(range(13)))
    (tmp_path / "t.txt").write_bytes(b"hello\nworld\r\n\nlast")
    (tmp_path / "q.csv").write_bytes(b'1,"multi\nline"\r\n2,x\n\n3,y')
    (tmp_path / "s.csv").write_text("1,2,3,4\n5,6\n7,8,9,10,11\n")
    return tmp_path


def _drain(ds):
    """Every element of one pass, or the class name of the error raised in its place."""
    out, it = [], iter(ds)
    for _ in range(50):
        try:
            out.append(tuple(np.asarray(t).item() for t in tf.nest.flatten(next(it))))
        except StopIteration:
            return out
        except InvalidArgumentError as err:
            out.append(type(err).__name__)
    raise AssertionError("the pass did not end")


def test_text_lines(files):
    ds = tf.data.TextLineDataset(str(files / "t.txt"))
    assert ds.element_spec == tf.TensorSpec([], tf.string)
    assert list(ds.as_numpy_iterator()) == [b"hello", b"world", b"", b"last"]
    both = tf.data.TextLineDataset([str(files / "t.txt"), str(files / "a.csv")],
                                   num_parallel_reads=2)
    assert list(both.as_numpy_iterator()) == [b"hello", b"x,y,s", b"world", b"1,2.5,a", b"",
                                              b'3,,"b,c"', b"last", b"5,6.5,d"]


def test_text_lines_gzip(files):
    with gzip.open(files / "t.gz", "wb") as f:
        f.write(b"one\ntwo\n")
    ds = tf.data.TextLineDataset(str(files / "t.gz"), compression_type="GZIP")
    assert list(ds.as_numpy_iterator()) == [b"one", b"two"]


def test_fixed_length_records(files):
    ds = tf.data.FixedLengthRecordDataset(str(files / "r.bin"), 5, header_bytes=2,
                                          footer_bytes=1)
    assert ds.element_spec == tf.TensorSpec([], tf.string)
    assert list(ds.as_numpy_iterator()) == [bytes(range(2, 7)), bytes(range(7, 12)),
                                            bytes(range(12, 17)), bytes(range(17, 22))]


def test_fixed_length_body_not_a_multiple(files):
    ds = tf.data.FixedLengthRecordDataset(str(files / "r2.bin"), 5)
    with pytest.raises(InvalidArgumentError, match=r"Excluding the header \(0 bytes\) and "
                       r"footer \(0 bytes\), input file .*r2.bin\" has body length 13 bytes, "
                       r"which is not an exact multiple of the record length \(5 bytes\)"):
        next(iter(ds))
    mixed = tf.data.FixedLengthRecordDataset([str(files / "r2.bin"), str(files / "r.bin")], 5,
                                             header_bytes=2, footer_bytes=1)
    assert list(mixed.ignore_errors().as_numpy_iterator())[:1] == [bytes(range(2, 7))]


def test_csv_dataset_defaults_and_quotes(files):
    ds = tf.data.experimental.CsvDataset(str(files / "a.csv"), [tf.int32, tf.constant([9.0]),
                                                                tf.constant(["z"])],
                                         header=True)
    assert ds.element_spec == (tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.float32),
                               tf.TensorSpec([], tf.string))
    assert _drain(ds) == [(1, 2.5, b"a"), (3, 9.0, b"b,c"), (5, 6.5, b"d")]
    first = next(iter(ds))
    assert first[0].dtype == tf.int32 and first[1].dtype == tf.float32
    one = tf.data.experimental.CsvDataset(str(files / "a.csv"), [tf.int32], header=True,
                                          select_cols=[0])
    assert _drain(one) == [(1,), (3,), (5,)]


def test_csv_bad_row_raises_then_goes_on(files):
    ds = tf.data.experimental.CsvDataset(str(files / "bad.csv"), [tf.int32, tf.float32,
                                                                  tf.string])
    assert _drain(ds) == [(1, 2.5, b"a"), "InvalidArgumentError", (5, 6.5, b"d")]
    with pytest.raises(InvalidArgumentError, match="Expect 3 fields but have 2 in record 1"):
        it = iter(ds)
        next(it)
        next(it)
    assert _drain(ds.ignore_errors()) == [(1, 2.5, b"a"), (5, 6.5, b"d")]


def test_csv_multiline_quotes_and_empty_line(files):
    ds = tf.data.experimental.CsvDataset(str(files / "q.csv"), [tf.int32, tf.string])
    assert _drain(ds) == [(1, b"multi\nline"), (2, b"x"), "InvalidArgumentError", (3, b"y")]


def test_csv_select_and_exclude(files):
    sel = tf.data.experimental.CsvDataset(str(files / "s.csv"), [tf.int32, tf.int32],
                                          select_cols=[0, 1])
    assert _drain(sel) == [(1, 2), (5, 6), (7, 8)]
    exc = tf.data.experimental.CsvDataset(str(files / "s.csv"), [tf.int32, tf.int32],
                                          exclude_cols=[1, 2])
    assert _drain(exc) == [(1, 4), "InvalidArgumentError", "InvalidArgumentError"]


def test_csv_number_errors(files):
    (files / "o.csv").write_text("3000000000,1e300,x\n 12,1.5 ,y\n")
    narrow = tf.data.experimental.CsvDataset(str(files / "o.csv"), [tf.int32, tf.float32,
                                                                    tf.string])
    assert _drain(narrow) == ["InvalidArgumentError", (12, 1.5, b"y")]
    wide = tf.data.experimental.CsvDataset(str(files / "o.csv"), [tf.int64, tf.float64,
                                                                  tf.string])
    assert _drain(wide) == [(3000000000, 1e300, b"x"), (12, 1.5, b"y")]
    (files / "n.csv").write_text("1,NA\n,2\n")
    na = tf.data.experimental.CsvDataset(str(files / "n.csv"),
                                         [tf.int32, tf.constant([7], tf.int64)], na_value="NA")
    assert _drain(na) == [(1, 7), "InvalidArgumentError"]


def test_make_csv_dataset_with_label(files):
    ds = tf.data.experimental.make_csv_dataset(str(files / "a.csv"), 2, num_epochs=1,
                                               shuffle=False, label_name="y")
    features, label = ds.element_spec
    assert isinstance(features, collections.OrderedDict) and list(features) == ["x", "s"]
    assert features["x"] == tf.TensorSpec([None], tf.int32)
    assert features["s"] == tf.TensorSpec([None], tf.string)
    assert label == tf.TensorSpec([None], tf.float32)
    batches = [(f["x"].numpy().tolist(), f["s"].numpy().tolist(), y.numpy().tolist())
               for f, y in ds]
    assert batches == [([1, 3], [b"a", b"b,c"], [2.5, 0.0]), ([5], [b"d"], [6.5])]
    plain = tf.data.experimental.make_csv_dataset(str(files / "a.csv"), 2, num_epochs=1,
                                                  shuffle=False)
    assert list(plain.element_spec) == ["x", "y", "s"]


def test_make_csv_dataset_options(files):
    ds = tf.data.experimental.make_csv_dataset(
        str(files / "a.csv"), 2, column_defaults=[tf.int64, [0.0]], select_columns=["x", "y"],
        num_epochs=2, shuffle=True, shuffle_seed=3, label_name="x")
    xs = sorted(v for _, x in ds for v in x.numpy().tolist())
    assert xs == [1, 1, 3, 3, 5, 5]
    forever = tf.data.experimental.make_csv_dataset(str(files / "a.csv"), 2, shuffle=False)
    assert forever.element_spec["x"].shape.as_list() == [2]
    (files / "h.csv").write_text("1,2,x,4\n5,6,y,8\n")
    named = tf.data.experimental.make_csv_dataset(str(files / "h.csv"), 1, header=False,
                                                  column_names=["a", "b", "c", "d"],
                                                  select_columns=["c", 0], num_epochs=1,
                                                  shuffle=False)
    assert list(named.element_spec) == ["a", "c"]
    assert [(b["a"].numpy().tolist(), b["c"].numpy().tolist()) for b in named] == [
        ([1], [b"x"]), ([5], [b"y"])]


def test_make_csv_dataset_errors(files):
    with pytest.raises(ValueError, match="label_name"):
        tf.data.experimental.make_csv_dataset(str(files / "a.csv"), 2, label_name="nope")
    with pytest.raises(ValueError, match="Neither is provided"):
        tf.data.experimental.make_csv_dataset(str(files / "a.csv"), 2, header=False)
    with pytest.raises(InvalidArgumentError, match="No files matched pattern"):
        tf.data.experimental.make_csv_dataset(str(files / "*.nope"), 2)


def test_list_files(files):
    for name in ("c.txt", "b.txt"):
        (files / name).write_text(name)
    ds = tf.data.Dataset.list_files(str(files / "*.txt"), shuffle=False)
    assert ds.element_spec == tf.TensorSpec([], tf.string)
    names = [p.decode().rsplit("/", 1)[1] for p in ds.as_numpy_iterator()]
    assert names == ["b.txt", "c.txt", "t.txt"]
    shuffled = tf.data.Dataset.list_files(str(files / "*.txt"), seed=1)
    assert int(shuffled.cardinality()) == 3
    assert sorted(shuffled.as_numpy_iterator()) == sorted(ds.as_numpy_iterator())
    with pytest.raises(InvalidArgumentError, match="No files matched pattern"):
        tf.data.Dataset.list_files(str(files / "*.nope"))


def test_csv_fast_and_slow_paths_agree(tmp_path):
    rng = np.random.default_rng(0)
    values = rng.standard_normal((300, 2)).astype(np.float32)
    lines = [f"{i},{float(a)!r},{float(b)!r},w{i % 7}" for i, (a, b) in enumerate(values)]
    (tmp_path / "big.csv").write_text("\n".join(lines) + "\n")
    defaults = [tf.int64, tf.float32, [0.0], [""]]
    ds = tf.data.experimental.CsvDataset(str(tmp_path / "big.csv"), defaults)
    batched = next(iter(ds.batch(300)))
    np.testing.assert_array_equal(batched[0].numpy(), np.arange(300))
    np.testing.assert_array_equal(batched[1].numpy(), values[:, 0])
    one_by_one = [e[2].numpy() for e in ds]
    np.testing.assert_array_equal(np.array(one_by_one, np.float32), values[:, 1])
    assert ds.cardinality().numpy() == tf.data.UNKNOWN_CARDINALITY
