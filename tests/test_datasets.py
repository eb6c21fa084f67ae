"""wengert.datasets.mnist: IDX parsing, digests, the demo split, downloads and clear errors."""
import gzip
import shutil
import struct
import sys
import types
import urllib.error
from pathlib import Path

import numpy as np
import pytest

from wengert.datasets import mnist
from wengert.datasets.idx import read_idx
from wengert.framework.errors import DataLossError, NotFoundError

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "mnist"
needs_shared = pytest.mark.skipif(not (SHARED / "t10k-images-idx3-ubyte.gz").is_file(),
                                  reason="../shared/data/mnist is absent")


def idx_bytes(array, type_code=0x08):
    header = struct.pack(">BBBB", 0, 0, type_code, array.ndim)
    return header + struct.pack(f">{array.ndim}i", *array.shape) + array.tobytes()


def write_fake_mnist(directory, n_train=12, n_test=7):
    """The four files, uncompressed (names without .gz: checked by magic and size only)."""
    rng = np.random.RandomState(0)
    arrays = {"train-images-idx3-ubyte": rng.randint(0, 256, (n_train, 28, 28)).astype(np.uint8),
              "train-labels-idx1-ubyte": rng.randint(0, 10, n_train).astype(np.uint8),
              "t10k-images-idx3-ubyte": rng.randint(0, 256, (n_test, 28, 28)).astype(np.uint8),
              "t10k-labels-idx1-ubyte": rng.randint(0, 10, n_test).astype(np.uint8)}
    for name, array in arrays.items():
        (Path(directory) / name).write_bytes(idx_bytes(array))
    return arrays


