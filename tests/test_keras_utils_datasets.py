"""keras.utils dataset builders against TensorFlow 2.21's Keras 3: image_dataset_from_directory,
text_dataset_from_directory and timeseries_dataset_from_array on the same folder tree and
arrays (file order after Keras's seeded shuffle, class names, labels in every label mode,
validation subsets, decoded and resized pixels, windows), plus their argument errors."""
import os

import numpy as np
import pytest

import wengert as tf
from wengert import keras

from keras_tf_eval import tf_eval

TREE = '''
def build_tree(root):
    rng = np.random.RandomState(0)
    for c, n in (("cat", 3), ("dog", 4), ("eel", 2)):
        os.makedirs(os.path.join(root, c, "sub"))
        for i in range(n):
            img = rng.randint(0, 255, size=(5 + i, 7, 3)).astype("uint8")
            sub = "sub" if i == 1 else ""
            with open(os.path.join(root, c, sub, f"im{i}.png"), "wb") as f:
                f.write(tf.image.encode_png(img).numpy())
            with open(os.path.join(root, c, sub, f"t{i}.txt"), "w") as f:
                f.write(f"{c} text {i} " * (i + 1))
        with open(os.path.join(root, c, "notes.md"), "w") as f:
            f.write("ignored")
    os.makedirs(os.path.join(root, ".hidden"))
    with open(os.path.join(root, ".hidden", "h.txt"), "w") as f:
        f.write("hidden")
'''

BUILD = TREE + '''
def relative(paths, root):
    return np.array([os.path.relpath(p, root) for p in paths])


def run(root, utils):
    res = {}
    ds = utils.image_dataset_from_directory(root, image_size=(4, 4), batch_size=4, seed=7,
                                            verbose=False)
    res["a_names"] = np.array(ds.class_names)
    res["a_paths"] = relative(ds.file_paths, root)
    res["a_labels"] = np.sort(np.concatenate([np.asarray(y) for _, y in ds]))
    res["a_shapes"] = np.array([np.asarray(x).shape for x, _ in ds])
    ds = utils.image_dataset_from_directory(root, image_size=(3, 5), batch_size=4,
                                            shuffle=False, label_mode="categorical",
                                            verbose=False)
    res["b_images"] = np.concatenate([np.asarray(x) for x, _ in ds])
    res["b_labels"] = np.concatenate([np.asarray(y) for _, y in ds])
    res["b_paths"] = relative(ds.file_paths, root)
    train, val = utils.image_dataset_from_directory(
        root, image_size=(4, 4), batch_size=2, seed=11, validation_split=0.3, subset="both",
        label_mode="binary", class_names=["dog", "cat"], verbose=False)
    res["c_train_paths"] = relative(train.file_paths, root)
    res["c_val_paths"] = relative(val.file_paths, root)
    res["c_val_labels"] = np.concatenate([np.asarray(y) for _, y in val])
    res["c_train_labels"] = np.sort(np.concatenate([np.asarray(y) for _, y in train]), 0)
    ds = utils.image_dataset_from_directory(root, image_size=(3, 3), batch_size=None,
                                            shuffle=False, labels=None, color_mode="grayscale",
                                            interpolation="nearest", crop_to_aspect_ratio=True,
                                            verbose=False)
    res["d_images"] = np.stack([np.asarray(x) for x in ds])
    ds = utils.image_dataset_from_directory(root, image_size=(4, 4), batch_size=5,
                                            shuffle=False, labels=list(range(9)),
                                            pad_to_aspect_ratio=True, verbose=False)
    res["f_images"] = np.concatenate([np.asarray(x) for x, _ in ds])
    res["f_labels"] = np.concatenate([np.asarray(y) for _, y in ds])
    res["f_names"] = np.array(ds.class_names)
    ds = utils.text_dataset_from_directory(root, batch_size=4, shuffle=False, max_length=12,
                                           verbose=False)
    res["e_texts"] = np.concatenate([np.asarray(x) for x, _ in ds]).astype("S")
    res["e_labels"] = np.concatenate([np.asarray(y) for _, y in ds])
    ds = utils.text_dataset_from_directory(root, batch_size=3, seed=5, validation_split=0.25,
                                           subset="validation", label_mode="categorical",
                                           verbose=False)
    res["g_texts"] = np.sort(np.concatenate([np.asarray(x) for x, _ in ds]).astype("S"))
    res["g_names"] = np.array(ds.class_names)
    return res
'''

