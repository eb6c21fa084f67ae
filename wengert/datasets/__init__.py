"""Datasets, as `tf.keras.datasets`: `wengert.datasets.mnist.load_data()`, and
`mnist.load_split()`, a small split that needs no download (see mnist.py)."""
from . import mnist

__all__ = ["mnist"]
