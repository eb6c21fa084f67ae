"""TensorFlow's tensor bundle (the checkpoint format) and its table: bytes identical to what
TensorFlow 2.21 wrote for the fixtures under tests/fixtures/tf_checkpoints/, TensorFlow's
checkpoints read through tf.train's reader API with the names and values TensorFlow listed,
corrupted and truncated files refused with DataLossError, and wengert's first (JSON-index)
checkpoint format still read."""
import json
import os
import pathlib
import shutil

import numpy as np
import pytest

import wengert as tf
from wengert.framework.errors import DataLossError
from wengert.framework.protos.tensor_bundle import BundleEntryProto, BundleHeaderProto
from wengert.framework.protos.trackable_object_graph import TrackableObjectGraph
from wengert.saved_model import checkpoint_format as ckpt_module
from wengert.saved_model.table_format import read_table, write_table
from wengert.saved_model.tensor_bundle import encode_data, encode_index
from wengert.train import Checkpoint, load_checkpoint

FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "tf_checkpoints"
LISTING = json.loads((FIXTURES / "listing.json").read_text())
INDEXES = sorted(FIXTURES.rglob("*.index"))


# -- the table -------------------------------------------------------------------------------------
@pytest.mark.parametrize("index", INDEXES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_tables_rewrite_to_tensorflows_bytes(index):
    raw = index.read_bytes()
    items = read_table(raw, str(index))
    assert items[0][0] == b"" and [k for k, _ in items] == sorted(k for k, _ in items)
    assert write_table(items) == raw


def test_a_table_of_many_blocks_round_trips():
    rng = np.random.default_rng(0)
    items = sorted((f"key/{i:05d}/{'x' * (i % 7)}".encode(), rng.bytes(int(rng.integers(0, 9000))))
                   for i in range(120))
    raw = write_table(items)
    assert len(raw) > 2 * 262144  # several data blocks, each with its index entry
    assert read_table(raw, "t.index") == items
    assert read_table(write_table([]), "t.index") == []
    with pytest.raises(ValueError, match="ascending"):
        write_table([(b"b", b""), (b"a", b"")])


def test_every_truncation_and_flipped_byte_of_an_index_is_caught():
    raw = (FIXTURES / "module" / "ckpt.index").read_bytes()
    good = read_table(raw, "ckpt.index")
    for n in range(len(raw)):
        with pytest.raises(DataLossError, match="'ckpt.index' is corrupted"):
            read_table(raw[:n], "ckpt.index")
    for i in range(len(raw)):
        flipped = bytearray(raw)
        flipped[i] ^= 0x10
        try:
            assert read_table(bytes(flipped), "ckpt.index") == good  # footer padding: unread
        except DataLossError as err:
            assert "'ckpt.index' is corrupted" in str(err)


# -- the bundle ------------------------------------------------------------------------------------
def _tf_order(prefix):
    reader = load_checkpoint(str(prefix))
    entries = reader._format.entries
    return reader, sorted(entries, key=lambda name: entries[name][2])


@pytest.mark.parametrize("name", sorted(LISTING))
def test_bundles_rewrite_to_tensorflows_bytes(name):
    prefix = FIXTURES / LISTING[name]["prefix"]
    reader, order = _tf_order(prefix)
    chunks, entries = encode_data(reader.get_tensors(order))
    assert b"".join(bytes(c) for c in chunks) == \
        pathlib.Path(str(prefix) + ".data-00000-of-00001").read_bytes()
    assert encode_index(entries) == pathlib.Path(str(prefix) + ".index").read_bytes()


@pytest.mark.parametrize("name", sorted(LISTING))
def test_tensorflows_checkpoints_read_as_tensorflow_lists_them(name):
    expected = LISTING[name]["tensors"]
    prefix = str(FIXTURES / LISTING[name]["prefix"])
    listed = tf.train.list_variables(prefix)
    assert listed == [(n, expected[n]["shape"]) for n in sorted(expected)]
    reader = tf.train.load_checkpoint(prefix)
    dtypes = reader.get_variable_to_dtype_map()
    for key, want in expected.items():
        assert dtypes[key].name == want["dtype"], key
        if want["values"] is None:
            continue
        value = np.asarray(tf.train.load_variable(prefix, key)).reshape(-1).tolist()
        if want["dtype"] == "string":
            value = [v.hex() for v in value]
        assert value == want["values"], key


def test_a_managed_directory_reads_its_latest_checkpoint():
    directory = str(FIXTURES / "managed")
    assert tf.train.latest_checkpoint(directory) == os.path.join(directory, "ckpt-3")
    reader = tf.train.load_checkpoint(directory)
    assert int(reader.get_tensor("save_counter/.ATTRIBUTES/VARIABLE_VALUE")) == 3


def test_the_object_graph_parses_and_serializes_to_the_same_bytes():
    reader = load_checkpoint(str(FIXTURES / "keras" / "ckpt"))
    raw = reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH").item()
    graph = TrackableObjectGraph.FromString(raw)
    assert graph.SerializeToString() == raw
    root = graph.nodes[0]
    assert [c.local_name for c in root.children][:2] == ["model", "optimizer"]
    keys = [a.checkpoint_key for node in graph.nodes for a in node.attributes]
    assert "optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE" in keys


def test_header_and_entries_decode():
    items = read_table((FIXTURES / "strings" / "ckpt.index").read_bytes(), "ckpt.index")
    header = BundleHeaderProto.FromString(items[0][1])
    assert header.num_shards == 1 and header.version.producer == 1
    entry = BundleEntryProto.FromString(dict(items)[b"words/.ATTRIBUTES/VARIABLE_VALUE"])
    assert entry.dtype == 7 and [d.size for d in entry.shape.dim] == [4]


def test_strings_and_every_dtype_round_trip(tmp_path):
    arrays = {"s": np.array([b"a", b"", "\u00e9".encode(), b"z" * 300], dtype=object),
              "scalar": np.array(b"one", dtype=object), "f16": np.array([1.5], np.float16),
              "c128": np.array([1 + 2j]), "u64": np.array([2**63], np.uint64),
              "b": np.array([[True], [False]]), "empty": np.zeros((0, 2), np.int32)}
    path = str(tmp_path / "all")
    ckpt_module._write_checkpoint(path, arrays)
    back = load_checkpoint(path).get_tensors(list(arrays))
    for key, value in arrays.items():
        assert back[key].dtype == value.dtype and back[key].shape == value.shape, key
        assert back[key].tolist() == value.tolist(), key


def test_corrupted_data_names_the_file_and_tensor(tmp_path):
    prefix = tmp_path / "strings" / "ckpt"
    shutil.copytree(FIXTURES / "strings", tmp_path / "strings")
    data = pathlib.Path(str(prefix) + ".data-00000-of-00001")
    reader = load_checkpoint(str(prefix))
    raw = bytearray(data.read_bytes())
    raw[reader._format.entries["words/.ATTRIBUTES/VARIABLE_VALUE"][2] + 9] ^= 0x01
    data.write_bytes(bytes(raw))
    assert reader.get_tensor("n/.ATTRIBUTES/VARIABLE_VALUE") == 3.5
    with pytest.raises(DataLossError, match="data-00000-of-00001' is corrupted: tensor 'words"):
        reader.get_tensor("words/.ATTRIBUTES/VARIABLE_VALUE")
    data.write_bytes(bytes(raw[:100]))
    with pytest.raises(DataLossError, match="has 100 bytes, its index says"):
        load_checkpoint(str(prefix))


# -- wengert's first format ------------------------------------------------------------------------
class Layer:
    def __init__(self, n_in, n_out, seed=0):
        rng = np.random.RandomState(seed)
        self.kernel = tf.Variable(rng.randn(n_in, n_out).astype(np.float32), name="kernel")
        self.bias = tf.Variable(rng.randn(n_out).astype(np.float32), name="bias")

    def _checkpoint_children(self):
        return {"kernel": self.kernel, "bias": self.bias}


class Model:
    def __init__(self, seed=0):
        self.dense, self.out = Layer(3, 4, seed), Layer(4, 2, seed + 1)
        self.step = tf.Variable(np.int64(seed), trainable=False)

    def _checkpoint_children(self):
        return {"dense": self.dense, "out": self.out, "step": self.step}


def values(model):
    return [model.dense.kernel.numpy(), model.dense.bias.numpy(), model.out.kernel.numpy(),
            model.out.bias.numpy(), model.step.numpy()]


def assert_same(a, b):
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


def restore_fails(path, match):
    fresh = Model(seed=4)
    before = values(fresh)
    with pytest.raises(DataLossError, match=match):
        Checkpoint(model=fresh).restore(path)
    assert_same(values(fresh), before)
@pytest.fixture
def saved_json(tmp_path):
    model = Model(seed=0)
    path = str(tmp_path / "ckpt-1")
    arrays = {"model/dense/bias": model.dense.bias.numpy(),
              "model/dense/kernel": model.dense.kernel.numpy(),
              "model/out/bias": model.out.bias.numpy(), "model/out/kernel": model.out.kernel.numpy(),
              "model/step": model.step.numpy(), "save_counter": np.int64(1)}
    ckpt_module._write_json_checkpoint(path, arrays)
    return path, model


def test_json_checkpoints_restore(saved_json):
    path, model = saved_json
    assert open(path + ".index", "rb").read(1) == b"{"
    fresh = Model(seed=4)
    Checkpoint(model=fresh).restore(path).assert_consumed()
    assert_same(values(fresh), values(model))
    assert not load_checkpoint(path).is_tensorflow_format


def test_truncated_json_index(saved_json):
    path, _ = saved_json
    raw = open(path + ".index", "rb").read()
    open(path + ".index", "wb").write(raw[: len(raw) // 2])
    restore_fails(path, "not valid JSON")


@pytest.mark.parametrize("edit", [
    lambda e: e.update(nbytes=e["nbytes"] + 4),
    lambda e: e.update(shape=[-1]),
    lambda e: e.update(dtype="object"),
    lambda e: e.update(offset=10**9),
    lambda e: e.pop("sha256"),
])
def test_inconsistent_index_entries(saved_json, edit):
    path, _ = saved_json
    index = json.load(open(path + ".index"))
    edit(index["tensors"]["model/dense/kernel"])
    json.dump(index, open(path + ".index", "w"))
    restore_fails(path, "bad entry for tensor 'model/dense/kernel'")


def test_index_cannot_point_outside_its_directory(saved_json):
    path, _ = saved_json
    index = json.load(open(path + ".index"))
    index["data_file"] = "../elsewhere"
    json.dump(index, open(path + ".index", "w"))
    restore_fails(path, "bad data file name")


def test_a_json_checkpoint_overwritten_leaves_no_alternate_data(saved_json):
    path, model = saved_json
    os.rename(path + ckpt_module.DATA_SUFFIX, path + ckpt_module.ALTERNATE_DATA_SUFFIX)
    Checkpoint(model=model).write(path)
    assert not os.path.exists(path + ckpt_module.ALTERNATE_DATA_SUFFIX)
    assert load_checkpoint(path).is_tensorflow_format