SERIES = '''
def series(utils, data, targets):
    res = {}
    ds = utils.timeseries_dataset_from_array(data, targets, sequence_length=4,
                                             sequence_stride=2, sampling_rate=3,
                                             batch_size=5, start_index=2, end_index=28)
    res["s_x"] = np.concatenate([np.asarray(x) for x, _ in ds])
    res["s_y"] = np.concatenate([np.asarray(y) for _, y in ds])
    res["s_batches"] = np.array([np.asarray(x).shape[0] for x, _ in ds])
    ds = utils.timeseries_dataset_from_array(data, None, sequence_length=3, batch_size=None,
                                             shuffle=True, seed=4)
    res["t_x"] = np.sort(np.stack([np.asarray(x) for x in ds]), axis=0)
    return res
'''

_TF_SCRIPT = BUILD + SERIES + '''
import tempfile
root = tempfile.mkdtemp()
build_tree(root)
out.update(run(root, keras.utils))
out.update(series(keras.utils, A["data"], A["targets"]))
'''


def _arrays():
    rng = np.random.default_rng(3)
    return {"data": rng.normal(size=(30, 2)).astype("float32"),
            "targets": np.arange(30, dtype="int64") * 10}


@pytest.fixture(scope="module")
def answers(tmp_path_factory):
    arrays = _arrays()
    scope = {"np": np, "os": os, "tf": tf}
    exec(BUILD + SERIES, scope)
    root = str(tmp_path_factory.mktemp("tree"))
    scope["build_tree"](root)
    ours = scope["run"](root, keras.utils)
    ours.update(scope["series"](keras.utils, arrays["data"], arrays["targets"]))
    return ours, tf_eval(_TF_SCRIPT, arrays)


ALL = ["a_names", "a_paths", "a_labels", "a_shapes", "b_images", "b_labels", "b_paths",
       "c_train_paths", "c_val_paths", "c_val_labels", "c_train_labels", "d_images",
       "f_images", "f_labels", "f_names", "e_texts", "e_labels", "g_texts", "g_names",
       "s_x", "s_y", "s_batches", "t_x"]


@pytest.mark.parametrize("key", ALL)
def test_matches_keras(answers, key):
    ours, theirs = answers
    a, b = np.asarray(ours[key]), np.asarray(theirs[key])
    assert a.shape == b.shape, (key, a.shape, b.shape)
    if a.dtype.kind in "fc":
        assert a.dtype == b.dtype, (key, a.dtype, b.dtype)
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-4, err_msg=key)
    else:
        assert a.tolist() == b.tolist(), key


def test_dataset_carries_attributes_and_cardinality(tmp_path):
    scope = {"np": np, "os": os, "tf": tf}
    exec(TREE, scope)
    scope["build_tree"](str(tmp_path))
    ds = keras.utils.image_dataset_from_directory(str(tmp_path), image_size=(2, 2),
                                                  batch_size=4, seed=1, verbose=False)
    assert len(ds) == 3 and ds.class_names == ["cat", "dog", "eel"]
    assert len(ds.file_paths) == 9


def test_directory_builder_errors(tmp_path):
    utils = keras.utils
    with pytest.raises(ValueError, match="seed"):
        utils.image_dataset_from_directory(str(tmp_path), validation_split=0.2,
                                           subset="training")
    with pytest.raises(ValueError, match="subset"):
        utils.text_dataset_from_directory(str(tmp_path), validation_split=0.2, seed=1)
    with pytest.raises(ValueError, match="label_mode"):
        utils.image_dataset_from_directory(str(tmp_path), label_mode="sparse")
    with pytest.raises(ValueError, match="color_mode"):
        utils.image_dataset_from_directory(str(tmp_path), color_mode="cmyk")
    with pytest.raises(ValueError, match="not a directory"):
        utils.text_dataset_from_directory(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="No images found"):
        utils.image_dataset_from_directory(str(tmp_path), verbose=False)


def test_timeseries_windows_against_numpy():
    data = np.arange(50)
    ds = keras.utils.timeseries_dataset_from_array(data, data * 2, sequence_length=5,
                                                   sampling_rate=2, sequence_stride=3,
                                                   batch_size=4)
    xs = np.concatenate([x.numpy() for x, _ in ds])
    ys = np.concatenate([y.numpy() for _, y in ds])
    starts = np.arange(0, 50 - 4 * 2, 3)
    np.testing.assert_array_equal(xs, starts[:, None] + np.arange(5) * 2)
    np.testing.assert_array_equal(ys, starts * 2)
    with pytest.raises(ValueError, match="sampling_rate"):
        keras.utils.timeseries_dataset_from_array(data, None, 3, sampling_rate=0)
