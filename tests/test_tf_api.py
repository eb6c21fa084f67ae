"""TensorFlow 2.21's public API against wengert's: every module, name, parameter and class method
that TensorFlow has (stored in tests/references/tf_api.json) exists here, or is listed in
tests/references/tf_api_gaps.txt as not built yet. The list only shrinks: a name that goes
missing fails, and a listed name that now exists is reported until the list is rewritten
(`python tests/references/tf_api.py gaps`)."""
import json
import subprocess
import sys
import warnings

import pytest

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent / "references"))
import tf_api  # noqa: E402
from tf_reference import tf_python  # noqa: E402

REWRITE = "python tests/references/tf_api.py gaps"


@pytest.fixture(scope="module")
def gaps():
    return set(tf_api.gaps())


def test_nothing_tensorflow_has_goes_missing(gaps):
    lost = sorted(gaps - tf_api.listed(tf_api.GAPS))
    assert not lost, (
        f"{len(lost)} of TensorFlow's names, parameters or methods are missing here and not "
        f"listed as gaps: {lost[:40]}. Build them back; a deliberate removal is listed by "
        f"`{REWRITE}`, with the reason in the commit message.")


def test_built_names_leave_the_gap_list(gaps):
    closed = sorted(tf_api.listed(tf_api.GAPS) - gaps)
    if closed:
        warnings.warn(f"{len(closed)} listed gaps exist now ({closed[:20]}...): shorten "
                      f"tests/references/tf_api_gaps.txt with `{REWRITE}`")


def test_gap_list_is_sorted_and_unique():
    lines = [line for line in tf_api.GAPS.read_text().split("\n") if line]
    assert lines == sorted(set(lines))


def test_the_stored_api_is_tensorflows(tmp_path):
    python = tf_python()
    if python is None:
        pytest.skip("TensorFlow 2.21 is not installed (TF_PYTHON): the stored API stands")
    out = tmp_path / "api.json"
    done = subprocess.run([python, str(tf_api.HERE / "tf_api.py"), "record", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    live, stored = json.loads(out.read_text()), json.loads(tf_api.API.read_text())
    if (live["tensorflow"], live["keras"]) != (stored["tensorflow"], stored["keras"]):
        pytest.skip(f"stored: TensorFlow {stored['tensorflow']}, here {live['tensorflow']}")
    assert live == stored, "tests/references/tf_api.json is out of date: rerun its `record`"
