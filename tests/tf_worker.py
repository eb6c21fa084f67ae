"""A TensorFlow interpreter that runs the tests' TensorFlow scripts one after another, so that
TensorFlow and Keras are imported once per test process instead of once per script (about five
seconds of CPU each time; the suite runs a few hundred such scripts where TensorFlow is installed).

Run by TensorFlow's interpreter (never imports wengert): `python tests/tf_worker.py`. It reads one
JSON request per line on stdin, {"argv": [script, arg, ...], "env": {...}}, runs the script as
`__main__` with that argv and environment (as `python script arg ...` started by the test would),
and answers one JSON line on its private channel,
{"returncode": int, "stderr": str, "clean": bool}. Between scripts it puts back what a script may
change: sys.argv, sys.path, os.environ, the working directory, the tests' own modules (imported
afresh next time), Keras's session, floatx, epsilon, image data format and dtype policy, and
`run_functions_eagerly`. "clean" is false when a script left state that cannot be put back (TF 1
graph mode, a changed TensorFlow setting): the client then starts a new worker for the next script.
Scripts' stdout is discarded (the tests read results from the files the scripts write).
"""
import contextlib
import io
import json
import os
import runpy
import sys
import traceback

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
CHANNEL = os.fdopen(os.dup(1), "w")  # replies; fd 1 itself is pointed at /dev/null below
_null = os.open(os.devnull, os.O_WRONLY)
os.dup2(_null, 1)

import tensorflow as tf  # noqa: E402
import keras  # noqa: E402

TESTS = os.path.dirname(os.path.abspath(__file__))


def _settings():
    return (tf.executing_eagerly(), tf.config.functions_run_eagerly(),
            keras.config.floatx(), keras.config.epsilon(), keras.config.image_data_format(),
            keras.config.dtype_policy().name)


BASELINE = _settings()


def _reset():
    keras.backend.clear_session()
    keras.config.set_floatx("float32")
    keras.config.set_epsilon(1e-7)
    keras.config.set_image_data_format("channels_last")
    keras.config.set_dtype_policy("float32")
    tf.config.run_functions_eagerly(False)
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None) or ""
        if path.startswith(TESTS) and name != "__main__":
            del sys.modules[name]


def _run(argv, env):
    saved = (list(sys.argv), list(sys.path), dict(os.environ), os.getcwd())
    os.environ.clear()
    os.environ.update(env)
    sys.argv = list(argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(argv[0])))
    err = io.StringIO()
    code = 0
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if not isinstance(exc.code, (int, type(None))):
            err.write(str(exc.code))
    except BaseException:  # noqa: BLE001 - the script's failure is the answer
        code = 1
        err.write(traceback.format_exc())
    finally:
        sys.argv, sys.path[:] = saved[0], saved[1]
        os.environ.clear()
        os.environ.update(saved[2])
        os.chdir(saved[3])
    try:
        _reset()
        clean = _settings() == BASELINE
    except Exception:  # noqa: BLE001 - a state this worker cannot put back
        clean = False
    return {"returncode": code, "stderr": err.getvalue(), "clean": clean}


def main():
    for line in sys.stdin:
        request = json.loads(line)
        reply = _run(request["argv"], request["env"])
        CHANNEL.write(json.dumps(reply) + "\n")
        CHANNEL.flush()
        if not reply["clean"]:
            return


if __name__ == "__main__":
    main()
