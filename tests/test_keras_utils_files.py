"""keras.utils file and batch helpers: get_file offline (file:// copies, the cache, hashes,
archives, the error for a URL), images as arrays with Pillow (array_to_img / img_to_array /
load_img / save_img against NumPy), and PyDataset batches read by fit, evaluate and predict."""
import hashlib
import os
import tarfile
import zipfile

import numpy as np
import pytest

from wengert import keras

PIL = pytest.importorskip("PIL")


def test_get_file_copies_a_local_origin_and_uses_the_cache(tmp_path):
    source = tmp_path / "data.csv"
    source.write_text("a,b\n1,2\n")
    cache = tmp_path / "cache"
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    path = keras.utils.get_file(origin=source.as_uri(), cache_dir=str(cache), file_hash=digest)
    assert path == str(cache / "datasets" / "data.csv")
    assert open(path).read() == "a,b\n1,2\n"
    source.unlink()
    again = keras.utils.get_file("data.csv", origin="https://example.com/data.csv",
                                 cache_dir=str(cache), cache_subdir="datasets")
    assert again == path


def test_get_file_offline_error_names_url_and_place(tmp_path):
    with pytest.raises(OSError) as info:
        keras.utils.get_file("w.h5", origin="https://example.com/w.h5", cache_dir=str(tmp_path))
    message = str(info.value)
    assert "https://example.com/w.h5" in message
    assert str(tmp_path / "datasets" / "w.h5") in message
    with pytest.raises(ValueError, match="origin"):
        keras.utils.get_file("x")
    with pytest.raises(ValueError, match="file name"):
        keras.utils.get_file("a/b", origin="file:///nothing", cache_dir=str(tmp_path))


def test_get_file_bad_hash_and_archives(tmp_path):
    source = tmp_path / "f.txt"
    source.write_text("hello")
    with pytest.raises(ValueError, match="hash"):
        keras.utils.get_file(origin=source.as_uri(), cache_dir=str(tmp_path / "c"),
                             md5_hash="0" * 32)
    archive = tmp_path / "pack.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(source, arcname="inner/f.txt")
    out = keras.utils.get_file("pack.tar.gz", origin=archive.as_uri(),
                               cache_dir=str(tmp_path / "c"), extract=True)
    assert out == str(tmp_path / "c" / "datasets" / "pack_extracted")
    assert open(os.path.join(out, "inner", "f.txt")).read() == "hello"
    zipped = tmp_path / "z.zip"
    with zipfile.ZipFile(zipped, "w") as z:
        z.writestr("a.txt", "zip")
    out = keras.utils.get_file(origin=zipped.as_uri(), cache_dir=str(tmp_path / "c"),
                               extract=True)
    assert out == str(tmp_path / "c" / "datasets" / "z.zip")
    assert open(os.path.join(out, "a.txt")).read() == "zip"


def test_image_round_trip_against_numpy(tmp_path):
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 255, size=(5, 6, 3)).astype("float32")
    img = keras.utils.array_to_img(x)
    scaled = (x - x.min()) / (x - x.min()).max() * 255
    np.testing.assert_array_equal(keras.utils.img_to_array(img), scaled.astype("uint8"))
    path = str(tmp_path / "a.png")
    keras.utils.save_img(path, x, scale=False)
    loaded = keras.utils.load_img(path)
    np.testing.assert_array_equal(keras.utils.img_to_array(loaded), x.astype("uint8"))
    gray = keras.utils.img_to_array(keras.utils.load_img(path, color_mode="grayscale"))
    assert gray.shape == (5, 6, 1)
    small = keras.utils.load_img(path, target_size=(2, 3), interpolation="bilinear")
    assert small.size == (3, 2)
    cropped = keras.utils.load_img(path, target_size=(4, 4), keep_aspect_ratio=True)
    assert cropped.size == (4, 4)
    first = keras.utils.img_to_array(img, data_format="channels_first")
    assert first.shape == (3, 5, 6)
    assert keras.utils.array_to_img(first, data_format="channels_first").size == (6, 5)


def test_image_errors():
    with pytest.raises(ValueError, match="rank 3"):
        keras.utils.array_to_img(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="channels"):
        keras.utils.array_to_img(np.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="color_mode"):
        keras.utils.load_img("x.png", color_mode="cmyk")


class Batches(keras.utils.PyDataset):
    def __init__(self, with_y=True):
        super().__init__(workers=2)
        self.with_y, self.begins, self.ends = with_y, 0, 0
        rng = np.random.default_rng(1)
        self.x = rng.normal(size=(20, 3)).astype("float32")
        self.y = self.x @ np.array([[1.0], [-2.0], [0.5]], "float32")

    def __len__(self):
        return 3

    def __getitem__(self, index):
        rows = slice(index * 8, (index + 1) * 8)
        return (self.x[rows], self.y[rows]) if self.with_y else self.x[rows]

    def on_epoch_begin(self):
        self.begins += 1

    def on_epoch_end(self):
        self.ends += 1


def _model():
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    return model


def test_py_dataset_in_fit_evaluate_predict():
    data = Batches()
    model = _model()
    history = model.fit(data, epochs=3, verbose=0)
    assert data.begins == 3 and data.ends == 3
    assert history.history["loss"][-1] < history.history["loss"][0]
    arrays = _model()
    arrays.set_weights(model.get_weights())
    assert model.evaluate(data, verbose=0) == pytest.approx(
        arrays.evaluate(data.x, data.y, batch_size=8, verbose=0), rel=1e-6)
    np.testing.assert_allclose(model.predict(Batches(with_y=False), verbose=0),
                               arrays.predict(data.x, batch_size=8, verbose=0), rtol=1e-6)
    assert keras.utils.Sequence is keras.utils.PyDataset


def test_py_dataset_unshuffled_fit_matches_arrays():
    data, model, arrays = Batches(), _model(), _model()
    model.fit(data, epochs=2, shuffle=False, verbose=0)
    arrays.fit(data.x, data.y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    for a, b in zip(model.get_weights(), arrays.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    with pytest.raises(ValueError, match="workers"):
        keras.utils.PyDataset(workers=0)
