"""`keras.layers`: the base Layer, Dense, Flatten, Dropout, Activation, Reshape, Lambda,
Concatenate, Add, convolution and pooling (Conv2D, MaxPooling2D, AveragePooling2D,
GlobalAveragePooling2D), BatchNormalization, Embedding, and the symbolic Input/InputLayer of
functional models."""
from .base import InputSpec, Layer
from .conv import (AveragePooling2D, AvgPool2D, Conv2D, Convolution2D, GlobalAveragePooling2D,
                   GlobalAvgPool2D, MaxPool2D, MaxPooling2D)
from .core import Activation, Dense, Dropout, Flatten, Lambda, Reshape
from .embedding import Embedding
from .input_layer import Input, InputLayer, KerasTensor
from .attention import AdditiveAttention, Attention, MultiHeadAttention
from .einsum_dense import EinsumDense
from .masking import Masking
from .merging import (Add, Average, Concatenate, Dot, Maximum, Minimum, Multiply, Subtract,
                      add, average, concatenate, dot, maximum, minimum, multiply, subtract)
from .normalization_more import GroupNormalization, LayerNormalization, UnitNormalization
from .normalization import BatchNormalization
from .recurrent import GRU, LSTM, SimpleRNN
from .rnn import RNN
from .rnn_cells import GRUCell, LSTMCell, SimpleRNNCell, StackedRNNCells
from .wrappers import Bidirectional, TimeDistributed, Wrapper

__all__ = ["Layer", "InputSpec", "Dense", "Flatten", "Dropout", "Activation", "Reshape",
           "Lambda", "Concatenate", "Add", "Conv2D", "Convolution2D", "MaxPooling2D", "MaxPool2D",
           "AveragePooling2D", "AvgPool2D", "GlobalAveragePooling2D", "GlobalAvgPool2D",
           "BatchNormalization", "Embedding", "Input", "InputLayer", "KerasTensor",
           "Masking", "RNN", "SimpleRNN", "LSTM", "GRU", "SimpleRNNCell", "LSTMCell", "GRUCell",
           "StackedRNNCells", "Bidirectional", "TimeDistributed", "Wrapper", "Attention",
           "AdditiveAttention", "MultiHeadAttention", "EinsumDense", "LayerNormalization",
           "GroupNormalization", "UnitNormalization", "Subtract", "Multiply", "Average",
           "Maximum", "Minimum", "Dot", "add", "subtract", "multiply", "average", "maximum",
           "minimum", "concatenate", "dot"]
