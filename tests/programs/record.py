"""Record what TensorFlow 2.21 prints for each program here, into expected/<program>.txt:

    python tests/programs/record.py [PROGRAM.py ...]     # default: every program

Run it where TensorFlow is installed (TF_PYTHON, default /work/tfvenv/bin/python). Each program
runs unchanged under TensorFlow, with its log messages off; tests/test_programs.py then runs it
with wengert standing in for TensorFlow (as_tensorflow.py) and compares what it prints.
"""
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
EXPECTED = HERE / "expected"


def programs():
    return sorted(p for p in HERE.glob("*.py") if p.name not in ("as_tensorflow.py",
                                                                 "record.py"))


def main(argv):
    python = os.environ.get("TF_PYTHON", "/work/tfvenv/bin/python")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="")
    EXPECTED.mkdir(exist_ok=True)
    failed = 0
    for program in [pathlib.Path(a).resolve() for a in argv] or programs():
        done = subprocess.run([python, str(program)], capture_output=True, text=True, env=env,
                              cwd=program.parent, timeout=600)
        if done.returncode != 0:
            failed += 1
            print(f"{program.name}: TensorFlow failed\n{done.stderr[-2000:]}")
            continue
        (EXPECTED / f"{program.stem}.txt").write_text(done.stdout)
        print(f"{program.name}: {len(done.stdout.splitlines())} lines")
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
