"""tf.compat.v1.flags and app.run as TensorFlow 2.21 runs TensorFlow 1 scripts (absl's API):
parsing forms, defaults, the auto-parse on first read, and the errors."""
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

from wengert.tf1 import flags as flag_module


@pytest.fixture
def flags():
    registry = flag_module.FlagValues()
    define = {name: getattr(flag_module, name) for name in flag_module.__all__
              if name.startswith("DEFINE")}
    return registry, define


def test_parsing_forms_and_leftovers(flags):
    registry, define = flags
    define["DEFINE_integer"]("batch_size", 100, "Batch size.", flag_values=registry)
    define["DEFINE_string"]("data_dir", "/tmp/d", "Data.", flag_values=registry)
    define["DEFINE_boolean"]("fake", False, "Fake data.", flag_values=registry)
    define["DEFINE_float"]("lr", 0.1, "lr", flag_values=registry)
    define["DEFINE_enum"]("mode", "a", ["a", "b"], "mode", flag_values=registry)
    define["DEFINE_list"]("layers", "1,2", "layers", flag_values=registry)
    define["DEFINE_multi_integer"]("seed", [0], "seeds", flag_values=registry)
    rest = registry(["prog", "--batch_size=5", "--fake", "--lr", "0.5", "--layers=3,4", "extra",
                     "--nofake", "--seed=1", "--seed=2", "--", "--lr=9"])
    assert rest == ["prog", "extra", "--lr=9"]  # as TensorFlow's (absl) flags answer
    assert (registry.batch_size, registry.fake, registry.lr, registry.layers, registry.data_dir,
            registry.mode, registry.seed) == (5, False, 0.5, ["3", "4"], "/tmp/d", "a", [1, 2])
    registry.batch_size = 7
    assert registry["batch_size"].value == 7 and "lr" in registry
    assert registry.flag_values_dict()["lr"] == 0.5


def test_errors_name_the_flag(flags):
    registry, define = flags
    define["DEFINE_integer"]("batch_size", 100, "Batch size.", flag_values=registry)
    define["DEFINE_enum"]("mode", "a", ["a", "b"], "mode", flag_values=registry)
    with pytest.raises(flag_module.IllegalFlagValueError, match="flag --batch_size=x"):
        registry(["prog", "--batch_size=x"])
    with pytest.raises(flag_module.UnrecognizedFlagError, match="Unknown command line flag "
                                                                "'unknown'"):
        registry(["prog", "--unknown=1"])
    with pytest.raises(flag_module.IllegalFlagValueError, match=r"value should be one of <a\|b>"):
        registry(["prog", "--mode=c"])
    with pytest.raises(flag_module.DuplicateFlagError, match="'batch_size' is defined twice"):
        define["DEFINE_integer"]("batch_size", 1, "", flag_values=registry)


def test_a_tf1_script_runs_with_app_run(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent("""
        import wengert.compat.v1 as tf
        flags = tf.app.flags
        flags.DEFINE_integer("steps", 3, "Training steps.")
        flags.DEFINE_string("name", "run", "Run name.")
        FLAGS = flags.FLAGS

        def main(argv):
            print(FLAGS.steps, FLAGS.name, argv[1:])
            return 0

        if __name__ == "__main__":
            tf.app.run()
        """))
    root = str(pathlib.Path(__file__).resolve().parents[1])  # this checkout's wengert
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [root] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    done = subprocess.run([sys.executable, str(script), "--steps=5", "left", "--name", "x"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "5 x ['left']"
