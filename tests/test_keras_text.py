"""keras.layers.Hashing and TextVectorization: FarmHash Fingerprint64 / SipHash bins and the
text pipeline (standardize, split, ngrams, vocabulary, int / multi_hot / count / tf_idf outputs)
against TensorFlow 2.21's Keras (in a subprocess, skipped without it), plus values checked by
hand (Keras's documented examples), configs, and use inside traced functions and models."""
import json

import numpy as np
import pytest

import wengert as tf
from wengert.ops.io.hashing import fingerprint64, siphash24

from keras_tf_eval import tf_eval

L = tf.keras.layers
RNG = np.random.default_rng(5)
TEXTS = np.array(["The cat sat on the mat.", "The DOG sat!", "a cat, a dog; and a bird",
                  "  spaces\tand\nnewlines  ", "", "Don't-stop (me) now", "cat cat cat"])
QUERIES = np.array(["the cat and the bird", "unknown words only", "a dog sat on a cat",
                    "", "mat mat sat"])


def _list(t):
    return np.asarray(t).tolist()


def test_hashing_documented_examples():
    # Keras's docstring examples (TensorFlow's FarmHash bins)
    layer = L.Hashing(num_bins=3)
    assert _list(layer([["A"], ["B"], ["C"], ["D"], ["E"]])) == [[1], [0], [1], [1], [2]]
    masked = L.Hashing(num_bins=3, mask_value="")
    assert _list(masked([["A"], ["B"], [""], ["C"], ["D"]])) == [[1], [1], [0], [2], [2]]
    salted = L.Hashing(num_bins=3, salt=133)
    assert _list(salted([["A"], ["B"], ["C"], ["D"], ["E"]])) == [[0], [0], [2], [1], [0]]
    assert layer(tf.constant([["A"]])).dtype == tf.int64


def test_hashing_output_modes_config_and_tracing():
    multi = L.Hashing(num_bins=4, output_mode="multi_hot")
    bins = _list(L.Hashing(num_bins=4)([["A", "B", "A"]]))[0]
    expected = np.zeros(4, np.float32)
    expected[bins] = 1
    out = multi([["A", "B", "A"]])
    assert out.dtype == tf.float32 and _list(out) == [expected.tolist()]
    count = L.Hashing(num_bins=4, output_mode="count")([["A", "B", "A"]])
    assert _list(count)[0] == np.bincount(bins, minlength=4).tolist()
    config = L.Hashing(num_bins=5, salt=7, mask_value=0).get_config()
    assert config["salt"] == [7, 7] and config["num_bins"] == 5 and config["mask_value"] == 0
    assert L.Hashing.from_config(config).salt == [7, 7]
    traced = tf.function(lambda s: L.Hashing(num_bins=3)(s), autograph=False)
    assert _list(traced(tf.constant([["A"], ["E"]]))) == [[1], [2]]
    with pytest.raises(ValueError, match="num_bins"):
        L.Hashing(num_bins=0)
    with pytest.raises(ValueError, match="salt"):
        L.Hashing(num_bins=3, salt="x")


def test_text_vectorization_by_hand():
    layer = L.TextVectorization()
    layer.adapt(np.array(["The cat sat.", "the DOG sat!", "a cat, a dog"]))
    assert layer.get_vocabulary() == ["", "[UNK]", "the", "sat", "dog", "cat", "a"]
    out = layer(np.array(["the cat", "a dog sat on me"]))
    assert out.dtype == tf.int64 and _list(out) == [[2, 5, 0, 0, 0], [6, 4, 3, 1, 1]]
    short = L.TextVectorization(vocabulary=["a", "b"], output_sequence_length=3)
    assert _list(short(np.array(["b a b a", "a"]))) == [[3, 2, 3], [2, 0, 0]]
    multi = L.TextVectorization(vocabulary=["a", "b"], output_mode="multi_hot")
    assert multi.get_vocabulary() == ["[UNK]", "a", "b"]
    out = multi(np.array(["b b z", "a"]))
    assert out.dtype == tf.int64 and _list(out) == [[1, 0, 1], [0, 1, 0]]
    grams = L.TextVectorization(ngrams=2, standardize=None, output_mode="count")
    grams.adapt(np.array(["x y x y"]))
    assert grams.get_vocabulary() == ["[UNK]", "y", "x y", "x", "y x"]  # ties: larger first
    traced = tf.function(lambda s: layer(s), autograph=False)
    assert _list(traced(tf.constant(["the cat"]))) == [[2, 5]]


