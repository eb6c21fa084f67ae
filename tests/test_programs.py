"""Whole programs written for TensorFlow 2.21 (tests/programs/), each run unchanged with
wengert standing in for `tensorflow` and `keras` (tests/programs/as_tensorflow.py); what each
prints must be what TensorFlow printed (tests/programs/expected/, recorded by
tests/programs/record.py). Text must be equal; numbers equal to 1e-4 relative (1e-5 absolute),
as two frameworks' float32 arithmetic allows. A program is the unit users see: a missing piece
anywhere fails it."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).parent / "programs"
PROGRAMS = sorted(p.stem for p in HERE.glob("*.py")
                  if p.name not in ("as_tensorflow.py", "record.py"))
NUMBER = re.compile(r"-?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|inf|nan)")

# Programs that stop or differ today, and why; strict, so a fix shows as an unexpected pass.
PENDING = {}


def _parts(line):
    """The line split into its text and its numbers."""
    return NUMBER.split(line), [float(n) for n in NUMBER.findall(line)]


def _same_line(mine, theirs):
    text_a, nums_a = _parts(mine)
    text_b, nums_b = _parts(theirs)
    if text_a != text_b or len(nums_a) != len(nums_b):
        return False
    return all(a == b or abs(a - b) <= 1e-5 + 1e-4 * abs(b) for a, b in zip(nums_a, nums_b))


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_prints_what_tensorflow_printed(name):
    expected = (HERE / "expected" / f"{name}.txt").read_text().splitlines()
    root = str(HERE.parent.parent)  # this checkout's wengert, whatever is installed
    env = dict(os.environ, PYTHONWARNINGS="ignore",
               PYTHONPATH=os.pathsep.join([root] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    done = subprocess.run([sys.executable, str(HERE / "as_tensorflow.py"), str(HERE / f"{name}.py")],
                          capture_output=True, text=True, env=env, timeout=600)
    got = done.stdout.splitlines()
    if name in PENDING:
        assert done.returncode != 0 or got != expected, \
            f"{name} now prints what TensorFlow printed: take it out of PENDING"
        pytest.xfail(PENDING[name])
    assert done.returncode == 0, f"{name} stopped:\n{done.stderr[-3000:]}"
    for k, (mine, theirs) in enumerate(zip(got, expected)):
        assert _same_line(mine, theirs), f"{name}, line {k + 1}:\n  wengert:    {mine}\n" \
                                         f"  TensorFlow: {theirs}"
    assert len(got) == len(expected), f"{name}: {len(got)} lines, TensorFlow printed " \
                                      f"{len(expected)}"


def test_lines_compare_text_exactly_and_numbers_closely():
    assert _same_line("loss: [1.00001, 2.0]", "loss: [1.0, 2.0]")
    assert not _same_line("loss: [1.1, 2.0]", "loss: [1.0, 2.0]")
    assert not _same_line("acc: 1.0", "loss: 1.0")
    assert _same_line("x: -0.0 inf", "x: 0.0 inf")
