"""The demo run by the README's first command: gradients, then training on MNIST.

    python -m wengert.demo

First TensorFlow's classic GradientTape examples, then the classic MNIST softmax tutorial twice
(TensorFlow 1: placeholders, a Session and GradientDescentOptimizer(0.5).minimize; TensorFlow 2:
a GradientTape and SGD), then a multilayer perceptron trained with Keras `fit`. The training code
is the three scripts in the repository's examples/ folder, run here in turn on one data split
(`wengert.datasets.mnist.load_split()`: MNIST when its files are found, else a built-in substitute;
the demo says which). The Keras MLP's run is logged for TensorBoard in demo_output/logs
(`tensorboard --logdir demo_output/logs`). Well under a minute on a laptop.
"""
from .tour import EXAMPLES, examples_dir, load_example, main

__all__ = ["EXAMPLES", "examples_dir", "load_example", "main"]
