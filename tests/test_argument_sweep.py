"""Every optional parameter of the public functions of tf.math, tf.nn, tf.linalg, tf.signal,
tf.image, tf.strings and the top-level tf.* changes wengert's answer as it changes TensorFlow's.

tests/test_arguments_honoured.py proves statically that each parameter is read; this sweep
proves the reading is right: for each function of TensorFlow 2.21's stored API
(tests/references/tf_api.json) with a table entry (argument_sweep_array_table.py,
argument_sweep_nn_table.py), one call on a small valid input with nothing optional given, and
one call per optional parameter (name excepted) set to a non-default value, one at a time; each
call is made eagerly and again traced by tf.function, both compared with TensorFlow's eager
answer.
wengert's result must equal TensorFlow's: the same dtype, shape and values (floats to 1e-4), the
same structure (tuples, ragged and sparse parts), or the same exception class where TensorFlow
refuses the value. TensorFlow's answers are stored in tests/references/test_argument_sweep.npz
(`python tests/references/regenerate.py tests/test_argument_sweep.py`).

The functions and parameters the sweep does not call are listed with the reason (Skip in the
tables; test_every_skip_says_why); KNOWN (and KNOWN_IN_FUNCTION, for traced calls) list the
differences not fixed yet, each a strict xfail saying what TensorFlow answers.
"""
import pathlib
import sys

import pytest

import argument_sweep
import argument_sweep_array_table
import argument_sweep_nn_table
import wengert
from tf_reference import tf_python

sys.path.insert(0, str(pathlib.Path(__file__).parent / "references"))
import tf_api  # noqa: E402

TABLE = {**argument_sweep_array_table.TABLE, **argument_sweep_nn_table.TABLE}
CASES, SKIPPED = argument_sweep.build_cases(TABLE, argument_sweep_array_table.VALUE_BY_NAME,
                                            argument_sweep_array_table.SKIP_BY_NAME)

SIGNS = ("the signs of the eigen- or singular vectors are the solver's choice: TensorFlow's "
         "Eigen picks others than wengert's LAPACK; both are valid (values agree)")
POOL = ("wengert/ops/nn/pool.py (being reworked elsewhere): tf.nn.pool reads input.shape.rank "
        "of a NumPy input (AttributeError) and refuses dilations other than 1 "
        "(NotImplementedError); TensorFlow computes both")
# case -> what TensorFlow answers and why wengert does not yet
KNOWN = {
    "tf.linalg.eigh()": SIGNS, "tf.linalg.svd()": SIGNS,
    "tf.linalg.eigh_tridiagonal(eigvals_only)": SIGNS,
    **{f"tf.nn.pool({p})": POOL for p in ("", "strides", "padding", "dilations")},
}
EAGER_ONLY = ("wengert computes it in NumPy from the inputs' values (ops/image/patches.py, "
              "boxes.py, glimpse.py): inside a tf.function the inputs are symbolic and it "
              "raises NotImplementedError; TensorFlow's is an op that works in graphs")
KNOWN_IN_FUNCTION = {
    **{f"tf.image.{f}({p})": EAGER_ONLY for f, params in (
        ("combined_non_max_suppression", ("", "iou_threshold", "score_threshold",
                                          "pad_per_class", "clip_boxes")),
        ("draw_bounding_boxes", ("",)),
        ("extract_glimpse", ("", "centered", "normalized")),
        ("non_max_suppression", ("", "iou_threshold", "score_threshold")),
        ("non_max_suppression_overlaps", ("", "overlap_threshold", "score_threshold")),
        ("non_max_suppression_padded", ("", "iou_threshold", "score_threshold",
                                        "pad_to_max_output_size", "sorted_input",
                                        "canonicalized_coordinates", "tile_size")),
        ("non_max_suppression_with_scores", ("", "iou_threshold", "score_threshold",
                                             "soft_nms_sigma"))) for p in params},
}
GAPS = tf_api.listed(tf_api.GAPS)


@pytest.fixture(scope="module")
def answers():
    return argument_sweep.tf_answers(CASES, tf_python())


@pytest.fixture(scope="module")
def space():
    return argument_sweep.scope(wengert)


def _param(name, expr, known):
    function = name.split("(")[0]
    why = known.get(name) or (f"wengert lacks {function} (tests/references/tf_api_gaps.txt)"
                              if function in GAPS else None)
    marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
    return pytest.param(name, expr, id=name, marks=marks)


@pytest.mark.parametrize("name, expr", [_param(n, e, KNOWN) for n, e, _ in CASES])
def test_argument_changes_the_answer_as_in_tensorflow(name, expr, answers, space):
    mine = argument_sweep.json_round_trip(space["evaluate"](expr))
    problem = argument_sweep.same(mine, answers[name])
    assert problem is None, f"{expr}: {problem}"


@pytest.mark.parametrize("name, expr", [_param(n, e, {**KNOWN, **KNOWN_IN_FUNCTION})
                                        for n, e, _ in CASES])
def test_argument_changes_the_answer_in_a_function_too(name, expr, answers, space):
    """The same call traced by tf.function gives TensorFlow's (eager) answer."""
    theirs = answers[name]
    if theirs[0] in ("error", "py", "shape", "dtype"):
        pytest.skip("TensorFlow's eager answer is an error or a Python value: a function's "
                    "output would not be comparable")
    mine = argument_sweep.json_round_trip(space["evaluate_in_function"](expr))
    problem = argument_sweep.same(mine, theirs)
    assert problem is None, f"tf.function(lambda: {expr})(): {problem}"


def test_the_sweep_is_broad():
    with_param = [n for n, _, _ in CASES if not n.endswith("()")]
    assert len(with_param) >= 400, len(with_param)


def test_every_skip_says_why():
    silent = [name for name, why in SKIPPED if not why or why == "no value chosen"]
    assert not silent, f"choose a value for these parameters or Skip them with a reason: {silent}"


def test_known_differences_are_cases():
    names = {n for n, _, _ in CASES}
    assert not set(KNOWN) - names, sorted(set(KNOWN) - names)
    assert not set(KNOWN_IN_FUNCTION) - names, sorted(set(KNOWN_IN_FUNCTION) - names)


def test_every_case_is_python(answers):
    broken = [name for name, answer in answers.items() if answer == ["error", "SyntaxError"]]
    assert not broken, f"these cases' argument text is not Python: {broken}"
