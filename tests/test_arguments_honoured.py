"""Every parameter that wengert's function shares with TensorFlow's (stored in
tests/references/tf_api.json) is read by the function: honoured, or refused with a clear error
when given a value wengert cannot honour. A parameter taken and never read changes nothing, so a
program that passes it silently gets another answer than TensorFlow's. The ones known today are
listed in tests/references/ignored_arguments.txt; the list only shrinks (a new one fails, and
one that is read now is reported until `python tests/references/tf_api.py ignored` rewrites it).
"""
import pathlib
import sys
import warnings

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent / "references"))
import tf_api  # noqa: E402

REWRITE = "python tests/references/tf_api.py ignored"


@pytest.fixture(scope="module")
def unread():
    return set(tf_api.ignored())


def test_no_new_parameter_is_taken_and_ignored(unread):
    new = sorted(unread - tf_api.listed(tf_api.IGNORED))
    assert not new, (
        f"these parameters are taken but never read: {new[:30]}. Honour each as TensorFlow "
        f"does, or raise a clear error (naming the argument and value) when it is given a value "
        f"wengert cannot honour.")


def test_honoured_parameters_leave_the_list(unread):
    fixed = sorted(tf_api.listed(tf_api.IGNORED) - unread)
    if fixed:
        warnings.warn(f"{len(fixed)} listed parameters are read now ({fixed[:20]}): shorten "
                      f"tests/references/ignored_arguments.txt with `{REWRITE}`")


def test_the_check_finds_an_ignored_parameter():
    def sample(x, axis=None, name=None):
        return x

    def honest(x, axis=None, name=None):
        if axis is not None:
            raise NotImplementedError("sample: axis")
        return x, name

    params = [["x", "POSITIONAL_OR_KEYWORD", False], ["axis", "POSITIONAL_OR_KEYWORD", True],
              ["name", "POSITIONAL_OR_KEYWORD", True]]
    assert tf_api.unread_parameters(sample, params) == ["axis", "name"]
    assert tf_api.unread_parameters(honest, params) == []
