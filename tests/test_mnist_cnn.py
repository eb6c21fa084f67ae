"""The convolutional example (examples/mnist_cnn_keras.py) reaches >= 97% on the 2,000 held-out
images of the shared MNIST split when trained on the other 8,000 (about 15 s on two cores)."""
from pathlib import Path

import pytest

from wengert import demo
from wengert.datasets import mnist

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "mnist"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.skipif(not (SHARED / "t10k-images-idx3-ubyte.gz").is_file(),
                    reason="../shared/data/mnist is absent")
def test_cnn_keras_reaches_97_percent():
    split = mnist.load_split(SHARED, train=8000, test=2000)
    example = demo.load_example("mnist_cnn_keras", EXAMPLES)
    accuracy = example.main(split=split, epochs=4, verbose=False)
    assert accuracy >= 0.97