@pytest.fixture
def no_local_data(tmp_path, monkeypatch):
    """An empty cache directory, no shared folder, no network."""
    monkeypatch.setenv("WENGERT_DATA_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "keras"))
    monkeypatch.setattr(mnist, "_shared_dirs", lambda: [])

    def offline(url, timeout=None):
        raise urllib.error.URLError("network unreachable")
    monkeypatch.setattr(mnist.urllib.request, "urlopen", offline)
    return tmp_path / "cache" / "mnist"


# -- reading IDX ----------------------------------------------------------------------------------
def test_read_idx_uncompressed_and_gzip(tmp_path):
    array = np.arange(24, dtype=np.uint8).reshape(2, 3, 4)
    (tmp_path / "a-idx3-ubyte").write_bytes(idx_bytes(array))
    (tmp_path / "a-idx3-ubyte.gz").write_bytes(gzip.compress(idx_bytes(array)))
    np.testing.assert_array_equal(read_idx(tmp_path / "a-idx3-ubyte", expected_magic=2051), array)
    np.testing.assert_array_equal(read_idx(tmp_path / "a-idx3-ubyte.gz"), array)
    wide = np.array([1, -2, 300], dtype=">i4")
    (tmp_path / "b").write_bytes(idx_bytes(wide, 0x0C))
    out = read_idx(tmp_path / "b")
    assert out.dtype == np.int32 and out.tolist() == [1, -2, 300]


def test_read_idx_errors_name_the_file(tmp_path):
    array = np.arange(24, dtype=np.uint8).reshape(2, 3, 4)
    data = idx_bytes(array)
    file = tmp_path / "x-idx3-ubyte"
    file.write_bytes(data[:-5])
    with pytest.raises(DataLossError, match=r"x-idx3-ubyte.*truncated"):
        read_idx(file)
    file.write_bytes(data + b"extra")
    with pytest.raises(DataLossError, match="longer than its header"):
        read_idx(file)
    file.write_bytes(data)
    with pytest.raises(DataLossError, match="magic number 2051, expected 2049"):
        read_idx(file, expected_magic=2049)
    file.write_bytes(b"\x01\x02")
    with pytest.raises(DataLossError, match="too short"):
        read_idx(file)
    file.write_bytes(b"\x12\x34\x56\x78" + data[4:])
    with pytest.raises(DataLossError, match="IDX magic"):
        read_idx(file)
    gz = tmp_path / "y-idx3-ubyte.gz"
    gz.write_bytes(gzip.compress(data)[:-10])
    with pytest.raises(DataLossError, match=r"y-idx3-ubyte.gz.*gzip"):
        read_idx(gz)
    with pytest.raises(NotFoundError, match="does not exist"):
        read_idx(tmp_path / "missing")


# -- the official files ---------------------------------------------------------------------------
@needs_shared
def test_shared_files_match_their_digests():
    labels = read_idx(SHARED / "t10k-labels-idx1-ubyte.gz", 2049,
                      *mnist.FILES["t10k-labels-idx1-ubyte.gz"][:2])
    assert labels.shape == (10000,) and labels[:5].tolist() == [7, 2, 1, 0, 4]
    images = mnist._read(SHARED, "t10k-images-idx3-ubyte.gz")
    assert images.shape == (10000, 28, 28) and images.dtype == np.uint8 and images.max() == 255
    assert mnist._read(SHARED, "train-labels-idx1-ubyte.gz")[:3].tolist() == [5, 0, 4]


@needs_shared
def test_corrupted_official_file_is_caught(tmp_path):
    name = "t10k-labels-idx1-ubyte.gz"
    data = bytearray((SHARED / name).read_bytes())
    (tmp_path / name).write_bytes(bytes(data[:-100]))
    with pytest.raises(DataLossError, match=rf"{name}.*4442 bytes, expected 4542"):
        mnist._read(tmp_path, name)
    data[2000] ^= 0xFF
    (tmp_path / name).write_bytes(bytes(data))
    with pytest.raises(DataLossError, match=rf"{name}.*SHA-256"):
        mnist._read(tmp_path, name)


@needs_shared
def test_load_split_from_the_shared_test_set():
    split = mnist.load_split(SHARED)
    (x_train, y_train), (x_test, y_test) = split
    assert x_train.shape == (8000, 28, 28) and x_test.shape == (2000, 28, 28)
    assert x_train.dtype == y_train.dtype == np.uint8
    assert y_train[:5].tolist() == [7, 2, 1, 0, 4]
    everything = mnist._read(SHARED, "t10k-labels-idx1-ubyte.gz")
    np.testing.assert_array_equal(y_test, everything[-2000:])
    assert split.name == "mnist" and str(SHARED) in split.source and "8,000" in split.source


@needs_shared
def test_load_split_finds_the_shared_folder(no_local_data, monkeypatch):
    monkeypatch.setattr(mnist, "_shared_dirs", lambda: [SHARED])
    split = mnist.load_split(train=100, test=50)
    assert split.name == "mnist" and len(split[0][0]) == 100 and len(split[1][1]) == 50
    with pytest.raises(ValueError, match="too many"):
        mnist.load_split(train=9000, test=2000)


@needs_shared
def test_load_data_without_training_images_names_them():
    with pytest.raises(NotFoundError, match="train-images-idx3-ubyte.gz not found") as info:
        mnist.load_data(SHARED)
    assert "t10k-labels-idx1-ubyte.gz" in str(info.value)  # the message lists all four files


# -- load_data on a complete set -------------------------------------------------------------------
def test_load_data_reads_all_four_files(tmp_path):
    arrays = write_fake_mnist(tmp_path)
    (x_train, y_train), (x_test, y_test) = mnist.load_data(tmp_path)
    np.testing.assert_array_equal(x_train, arrays["train-images-idx3-ubyte"])
    np.testing.assert_array_equal(y_test, arrays["t10k-labels-idx1-ubyte"])
    split = mnist.load_split(tmp_path, train=10, test=5)
    assert "training images" in split.source and len(split[0][0]) == 10


def test_wrong_shapes_and_labels_are_caught(tmp_path):
    write_fake_mnist(tmp_path)
    (tmp_path / "t10k-labels-idx1-ubyte").write_bytes(idx_bytes(np.full(7, 12, np.uint8)))
    with pytest.raises(DataLossError, match="labels up to 12"):
        mnist.load_data(tmp_path)
    (tmp_path / "t10k-images-idx3-ubyte").write_bytes(idx_bytes(np.zeros((7, 8, 8), np.uint8)))
    with pytest.raises(DataLossError, match=r"shape \(7, 8, 8\)"):
        mnist.load_data(tmp_path)


def test_cache_dir_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("WENGERT_DATA_DIR", raising=False)
    assert mnist.cache_dir() == Path.home() / ".wengert" / "datasets" / "mnist"
    monkeypatch.setenv("WENGERT_DATA_DIR", str(tmp_path))
    assert mnist.cache_dir() == tmp_path / "mnist"
    write_fake_mnist(tmp_path)  # the files directly in $WENGERT_DATA_DIR
    assert mnist.cache_dir() == tmp_path
    assert len(mnist.load_data()[0][0]) == 12


# -- downloads -------------------------------------------------------------------------------------
def test_offline_error_names_the_files_and_the_folder(no_local_data):
    with pytest.raises(NotFoundError) as info:
        mnist.load_data()
    message = str(info.value)
    for name in mnist.FILES:
        assert name in message
    assert str(no_local_data) in message and "could not be downloaded" in message


def _hide_sklearn(monkeypatch):
    """Make `import sklearn` / `from sklearn.datasets import ...` fail, even when an earlier test
    imported them (both names must be blocked: a submodule already imported is found directly)."""
    for name in ("sklearn", "sklearn.datasets"):
        monkeypatch.setitem(sys.modules, name, None)


@needs_shared
def test_download_checks_the_digest(no_local_data, monkeypatch):
    _hide_sklearn(monkeypatch)
    official = {name: (SHARED / name).read_bytes() for name in mnist.TEST}

    class Response:
        def __init__(self, data):
            self.data = data

        def read(self):
            return self.data

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(mnist.urllib.request, "urlopen",
                        lambda url, timeout=None: Response(official[url.rsplit("/", 1)[1]]))
    split = mnist.load_split(train=10, test=10)  # no local files, no scikit-learn: download
    assert split.name == "mnist" and (no_local_data / mnist.TEST[0]).is_file()
    assert sorted(p.name for p in no_local_data.iterdir()) == sorted(mnist.TEST)  # no temp files

    monkeypatch.setattr(mnist.urllib.request, "urlopen",
                        lambda url, timeout=None: Response(b"not the file"))
    with pytest.raises(NotFoundError, match="wrong SHA-256"):
        mnist.download(no_local_data, ["train-labels-idx1-ubyte.gz"])
    assert not (no_local_data / "train-labels-idx1-ubyte.gz").exists()


# -- scikit-learn's digits ------------------------------------------------------------------------
def fake_sklearn(monkeypatch, n=50):
    rng = np.random.RandomState(1)
    bunch = types.SimpleNamespace(images=rng.randint(0, 17, (n, 8, 8)).astype(np.float64),
                                  target=rng.randint(0, 10, n))
    datasets = types.ModuleType("sklearn.datasets")
    datasets.load_digits = lambda: bunch
    package = types.ModuleType("sklearn")
    package.datasets = datasets
    monkeypatch.setitem(sys.modules, "sklearn", package)
    monkeypatch.setitem(sys.modules, "sklearn.datasets", datasets)
    return bunch


def test_digits_are_scaled_to_28x28(monkeypatch):
    bunch = fake_sklearn(monkeypatch)
    split = mnist.load_split(source="digits")
    (x_train, y_train), (x_test, y_test) = split
    assert x_train.shape[1:] == (28, 28) and x_train.dtype == np.uint8
    assert len(x_train) + len(x_test) == 50 and len(x_test) == 10  # 8000:2000 scaled down
    assert split.name == "digits" and "scikit-learn" in split.source
    order = np.random.RandomState(0).permutation(50)
    first = bunch.images[order[0]]
    np.testing.assert_array_equal(x_train[0][2:26:3, 2:26:3], np.round(first * 255 / 16))
    assert x_train[0][:2].max() == 0 and y_train[0] == bunch.target[order[0]]


def test_auto_uses_digits_without_mnist_files(no_local_data, monkeypatch):
    fake_sklearn(monkeypatch)
    assert mnist.load_split().name == "digits"


def test_no_data_at_all_is_a_clear_error(no_local_data, monkeypatch):
    _hide_sklearn(monkeypatch)
    with pytest.raises(ImportError, match=r"wengert\[sklearn\]"):
        mnist.load_split(source="digits")
    with pytest.raises(NotFoundError, match=r"(?s)t10k-images-idx3-ubyte.gz.*scikit-learn") as info:
        mnist.load_split()
    assert str(no_local_data) in str(info.value)


def test_bad_source_and_missing_path(tmp_path):
    with pytest.raises(ValueError, match="source must be"):
        mnist.load_split(source="cifar")
    with pytest.raises(NotFoundError, match="t10k-images"):
        mnist.load_split(tmp_path)


def test_shared_copy_is_read_like_the_original(tmp_path):
    if not (SHARED / "t10k-labels-idx1-ubyte.gz").is_file():
        pytest.skip("../shared/data/mnist is absent")
    shutil.copy(SHARED / "t10k-labels-idx1-ubyte.gz", tmp_path)
    raw = gzip.decompress((SHARED / "t10k-labels-idx1-ubyte.gz").read_bytes())
    (tmp_path / "t10k-images-idx3-ubyte").write_bytes(
        idx_bytes(np.zeros((10000, 28, 28), np.uint8)))
    split = mnist.load_split(tmp_path, train=10, test=10)
    assert split[0][1].tolist() == list(raw[8:18])


# -- Keras' cache (issue 14 item 2) -----------------------------------------------------------------
def test_load_data_reads_keras_cache_idx_and_npz(no_local_data, tmp_path, monkeypatch):
    keras_cache = tmp_path / "keras" / "datasets"
    keras_cache.mkdir(parents=True)
    arrays = write_fake_mnist(keras_cache)
    (x_train, y_train), (x_test, _) = mnist.load_data()
    np.testing.assert_array_equal(x_train, arrays["train-images-idx3-ubyte"])
    assert x_test.shape == (7, 28, 28)
    for name in list(keras_cache.iterdir()):
        name.unlink()
    np.savez(keras_cache / "mnist.npz", x_train=np.zeros((3, 28, 28), np.uint8),
             y_train=np.arange(3, dtype=np.uint8), x_test=np.ones((2, 28, 28), np.uint8),
             y_test=np.arange(2, dtype=np.uint8))
    (x_train, y_train), (x_test, y_test) = mnist.load_data("mnist.npz")
    assert x_train.shape == (3, 28, 28) and y_test.tolist() == [0, 1]
    import wengert as tf
    assert tf.keras.datasets.mnist.load_data()[1][0].shape == (2, 28, 28)


def test_load_data_says_where_to_put_the_files(no_local_data):
    with pytest.raises(NotFoundError) as info:
        mnist.load_data(download_missing=False)
    message = str(info.value)
    assert "no download is possible" in message and "mnist.npz" in message
    assert "keras" in message and "KERAS_HOME" in message and "t10k-images-idx3-ubyte.gz" in message
