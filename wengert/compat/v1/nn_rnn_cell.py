"""`wengert.compat.v1.nn.rnn_cell`: TensorFlow 1's recurrent cells and their wrappers."""
from ...tf1.rnn_cell_base import LSTMStateTuple, RNNCell
from ...tf1.rnn_cell_wrappers import DeviceWrapper, DropoutWrapper, MultiRNNCell, ResidualWrapper
from ...tf1.rnn_cells import BasicLSTMCell, BasicRNNCell, GRUCell, LSTMCell

__all__ = ["BasicLSTMCell", "BasicRNNCell", "DeviceWrapper", "DropoutWrapper", "GRUCell",
           "LSTMCell", "LSTMStateTuple", "MultiRNNCell", "RNNCell", "ResidualWrapper"]
