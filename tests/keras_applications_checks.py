"""Checks of keras.applications networks against TensorFlow 2.21's Keras, shared by the
tests/test_keras_applications_*.py modules.

Each network is built in both libraries with `weights=None` from the same keyword arguments
(after clear_session, so automatic layer names agree), and compared by `count_params()`, the
names of its layers (the input layer aside: Keras 3 calls it `input_layer`, wengert `input_N`)
and the layout of the `.weights.h5` file each writes (every variable's path and shape), which
is what makes weights files move between them. For a forward check, each side writes its
`.weights.h5` file, overwrites every variable in it with a draw keyed by the variable's path
(`FILL`, the same code run in both: vectors uniform in [0.5, 1.5], so batch-norm variances are
positive, kernels normal with variance 1/fan_in), loads the file back (wengert through the
network's own `weights=path` argument) and runs the network on one image; TensorFlow's output
is stored (tests/references/, through keras_tf_eval.tf_eval) and wengert's must agree.
"""
import numpy as np

from keras_tf_eval import tf_eval
from wengert import keras
from wengert.keras.saving.h5_weights import own_variables, walk_saveables

FILL = '''
import zlib
import h5py
import numpy as np


def weight_paths(path):
    """[(dataset path, shape)] of a .weights.h5 file, sorted."""
    found = []
    with h5py.File(path, "r") as f:
        f.visititems(lambda name, obj: found.append((name, obj.shape))
                     if isinstance(obj, h5py.Dataset) else None)
    return sorted(found)


def fill_weights_file(path):
    """Overwrite each variable of a .weights.h5 file with a draw keyed by its path."""
    with h5py.File(path, "r+") as f:
        for name, shape in weight_paths(path):
            rng = np.random.default_rng(zlib.crc32(name.encode()))
            if len(shape) <= 1:
                value = rng.uniform(0.5, 1.5, shape)
            else:
                value = rng.normal(0.0, np.sqrt(1.0 / np.prod(shape[:-1])), shape)
            f[name][...] = value.astype(f[name].dtype)
'''
_fill_scope = {}
exec(FILL, _fill_scope)  # the same source the TensorFlow snippet runs
weight_paths, fill_weights_file = _fill_scope["weight_paths"], _fill_scope["fill_weights_file"]

_SNIPPET = FILL + '''
import tempfile
SPECS = {specs!r}
folder = tempfile.mkdtemp()
for key, (fn, kwargs, forward) in SPECS.items():
    keras.backend.clear_session()
    model = getattr(keras.applications, fn)(**kwargs)
    out[key + "_count"] = np.int64(model.count_params())
    out[key + "_names"] = np.array([layer.name for layer in model.layers[1:]])
    path = f"{{folder}}/{{key}}.weights.h5"
    model.save_weights(path)
    out[key + "_paths"] = np.array([f"{{n}}:{{tuple(s)}}" for n, s in weight_paths(path)])
    if forward:
        fill_weights_file(path)
        model.load_weights(path)
        out[key + "_y"] = np.asarray(model(A[key], training=False))
'''


def tf_structures(specs, images):
    """TensorFlow's answers for {key: (network name, kwargs, forward?)}; images: {key: x}."""
    return tf_eval(_SNIPPET.format(specs=specs), {k: images[k] for k in images})


def build(fn, kwargs):
    keras.backend.clear_session()
    return getattr(keras.applications, fn)(**kwargs)


def _layout(model):
    """[(dataset path, shape)] of the `.weights.h5` file wengert writes for `model`, sorted."""
    found = []
    for path, obj in walk_saveables(model):
        prefix = f"{path}/vars" if path else "vars"
        found.extend((f"{prefix}/{i}", tuple(v.shape)) for i, v in enumerate(own_variables(obj)))
    return sorted(found)


def check_structure(model, answers, key, folder=None):
    """count_params, layer names and the weights file's layout equal TensorFlow's; with a
    folder, the model's weights file written there (its path returned)."""
    assert model.count_params() == int(answers[f"{key}_count"])
    assert [layer.name for layer in model.layers[1:]] == list(answers[f"{key}_names"])
    layout = _layout(model)
    assert [f"{n}:{s}" for n, s in layout] == list(answers[f"{key}_paths"])
    if folder is None:
        return None
    path = str(folder / f"{key}.weights.h5")
    model.save_weights(path)
    assert weight_paths(path) == layout
    return path


def check_forward(fn, kwargs, answers, key, image, path, rtol=1e-3):
    """Fill the weights file at `path`, load it through `weights=`, and compare one output."""
    fill_weights_file(path)
    keras.backend.clear_session()
    model = getattr(keras.applications, fn)(**dict(kwargs, weights=path))
    got = model(image, training=False).numpy()
    want = answers[f"{key}_y"]
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * np.abs(want).max())
