"""keras.callbacks.TensorBoard's write_images, embeddings_freq / embeddings_metadata and
profile_batch: weight images in Keras 3's layout, the projector config (built with
tensorboard's own protobuf classes, as Keras 3 builds it) and the embedding checkpoints, and
Keras's checks of profile_batch (profiling itself: tests/test_profiler_keras.py)."""
import os

import numpy as np
import pytest

import wengert as tf
from wengert.keras.callbacks.tensorboard import _weight_image

pytest.importorskip("tensorboard")
from tensorboard.backend.event_processing import event_accumulator  # noqa: E402

keras = tf.keras
RNG = np.random.default_rng(2767)


def _fit(board, model, x, y):
    model.compile("sgd", "mse")
    model.fit(x, y, epochs=2, batch_size=4, verbose=0, callbacks=[board])


def _images(logdir):
    acc = event_accumulator.EventAccumulator(str(logdir), size_guidance={"tensors": 0})
    acc.Reload()
    return {tag for tag in acc.Tags()["tensors"] if tag.endswith("/image")}


def test_write_images_draws_each_weight(tmp_path):
    model = keras.Sequential([keras.Input((6, 6, 2)), keras.layers.Conv2D(3, 2),
                              keras.layers.Flatten(), keras.layers.Dense(4)])
    x, y = RNG.normal(size=(8, 6, 6, 2)), RNG.normal(size=(8, 4))
    board = keras.callbacks.TensorBoard(str(tmp_path), histogram_freq=1, write_images=True)
    _fit(board, model, x.astype("float32"), y.astype("float32"))
    images = _images(tmp_path / "train")
    drawn = {w.path for w in model.weights if _weight_image(w.numpy()) is not None}
    assert images == {f"{p}/image" for p in drawn}  # Keras 3 tags a weight by its path
    assert any(n.endswith("bias") for n in drawn)
    none = keras.callbacks.TensorBoard(str(tmp_path / "plain"), histogram_freq=1)
    _fit(none, model, x.astype("float32"), y.astype("float32"))
    assert not _images(tmp_path / "plain" / "train")


@pytest.mark.parametrize("shape,want", [((5,), (1, 5, 1, 1)), ((7, 3), (1, 3, 7, 1)),
                                        ((3, 7), (1, 3, 7, 1)), ((1, 4, 1), (1, 4, 1, 1)),
                                        ((2, 3, 4), (4, 2, 3, 1)), ((2, 2, 3, 5), None),
                                        ((2, 2, 3, 4), (2, 2, 3, 4))])
def test_weight_image_layout_is_keras(shape, want):
    value = RNG.normal(size=shape)
    image = _weight_image(value)
    assert (None if image is None else image.shape) == want
    if len(shape) == 2 and shape[0] > shape[1]:
        np.testing.assert_array_equal(image[0, :, :, 0], value.T)
    if shape == (2, 3, 4):
        np.testing.assert_array_equal(image[1, :, :, 0], value[:, :, 1])


def _keras_projector_config(entries):
    """The projector_config.pbtxt Keras 3 writes: TensorBoard's ProjectorConfig with one
    embedding per Embedding layer, in protobuf text format (tensorboard's own classes)."""
    from google.protobuf import text_format
    from tensorboard.plugins import projector
    config = projector.ProjectorConfig()
    for metadata in entries:
        embedding = config.embeddings.add()
        embedding.tensor_name = "layer_with_weights-0/embeddings/.ATTRIBUTES/VARIABLE_VALUE"
        if metadata is not None:
            embedding.metadata_path = metadata
    return text_format.MessageToString(config)


@pytest.mark.parametrize("meta,paths", [({"words": "words.tsv"}, ["words.tsv", None]),
                                        ("all.tsv", ["all.tsv", "all.tsv"]),
                                        (None, [None, None])])
def test_embeddings_projector_is_keras(tmp_path, meta, paths):
    """(TensorFlow's environment here has no tensorboard package, which Keras needs for this,
    so the expected file is built with tensorboard's classes as Keras builds it.)"""
    x = RNG.integers(0, 7, (8, 4)).astype("int32")
    y = RNG.normal(size=(8, 4, 1)).astype("float32")
    inp = keras.Input((4,), dtype="int32")
    a = keras.layers.Embedding(10, 3, name="words")(inp)
    b = keras.layers.Embedding(7, 2, name="tags")(inp)
    model = keras.Model(inp, keras.layers.Dense(1)(keras.layers.Concatenate()([a, b])))
    model.compile("sgd", "mse")
    board = keras.callbacks.TensorBoard(str(tmp_path), embeddings_freq=2,
                                        embeddings_metadata=meta)
    model.fit(x, y, epochs=3, verbose=0, callbacks=[board])
    assert (tmp_path / "projector_config.pbtxt").read_text() == _keras_projector_config(paths)
    saved = sorted(f for f in os.listdir(tmp_path / "train") if "embedding" in f)
    assert saved == ["keras_embedding.ckpt-0.weights.h5", "keras_embedding.ckpt-2.weights.h5"]
    restored = keras.Model.from_config(model.get_config())
    restored.load_weights(str(tmp_path / "train" / saved[-1]))
    np.testing.assert_array_equal(restored.get_layer("words").get_weights()[0],
                                  model.get_layer("words").get_weights()[0])


def test_embeddings_metadata_naming_no_embedding_layer_is_an_error(tmp_path):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    board = keras.callbacks.TensorBoard(str(tmp_path), embeddings_freq=1,
                                        embeddings_metadata={"nope": "x.tsv"})
    with pytest.raises(ValueError, match="Unrecognized `Embedding` layer names.*nope"):
        board.set_model(model)


@pytest.mark.parametrize("value", [-1, (3, 2), "a,b", 1.5, (1, 2, 3)])
def test_profile_batch_is_checked_as_keras_checks_it(value):
    with pytest.raises(ValueError, match="profile_batch must be a non-negative integer"):
        keras.callbacks.TensorBoard(profile_batch=value)


@pytest.mark.parametrize("value, expected", [(2, (2, 2)), ((2, 5), (2, 5)), ("3,4", (3, 4))])
def test_profile_batch_range_is_accepted(value, expected):
    board = keras.callbacks.TensorBoard(profile_batch=value)
    assert (board._start_batch, board._stop_batch) == expected


def test_profile_batch_zero_is_accepted():
    assert keras.callbacks.TensorBoard(profile_batch=0).log_dir == "logs"
    assert keras.callbacks.TensorBoard(profile_batch=(0, 0)).log_dir == "logs"
