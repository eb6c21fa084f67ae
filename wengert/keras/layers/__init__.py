"""`keras.layers`: the base Layer, Dense, Flatten, Dropout, Activation, Reshape, Lambda,
Concatenate, Add, convolution and pooling (Conv2D, MaxPooling2D, AveragePooling2D,
GlobalAveragePooling2D), BatchNormalization, Embedding, and the symbolic Input/InputLayer of
functional models."""
from .base import InputSpec, Layer
from .activation_layers import ELU, LeakyReLU, PReLU, ReLU, Softmax, ThresholdedReLU
from .convolutional import (Conv1D, Conv1DTranspose, Conv2D, Conv2DTranspose, Conv3D,
                            Conv3DTranspose, Convolution1D, Convolution2D, Convolution3D,
                            DepthwiseConv1D, DepthwiseConv2D, SeparableConv1D, SeparableConv2D)
from .noise import (ActivityRegularization, AlphaDropout, GaussianDropout, GaussianNoise,
                    SpatialDropout1D, SpatialDropout2D, SpatialDropout3D)
from .pooling import (AveragePooling1D, AveragePooling2D, AveragePooling3D, AvgPool1D, AvgPool2D,
                      AvgPool3D, GlobalAveragePooling1D, GlobalAveragePooling2D,
                      GlobalAveragePooling3D, GlobalAvgPool1D, GlobalAvgPool2D, GlobalAvgPool3D,
                      GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPool3D, GlobalMaxPooling1D,
                      GlobalMaxPooling2D, GlobalMaxPooling3D, MaxPool1D, MaxPool2D, MaxPool3D,
                      MaxPooling1D, MaxPooling2D, MaxPooling3D)
from .reshaping import (Cropping1D, Cropping2D, Cropping3D, Identity, Permute, RepeatVector,
                        UpSampling1D, UpSampling2D, UpSampling3D, ZeroPadding1D, ZeroPadding2D,
                        ZeroPadding3D)
from .core import Activation, Dense, Dropout, Flatten, Lambda, Reshape
from .embedding import Embedding
from .input_layer import Input, InputLayer, KerasTensor
from .attention import AdditiveAttention, Attention, MultiHeadAttention
from .einsum_dense import EinsumDense
from .masking import Masking
from .merging import (Add, Average, Concatenate, Dot, Maximum, Minimum, Multiply, Subtract,
                      add, average, concatenate, dot, maximum, minimum, multiply, subtract)
from .normalization import (BatchNormalization, GroupNormalization, LayerNormalization,
                            UnitNormalization)
from .recurrent import GRU, LSTM, SimpleRNN
from .rnn import RNN
from .rnn_cells import GRUCell, LSTMCell, SimpleRNNCell, StackedRNNCells
from .wrappers import Bidirectional, TimeDistributed, Wrapper
from .preprocessing import CenterCrop, Normalization, RandomFlip, Rescaling, Resizing
from .augmentation import RandomRotation, RandomTranslation, RandomZoom
from . import augmentation_color as _augmentation_color
from .augmentation_color import *  # noqa: F401,F403
from . import augmentation_geometry as _augmentation_geometry
from .augmentation_geometry import *  # noqa: F401,F403
from . import augmentation_histogram as _augmentation_histogram
from .augmentation_histogram import *  # noqa: F401,F403
from . import augmentation_mixing as _augmentation_mixing
from .augmentation_mixing import *  # noqa: F401,F403
from . import augmentation_policies as _augmentation_policies
from .augmentation_policies import *  # noqa: F401,F403
from .lookup import CategoryEncoding, Discretization, IntegerLookup, StringLookup
from .hashing import HashedCrossing, Hashing
from .audio import MelSpectrogram, STFTSpectrogram
from .conv_lstm import ConvLSTM1D, ConvLSTM2D, ConvLSTM3D
from .text_vectorization import TextVectorization
from .convolutional import (Conv1DTranspose as Convolution1DTranspose,
                            Conv2DTranspose as Convolution2DTranspose,
                            Conv3DTranspose as Convolution3DTranspose,
                            SeparableConv1D as SeparableConvolution1D,
                            SeparableConv2D as SeparableConvolution2D)
