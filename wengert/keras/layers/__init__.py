"""`keras.layers`: the base Layer, Dense, Flatten, Dropout, Activation, Reshape, Lambda,
Concatenate, Add, and the symbolic Input/InputLayer of functional models."""
from .base import InputSpec, Layer
from .core import Activation, Add, Concatenate, Dense, Dropout, Flatten, Lambda, Reshape
from .input_layer import Input, InputLayer, KerasTensor

__all__ = ["Layer", "InputSpec", "Dense", "Flatten", "Dropout", "Activation", "Reshape",
           "Lambda", "Concatenate", "Add", "Input", "InputLayer", "KerasTensor"]
