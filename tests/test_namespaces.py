"""The public namespaces: what `import wengert` loads, and the namespaces loaded on first use.

`import wengert` loads the ops, autodiff, graphs, tf.function and the light namespaces; Keras,
tf.distribute, ONNX, SavedModel, summaries, tf.data and the datasets load when a program first
touches them (wengert/util/lazy.py), and are then ordinary attributes.
"""
import json
import subprocess
import sys

import pytest

import wengert as tf
from wengert.util.lazy import lazy_attributes

HEAVY = ("keras", "distribute", "onnx", "saved_model", "summary", "data", "datasets", "train",
         "optimizers")


def _fresh(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout


def test_import_loads_no_heavy_namespace():
    out = _fresh("import json, sys, wengert\n"
                 "print(json.dumps(sorted({m.split('.')[1] for m in sys.modules\n"
                 "                         if m.startswith('wengert.')})))")
    loaded = json.loads(out)
    assert not set(HEAVY) & set(loaded), f"import wengert loaded {set(HEAVY) & set(loaded)}"
    assert {"ops", "autodiff", "tracing", "control_flow", "autograph"} <= set(loaded)


def test_first_access_loads_and_caches():
    out = _fresh("import sys, wengert as tf\n"
                 "before = 'wengert.keras' in sys.modules\n"
                 "k = tf.keras\n"
                 "print(before, 'wengert.keras' in sys.modules, 'keras' in vars(tf),\n"
                 "      k is tf.keras, k.layers.Dense.__name__)")
    assert out.split() == ["False", "True", "True", "True", "Dense"]


def test_lazy_names_are_listed_and_importable():
    assert {"keras", "data", "distribute", "saved_model", "summary"} <= set(dir(tf))
    from wengert import keras  # noqa: F401  (a submodule: the import system loads it)
    from wengert.nn import RNNCellDropoutWrapper  # a name: the namespace's __getattr__
    assert RNNCellDropoutWrapper.__name__ == "DropoutWrapper"
    assert tf.nn.compute_average_loss is tf.distribute.compute_average_loss


def test_compat_v1_holds_the_top_level():
    v1 = tf.compat.v1
    assert v1.add_n is tf.add_n and v1.tuple is tf.tuple and v1.Variable is tf.Variable
    assert v1.reduce_sum is not tf.reduce_sum  # TF 1's signature (reduction_indices, keep_dims)
    assert v1.nn.relu is tf.nn.relu and v1.nn.RNNCellDropoutWrapper is tf.nn.RNNCellDropoutWrapper
    assert "placeholder" in dir(v1) and "reduce_sum" in dir(v1)
    with pytest.raises(AttributeError, match="no attribute 'not_a_tensorflow_name'"):
        v1.not_a_tensorflow_name  # noqa: B018


def test_lazy_attributes_helper():
    namespace = {"__name__": "wengert.fake", "__package__": "wengert"}
    getattr_, dir_ = lazy_attributes(namespace, {"dt": ".dtypes",
                                                 "f32": ".framework.dtypes:float32"})
    assert getattr_("f32") is tf.float32 and namespace["f32"] is tf.float32
    assert getattr_("dt") is tf.dtypes
    assert {"dt", "f32"} <= set(dir_())
    with pytest.raises(AttributeError, match="'wengert.fake' has no attribute 'nope'"):
        getattr_("nope")