def test_text_vectorization_with_callables():
    def standardize(x):
        return tf.strings.regex_replace(tf.strings.lower(x), "[0-9]", "#")

    layer = L.TextVectorization(standardize=standardize)
    layer.adapt(np.array(["Ab 12 cd", "ab"]))
    assert layer.get_vocabulary() == ["", "[UNK]", "ab", "cd", "##"]
    assert _list(layer(np.array(["AB 3"]))) == [[2, 1]]
    dashes = L.TextVectorization(standardize=None, split=lambda x: tf.strings.split(x, sep="-"))
    dashes.adapt(np.array(["a-b-c", "b-c"]))
    assert dashes.get_vocabulary() == ["", "[UNK]", "c", "b", "a"]
    assert _list(dashes(np.array(["a-c", "b"]))) == [[4, 2], [3, 0]]


def test_text_vectorization_in_a_model_and_config():
    layer = L.TextVectorization(max_tokens=6, output_mode="int", output_sequence_length=4)
    layer.adapt(TEXTS)
    assert len(layer.get_vocabulary()) == 6
    restored = L.TextVectorization.from_config(layer.get_config())
    np.testing.assert_array_equal(restored(QUERIES), layer(QUERIES))
    idf = L.TextVectorization(output_mode="tf_idf", max_tokens=40, pad_to_max_tokens=True)
    idf.adapt(TEXTS)
    np.testing.assert_array_equal(L.TextVectorization.from_config(idf.get_config())(QUERIES),
                                  idf(QUERIES))
    model = tf.keras.Sequential([layer, L.Embedding(6, 3), L.GlobalAveragePooling1D()])
    assert tuple(model(QUERIES).shape) == (5, 3)
    with pytest.raises(ValueError, match="output_sequence_length"):
        L.TextVectorization(output_mode="count", output_sequence_length=3)


def test_text_layers_in_compiled_functional_models():
    # numpy_function outputs get their static shapes, so fit compiles (no eager fallback)
    import warnings
    x = tf.keras.Input(shape=(), dtype="string")
    tokens = L.TextVectorization(vocabulary=["a", "b"], output_sequence_length=4)(x)
    assert tuple(tokens.shape) == (None, 4) and tokens.dtype == tf.int64
    pooled = L.GlobalAveragePooling1D()(L.Embedding(4, 3)(tokens))
    words = tf.keras.Input(shape=(1,), dtype="string")
    hashed = L.Hashing(7, output_mode="one_hot")(words)
    assert tuple(hashed.shape) == (None, 7) and hashed.dtype == tf.float32
    model = tf.keras.Model([x, words], L.Concatenate()([pooled, L.Dense(2)(hashed)]))
    model.compile(optimizer="sgd", loss="mse")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.fit([np.array(["a b", "b z"]), np.array([["q"], ["r"]])], np.zeros((2, 5)),
                  verbose=0)


# -- against TensorFlow's Keras ---------------------------------------------------------------
RANDOM_STRINGS = np.array([bytes(RNG.integers(32, 127, n, dtype=np.uint8)).decode()
                           for n in list(range(0, 80)) + [100, 127, 128, 129, 300]])
INTS = RNG.integers(-10 ** 12, 10 ** 12, (6, 3))
FLOATS = RNG.uniform(-1000, 1000, (4, 2))
HASH_CASES = [  # (case name, kwargs, inputs)
    ("fast_strings", {"num_bins": 1 << 40}, RANDOM_STRINGS),
    ("strong_strings", {"num_bins": 1000003, "salt": [12345, -678]}, RANDOM_STRINGS),
    ("ints", {"num_bins": 17}, INTS),
    ("ints_masked", {"num_bins": 17, "mask_value": int(INTS[1, 1])}, INTS),
    ("floats", {"num_bins": 11}, FLOATS),
    ("salt_int", {"num_bins": 9, "salt": 99}, RANDOM_STRINGS[:20].reshape(4, 5)),
    ("one_hot", {"num_bins": 5, "output_mode": "one_hot"}, RANDOM_STRINGS[:6].reshape(6, 1)),
    ("multi_hot", {"num_bins": 6, "output_mode": "multi_hot"}, RANDOM_STRINGS[:12].reshape(3, 4)),
    ("count_masked", {"num_bins": 6, "output_mode": "count", "mask_value": "a"},
     np.array([["a", "b", "a", "c"], ["d", "a", "e", "e"]])),
]
TV_CASES = [  # (case name, kwargs, adapt data or None, inputs)
    ("default", {}, TEXTS, QUERIES),
    ("max_tokens_seq", {"max_tokens": 7, "output_sequence_length": 6}, TEXTS, QUERIES),
    ("lower", {"standardize": "lower"}, TEXTS, QUERIES),
    ("strip", {"standardize": "strip_punctuation", "ngrams": 2}, TEXTS, QUERIES),
    ("none_split", {"standardize": None, "split": None}, TEXTS, TEXTS.reshape(-1, 1)),
    ("character", {"split": "character", "output_sequence_length": 12}, TEXTS, QUERIES),
    ("ngrams_tuple", {"ngrams": (1, 3)}, TEXTS, QUERIES),
    ("multi_hot", {"output_mode": "multi_hot"}, TEXTS, QUERIES),
    ("count_ngrams", {"output_mode": "count", "ngrams": 2, "max_tokens": 12}, TEXTS, QUERIES),
    ("tf_idf", {"output_mode": "tf_idf"}, TEXTS, QUERIES),
    ("tf_idf_padded", {"output_mode": "tf_idf", "max_tokens": 30, "pad_to_max_tokens": True},
     TEXTS, QUERIES),
    ("vocabulary", {"vocabulary": ["cat", "dog", "the", "a"]}, None, QUERIES),
    ("vocabulary_count", {"vocabulary": ["cat", "dog", "the", "a"], "output_mode": "count"},
     None, QUERIES),
    ("vocabulary_idf", {"vocabulary": ["cat", "dog", "the"], "output_mode": "tf_idf",
                        "idf_weights": [0.5, 1.5, 2.0]}, None, QUERIES),
    ("column_input", {"output_sequence_length": 4}, TEXTS.reshape(-1, 1), QUERIES.reshape(-1, 1)),
]

