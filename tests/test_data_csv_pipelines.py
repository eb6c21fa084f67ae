"""make_csv_dataset over several files, compressed files and bad records, against what
TensorFlow 2.21 gave for the same files and calls (recorded as literals)."""
import gzip

import pytest

import wengert as tf
from wengert.framework.errors import InvalidArgumentError


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "f1.csv").write_text("a,b\n1,x\n2,y\n3,z\n")
    (tmp_path / "f2.csv").write_text("a,b\n10,p\n20,q\n")
    with gzip.open(tmp_path / "g.csv.gz", "wb") as f:
        f.write(b"a,b\n7,u\n8,v\n")
    (tmp_path / "bad.txt").write_text("a,b\n1,x\n2\n3,z\n")
    return tmp_path


def _batches(ds):
    return [(b["a"].numpy().tolist(), b["b"].numpy().tolist()) for b in ds]


def test_files_read_in_turn_or_one_after_another(folder):
    pattern = str(folder / "*.csv")
    turns = tf.data.experimental.make_csv_dataset(pattern, 2, num_epochs=1, shuffle=False,
                                                  num_parallel_reads=2)
    assert _batches(turns) == [([1, 10], [b"x", b"p"]), ([2, 20], [b"y", b"q"]),
                               ([3], [b"z"])]
    serial = tf.data.experimental.make_csv_dataset(pattern, 2, num_epochs=1, shuffle=False)
    assert _batches(serial) == [([1, 2], [b"x", b"y"]), ([3, 10], [b"z", b"p"]),
                                ([20], [b"q"])]
    twice = tf.data.experimental.make_csv_dataset(pattern, 2, num_epochs=2, shuffle=False)
    assert [a for a, _ in _batches(twice)] == [[1, 2], [3, 10], [20, 1], [2, 3], [10, 20]]
    shuffled = tf.data.experimental.make_csv_dataset(pattern, 2, num_epochs=1, shuffle_seed=2)
    assert sorted(v for a, _ in _batches(shuffled) for v in a) == [1, 2, 3, 10, 20]


def test_gzip_and_inferred_types(folder):
    ds = tf.data.experimental.make_csv_dataset(str(folder / "g.csv.gz"), 5, num_epochs=1,
                                               shuffle=False, compression_type="GZIP")
    assert ds.element_spec == {"a": tf.TensorSpec([None], tf.int32),
                               "b": tf.TensorSpec([None], tf.string)}
    assert _batches(ds) == [([7, 8], [b"u", b"v"])]


def test_bad_record_raises_or_is_dropped(folder):
    path = str(folder / "bad.txt")
    kept = tf.data.experimental.make_csv_dataset(path, 5, num_epochs=1, shuffle=False,
                                                 ignore_errors=True,
                                                 column_defaults=[tf.int32, tf.string])
    assert [a for a, _ in _batches(kept)] == [[1, 3]]
    strict = tf.data.experimental.make_csv_dataset(path, 5, num_epochs=1, shuffle=False,
                                                   column_defaults=[tf.int32, tf.string])
    with pytest.raises(InvalidArgumentError, match="Expect 2 fields but have 1 in record 1"):
        _batches(strict)


def test_pipeline_goes_on_after_a_bad_record(folder):
    ds = tf.data.experimental.make_csv_dataset(str(folder / "bad.txt"), 1, num_epochs=1,
                                               shuffle=False,
                                               column_defaults=[tf.int32, tf.string])
    it, seen = iter(ds), []
    for _ in range(5):
        try:
            seen.append(next(it)["a"].numpy().tolist())
        except StopIteration:
            break
        except InvalidArgumentError:
            seen.append("error")
    assert seen == [[1], "error", [3]]
    with pytest.raises(ValueError, match="at least one column"):
        tf.data.experimental.CsvDataset(str(folder / "bad.txt"), [])