from .rms_normalization import RMSNormalization
from .adaptive_pooling import (AdaptiveAveragePooling1D, AdaptiveAveragePooling2D,
                               AdaptiveAveragePooling3D, AdaptiveMaxPooling1D,
                               AdaptiveMaxPooling2D, AdaptiveMaxPooling3D)
from .layer_serialization import deserialize, serialize
from .spectral_normalization import SpectralNormalization
from .reversible_embedding import ReversibleEmbedding
from .tfsm_layer import TFSMLayer
from .group_query_attention import GroupQueryAttention, GroupedQueryAttention

__all__ = ["CenterCrop", "Normalization", "RandomFlip", "Rescaling", "Resizing",
           "RandomRotation", "RandomTranslation", "RandomZoom", "CategoryEncoding",
           "Discretization", "IntegerLookup", "StringLookup", "Hashing", "TextVectorization",
           "Layer", "InputSpec", "Dense", "Flatten", "Dropout", "Activation", "Reshape",
           "Lambda", "Concatenate", "Add", "Conv2D", "Convolution2D", "MaxPooling2D", "MaxPool2D",
           "AveragePooling2D", "AvgPool2D", "GlobalAveragePooling2D", "GlobalAvgPool2D",
           "BatchNormalization", "Embedding", "Input", "InputLayer", "KerasTensor",
           "Masking", "RNN", "SimpleRNN", "LSTM", "GRU", "SimpleRNNCell", "LSTMCell", "GRUCell",
           "StackedRNNCells", "Bidirectional", "TimeDistributed", "Wrapper", "Attention",
           "AdditiveAttention", "MultiHeadAttention", "EinsumDense", "LayerNormalization",
           "GroupNormalization", "UnitNormalization", "Subtract", "Multiply", "Average",
           "Maximum", "Minimum", "Dot", "add", "subtract", "multiply", "average", "maximum",
           "minimum", "concatenate", "dot", "ELU", "LeakyReLU", "PReLU", "ReLU", "Softmax",
           "ThresholdedReLU", "Conv1D", "Conv1DTranspose", "Conv2DTranspose", "Conv3D",
           "Conv3DTranspose", "Convolution1D", "Convolution3D", "DepthwiseConv1D",
           "DepthwiseConv2D", "SeparableConv1D", "SeparableConv2D", "ActivityRegularization",
           "AlphaDropout", "GaussianDropout", "GaussianNoise", "SpatialDropout1D",
           "SpatialDropout2D", "SpatialDropout3D", "AveragePooling1D", "AveragePooling3D",
           "AvgPool1D", "AvgPool3D", "GlobalAveragePooling1D", "GlobalAveragePooling3D",
           "GlobalAvgPool1D", "GlobalAvgPool3D", "GlobalMaxPool1D", "GlobalMaxPool2D",
           "GlobalMaxPool3D", "GlobalMaxPooling1D", "GlobalMaxPooling2D", "GlobalMaxPooling3D",
           "MaxPool1D", "MaxPool3D", "MaxPooling1D", "MaxPooling3D", "Cropping1D", "Cropping2D",
           "Cropping3D", "Identity", "Permute", "RepeatVector", "UpSampling1D", "UpSampling2D",
           "UpSampling3D", "ZeroPadding1D", "ZeroPadding2D", "ZeroPadding3D"]
__all__ += ["Convolution1DTranspose", "Convolution2DTranspose", "Convolution3DTranspose",
            "SeparableConvolution1D", "SeparableConvolution2D"]
__all__ += ["RMSNormalization"]
__all__ += ["AdaptiveAveragePooling1D", "AdaptiveAveragePooling2D", "AdaptiveAveragePooling3D",
            "AdaptiveMaxPooling1D", "AdaptiveMaxPooling2D", "AdaptiveMaxPooling3D"]
__all__ += ["serialize", "deserialize"]
__all__ += _augmentation_color.__all__
__all__ += _augmentation_geometry.__all__
__all__ += _augmentation_histogram.__all__
__all__ += _augmentation_mixing.__all__
__all__ += _augmentation_policies.__all__
__all__ += ["SpectralNormalization", "ReversibleEmbedding", "GroupQueryAttention"]
__all__ += ["HashedCrossing", "MelSpectrogram", "STFTSpectrogram"]
__all__ += ["ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"]
__all__ += ["TFSMLayer"]
