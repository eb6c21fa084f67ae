"""Record TensorFlow's answers for the tests that compare with it, into tests/references/.

    python tests/references/regenerate.py                      # every comparing test module
    python tests/references/regenerate.py tests/test_fft.py    # only these

Run it where TensorFlow 2.21 is installed (TF_PYTHON, default /work/tfvenv/bin/python). Each
named module's stored file is deleted, then its tests run with WENGERT_TF_REFERENCES=record, so
the file holds exactly the cases the module asks TensorFlow about today. Commit the .npz files
it writes; tests without TensorFlow (CI) compare with them (tests/reference_store.py).
"""
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
TESTS = HERE.parent
USES = ("reference_store", "run_tf", "tf_eval", "assert_matches")


def comparing_modules():
    """The test modules that ask TensorFlow (directly or through a helper module)."""
    return sorted(p for p in TESTS.glob("test_*.py")
                  if any(word in p.read_text() for word in USES))


def main(argv):
    sys.path.insert(0, str(TESTS))
    from tf_reference import tf_python
    python = tf_python()
    if python is None:
        sys.exit("TensorFlow 2.21 is not installed: set TF_PYTHON to its interpreter")
    modules = [pathlib.Path(a).resolve() for a in argv] or comparing_modules()
    for module in modules:
        (HERE / f"{module.stem}.npz").unlink(missing_ok=True)
    version = subprocess.run([python, "-c", "import tensorflow; print(tensorflow.__version__)"],
                             capture_output=True, text=True, check=True).stdout.strip()
    env = dict(os.environ, WENGERT_TF_REFERENCES="record", TF_PYTHON=python,
               WENGERT_TF_VERSION=version)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-n", "2",
                           "--dist", "loadfile", *map(str, modules)], cwd=TESTS.parent, env=env)
    for module in modules:
        stored = HERE / f"{module.stem}.npz"
        size = f"{stored.stat().st_size / 1024:.0f} KiB" if stored.exists() else "nothing stored"
        print(f"{module.name}: {size}")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
