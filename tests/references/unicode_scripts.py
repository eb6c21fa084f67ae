"""Write wengert/ops/io/data/unicode_scripts.npz from TensorFlow itself: the ICU script code
(UScriptCode) TensorFlow 2.21's tf.strings.unicode_script gives every code point 0..0x10FFFF,
as ranges (start code point, script): a range runs to the next start.

    /work/tfvenv/bin/python tests/references/unicode_scripts.py [out.npz]

Python has no script table of its own; ICU's, as TensorFlow links it, is the reference. The file
holds two arrays, `starts` (int32, ascending, starting at 0) and `scripts` (int16), loaded
with allow_pickle=False; surrogates (U+D800..U+DFFF) get the code TensorFlow gives them too.
tests/test_string_unicode_script.py compares a sample of code points with answers stored from
TensorFlow.
"""
import os
import pathlib
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

DEFAULT = pathlib.Path(__file__).resolve().parents[2] / "wengert" / "ops" / "io" / "data" / \
    "unicode_scripts.npz"


def scripts_of_every_code_point():
    codes = np.arange(0x110000, dtype=np.int32)
    return tf.strings.unicode_script(codes).numpy()


def ranges(scripts):
    """(starts, scripts): where the script changes, and the script from there on."""
    starts = np.flatnonzero(np.diff(scripts)) + 1
    starts = np.concatenate([[0], starts]).astype(np.int32)
    return starts, scripts[starts].astype(np.int16)


def main(argv):
    out = pathlib.Path(argv[0]) if argv else DEFAULT
    starts, scripts = ranges(scripts_of_every_code_point())
    np.savez_compressed(out, starts=starts, scripts=scripts)
    print(f"{out}: {len(starts)} ranges, TensorFlow {tf.__version__}")


if __name__ == "__main__":
    main(sys.argv[1:])
