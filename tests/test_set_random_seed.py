"""keras.utils.set_random_seed makes a program repeat its numbers: Python's `random`, NumPy,
`tf.random` ops, `Dataset.shuffle` without a seed, keras.random's global generator, and Keras's
initializers, Dropout and fit's shuffling. The same small program (a model with Dropout trained
for an epoch, tf.random draws, a shuffled dataset) runs twice in fresh interpreters and twice in
this one, and must give identical numbers each time; another seed gives other numbers.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import wengert as tf
from wengert import keras

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROGRAM = '''
import json, random, sys
import numpy as np
import wengert as tf
from wengert import keras


def run(seed):
    keras.utils.set_random_seed(seed)
    out = {"python": random.random(), "numpy": float(np.random.rand()),
           "tf_normal": tf.random.normal((3,)).numpy().tolist(),
           "tf_uniform": tf.random.uniform((2,), maxval=10, dtype=tf.int32).numpy().tolist(),
           "keras_normal": keras.random.normal((3,)).numpy().tolist(),
           "shuffle": [int(v) for v in tf.data.Dataset.range(20).shuffle(20)]}
    x = np.linspace(0, 1, 64, dtype="float32").reshape(16, 4)
    y = (x.sum(1, keepdims=True) > 2).astype("float32")
    model = keras.Sequential([keras.layers.Input((4,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.Dropout(0.5), keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    history = model.fit(x, y, batch_size=4, epochs=1, shuffle=True, verbose=0)
    out["loss"] = history.history["loss"]
    out["weights"] = [w.tolist() for w in model.get_weights()]
    out["dropout"] = keras.layers.Dropout(0.5)(np.ones((2, 6), "float32"),
                                               training=True).numpy().tolist()
    return out


if __name__ == "__main__":
    print(json.dumps(run(int(sys.argv[1]))))
'''


def _run_fresh(tmp_path, seed):
    path = tmp_path / "program.py"
    path.write_text(PROGRAM)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, str(path), str(seed)], capture_output=True, text=True,
                          env=env, cwd=str(tmp_path), timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _run_here(seed):
    scope = {"__name__": "seeded_program"}
    exec(compile(PROGRAM, "program.py", "exec"), scope)  # noqa: S102 - this module's own text
    return scope["run"](seed)


def _assert_same(a, b):
    assert a.keys() == b.keys()
    for key in a:
        assert a[key] == b[key], f"{key} differs between the runs: {a[key]} vs {b[key]}"


def test_two_fresh_processes_give_the_same_numbers(tmp_path):
    first, second = _run_fresh(tmp_path, 7), _run_fresh(tmp_path, 7)
    _assert_same(first, second)
    other = _run_fresh(tmp_path, 8)
    for key in ("tf_normal", "keras_normal", "shuffle", "weights"):
        assert first[key] != other[key], f"{key} does not depend on the seed"


def test_two_runs_in_one_process_give_the_same_numbers():
    try:
        first, second = _run_here(11), _run_here(11)
        _assert_same(first, second)
        assert first["shuffle"] != list(range(20))
    finally:
        tf.random.set_seed(None)


def test_tf_random_and_dataset_shuffle_follow_the_seed():
    try:
        keras.utils.set_random_seed(3)
        draws = np.asarray(tf.random.normal((4,)))
        order = [int(v) for v in tf.data.Dataset.range(10).shuffle(10)]
        keras.utils.set_random_seed(3)
        assert np.array_equal(np.asarray(tf.random.normal((4,))), draws)
        assert [int(v) for v in tf.data.Dataset.range(10).shuffle(10)] == order
    finally:
        tf.random.set_seed(None)


@pytest.mark.parametrize("seed", [1.0, "1", None])
def test_set_random_seed_takes_an_int(seed):
    with pytest.raises(ValueError, match=r"expected `seed` argument to be an integer.*int\(seed\)"):
        keras.utils.set_random_seed(seed)