_TF_SCRIPT = """
import json
cases = json.loads(A["cases"].item())
for name, kwargs in cases["hash"]:
    try:
        out["hash/" + name] = np.asarray(keras.layers.Hashing(**kwargs)(A["hash/" + name]))
    except Exception as exc:
        out["hash/" + name + "/error"] = np.asarray(repr(exc))
for name, kwargs, adapt in cases["tv"]:
    if isinstance(kwargs.get("ngrams"), list):
        kwargs["ngrams"] = tuple(kwargs["ngrams"])
    try:
        layer = keras.layers.TextVectorization(**kwargs)
        if adapt:
            layer.adapt(A[name + "/adapt"])
        out[name] = np.asarray(layer(A[name + "/x"]))
        out[name + "/vocab"] = np.asarray(json.dumps(layer.get_vocabulary()))
    except Exception as exc:
        out[name + "/error"] = np.asarray(repr(exc))
"""


@pytest.fixture(scope="module")
def tf_text():
    arrays = {"cases": np.asarray(json.dumps({
        "hash": [[n, k] for n, k, _ in HASH_CASES],
        "tv": [[n, k, a is not None] for n, k, a, _ in TV_CASES]}))}
    for name, _, x in HASH_CASES:
        arrays["hash/" + name] = x
    for name, _, adapt, x in TV_CASES:
        arrays[name + "/x"] = x
        if adapt is not None:
            arrays[name + "/adapt"] = adapt
    return tf_eval(_TF_SCRIPT, arrays)


@pytest.mark.parametrize("name, kwargs, x", HASH_CASES, ids=[c[0] for c in HASH_CASES])
def test_hashing_matches_tensorflow(tf_text, name, kwargs, x):
    key = "hash/" + name
    assert key + "/error" not in tf_text, str(tf_text.get(key + "/error"))
    out = L.Hashing(**kwargs)(x)
    np.testing.assert_array_equal(np.asarray(out), tf_text[key])
    assert np.asarray(out).dtype == tf_text[key].dtype


@pytest.mark.parametrize("name, kwargs, adapt, x", TV_CASES, ids=[c[0] for c in TV_CASES])
def test_text_vectorization_matches_tensorflow(tf_text, name, kwargs, adapt, x):
    assert name + "/error" not in tf_text, str(tf_text.get(name + "/error"))
    layer = L.TextVectorization(**kwargs)
    if adapt is not None:
        layer.adapt(adapt)
    assert layer.get_vocabulary() == json.loads(str(tf_text[name + "/vocab"]))
    out = np.asarray(layer(x))
    assert out.dtype == tf_text[name].dtype and out.shape == tf_text[name].shape
    np.testing.assert_allclose(out, tf_text[name], rtol=1e-6)


def test_hash_functions_bitwise():
    # tf.fingerprint (FarmHash Fingerprint64, read little-endian) and
    # tf.strings.to_hash_bucket_strong(..., 2**62, key=[0, 0]), computed once with TF 2.21.
    assert [fingerprint64(s) for s in (b"", b"hello", b"x" * 100)] == [
        0x9ae16a3b2f90404f, 0xb48be5a931380ce8, 0x5b7616b854568a1f]
    assert [siphash24([0, 0], s) % 2 ** 62 for s in (b"", b"hello")] == [
        2202906307356721367, 919118455976186553]
