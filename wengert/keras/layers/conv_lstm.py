"""ConvLSTM1D, ConvLSTM2D and ConvLSTM3D (Shi et al. 2015): an LSTM whose matrix products are
convolutions, run over the time axis of [batch, time, *spatial, channels] sequences.

One step of the cell (a private ConvLSTMCell, as in Keras, which does not export it), with *
a convolution (the input one with the layer's strides, padding and dilation; the recurrent
one with stride 1 and "same" padding, so the state keeps the output's spatial shape):

    z_g = x * W_g + h_prev * U_g + b_g          for the gates g = i, f, c, o
    i, f, o = recurrent_activation(z_i, z_f, z_o)
    c = f c_prev + i activation(z_c),   h = o activation(c);   states [h, c]

kernel [*kernel_size, channels, 4 filters] and recurrent_kernel [*kernel_size, filters,
4 filters] hold the four gates' blocks in Keras's order (i, f, c, o), bias [4 filters] with
the forget block starting at 1 (unit_forget_bias). With dropout / recurrent_dropout (training
only) each gate has its own mask on the input and on h_prev, fixed for the whole sequence. The
time loop is wengert's RNN (rnn.py): eager steps or one while_loop when traced; gradients
come from the convolution and activation ops. A mask over time steps [batch, time] keeps the
previous output and states at masked steps, as RNN does for every cell.
"""
from ...framework.tensor_shape import TensorShape
from ...ops.nn.conv.compositions import convolution
from .. import activations, backend, backend_ops as K
from ..serialization import serialize_keras_object as _ser
from .base import Layer, _standard_config
from .conv_arithmetic import output_length
from .rnn import RNN
from .rnn_cells import DropoutRNNCell
from .weight_options import add_weight_with_options, set_weight_options, weight_options_config

__all__ = ["ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"]

_FORMATS = {1: "NCW", 2: "NCHW", 3: "NCDHW"}


def _tuple(value, rank, name, allow_zero=False):
    values = (value,) * rank if isinstance(value, int) else tuple(value)
    low = 0 if allow_zero else 1
    if len(values) != rank or not all(isinstance(v, int) and v >= low for v in values):
        raise ValueError(f"The `{name}` argument must be a tuple of {rank} integers. "
                         f"Received {name}={value}")
    return values


class ConvLSTMCell(DropoutRNNCell, Layer):
    """One ConvLSTM step over [batch, *spatial, channels] (or channels_first) inputs."""

    dropout_mask_count = 4

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        if rank > 3:
            raise ValueError(f"Rank {rank} convolutions are not currently implemented. "
                             f"Received: rank={rank}")
        self.rank, self.filters, self.seed = rank, int(filters), seed
        self.kernel_size = _tuple(kernel_size, rank, "kernel_size")
        self.strides = _tuple(strides, rank, "strides", allow_zero=True)
        self.padding = str(padding).lower()
        if self.padding not in ("valid", "same"):
            raise ValueError("The `padding` argument must be a list/tuple or one of "
                             f"valid, same. Received: {padding}")
        self.data_format = data_format or "channels_last"
        if self.data_format not in ("channels_last", "channels_first"):
            raise ValueError("The `data_format` argument must be one of 'channels_first', "
                             f"'channels_last'. Received: data_format={data_format}")
        self.dilation_rate = _tuple(dilation_rate, rank, "dilation_rate")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError("Specifying `strides > 1` is not compatible with `dilation_rate "
                             "> 1`. Please provide `strides=1` or `dilation_rate=1`. Received: "
                             f"strides={self.strides} and dilation_rate={self.dilation_rate}")
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias, self.unit_forget_bias = bool(use_bias), bool(unit_forget_bias)
        set_weight_options(self, "kernel", kernel_initializer, kernel_regularizer,
                           kernel_constraint)
        set_weight_options(self, "recurrent", recurrent_initializer, recurrent_regularizer,
                           recurrent_constraint)
        set_weight_options(self, "bias", bias_initializer, bias_regularizer, bias_constraint)
        self.dropout = min(1.0, max(0.0, float(dropout)))
        self.recurrent_dropout = min(1.0, max(0.0, float(recurrent_dropout)))
        self.state_size = [self.filters, self.filters]

    # -- shapes -----------------------------------------------------------------------------
    def _split_shape(self, shape):
        """(spatial sizes, channels) of a step shape [batch, ...]."""
        if self.data_format == "channels_first":
            return tuple(shape[2:]), shape[1]
        return tuple(shape[1:-1]), shape[-1]

    def state_shape(self, batch_size):
        spatial = tuple(output_length(n, k, self.padding, s, d) for n, k, s, d in zip(
            self.spatial_dims, self.kernel_size, self.strides, self.dilation_rate))
        if self.data_format == "channels_first":
            return (batch_size, self.filters) + spatial
        return (batch_size,) + spatial + (self.filters,)

    def build(self, input_shape):
        shape = tuple(TensorShape(input_shape))
        self.spatial_dims, channels = self._split_shape(shape)
        if None in self.spatial_dims:
            raise ValueError("ConvLSTM layers only support static input shapes for the spatial "
                             f"dimension. Received invalid input shape: input_shape={shape}")
        if channels is None:
            raise ValueError("The channel dimension of the inputs (last axis) should be "
                             f"defined. Found None. Full input shape received: "
                             f"input_shape={shape}")
        self.input_dim = int(channels)
        width = 4 * self.filters
        self.kernel = add_weight_with_options(self, "kernel",
                                              self.kernel_size + (self.input_dim, width))
        self.recurrent_kernel = add_weight_with_options(
            self, "recurrent_kernel", self.kernel_size + (self.filters, width), "recurrent")
        self.bias = None
        if self.use_bias:
            init = self._forget_bias_initializer() if self.unit_forget_bias else \
                self.bias_initializer
            self.bias = self.add_weight("bias", (width,), initializer=init,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        self.built = True

    def _forget_bias_initializer(self):
        base, n = self.bias_initializer, self.filters

        def initializer(shape, dtype=None, **kwargs):
            return K.concat([base((n,), dtype=dtype), K.ones((n,), dtype=dtype),
                             base((2 * n,), dtype=dtype)], 0)
        return initializer

    def get_initial_state(self, batch_size=None):
        zeros = K.zeros(self.state_shape(batch_size), dtype=self._dtype)
        return [zeros, zeros]

    # -- the step ---------------------------------------------------------------------------
    def _conv(self, x, kernel, strides, padding, dilations):
        data_format = _FORMATS[self.rank] if self.data_format == "channels_first" else None
        return convolution(x, kernel, list(strides), padding.upper(), data_format,
                           list(dilations))

    def _bias_shape(self):
        if self.data_format == "channels_first":
            return [1, self.filters] + [1] * self.rank
        return [1] * (self.rank + 1) + [self.filters]

    def call(self, inputs, states, training=False):
        h_prev, c_prev = states[0], states[1]
        dp = self.get_dropout_mask(inputs) if training and 0 < self.dropout < 1 else None
        rdp = (self.get_recurrent_dropout_mask(h_prev)
               if training and 0 < self.recurrent_dropout < 1 else None)
        kernels = K.split(self.kernel, 4, axis=self.rank + 1)
        recurrent = K.split(self.recurrent_kernel, 4, axis=self.rank + 1)
        biases = K.split(self.bias, 4) if self.bias is not None else [None] * 4
        ones = (1,) * self.rank
        z = []
        for g in range(4):
            x = inputs if dp is None else inputs * dp[g]
            h = h_prev if rdp is None else h_prev * rdp[g]
            zg = self._conv(x, kernels[g], self.strides, self.padding, self.dilation_rate)
            if biases[g] is not None:
                zg = zg + K.reshape(biases[g], self._bias_shape())
            z.append(zg + self._conv(h, recurrent[g], ones, "same", ones))
        i, f, o = (self.recurrent_activation(t) for t in (z[0], z[1], z[3]))
        c = f * c_prev + i * self.activation(z[2])
        h = o * self.activation(c)
        return h, [h, c]

    def get_config(self):
        config = super().get_config()
        config.update(filters=self.filters, kernel_size=self.kernel_size, strides=self.strides,
                      padding=self.padding, data_format=self.data_format,
                      dilation_rate=self.dilation_rate,
                      activation=activations.serialize(self.activation),
                      recurrent_activation=activations.serialize(self.recurrent_activation),
                      use_bias=self.use_bias,
                      **weight_options_config(self, "kernel", "recurrent", "bias"),
                      unit_forget_bias=self.unit_forget_bias, dropout=self.dropout,
                      recurrent_dropout=self.recurrent_dropout, seed=self.seed)
        return config


class _ConvLSTM(RNN):
    """The ConvLSTM layers: an RNN over a ConvLSTMCell of rank `_rank`."""

    _rank = None

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, **kwargs):
        if not kwargs.get("name"):
            kwargs["name"] = backend.unique_name(f"conv_lstm{self._rank}d")
        cell = ConvLSTMCell(
            self._rank, filters, kernel_size, strides=strides, padding=padding,
            data_format=data_format, dilation_rate=dilation_rate, activation=activation,
            recurrent_activation=recurrent_activation, use_bias=use_bias,
            kernel_initializer=kernel_initializer, recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer, unit_forget_bias=unit_forget_bias,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint,
            dropout=dropout, recurrent_dropout=recurrent_dropout, seed=seed,
            name="conv_lstm_cell", dtype=kwargs.get("dtype"),
            trainable=kwargs.get("trainable", True))
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful,
                         activity_regularizer=activity_regularizer, **kwargs)

    def __getattr__(self, name):
        if name.startswith("_") or name in ("cell", "states"):
            raise AttributeError(name)
        cell = self.__dict__.get("cell")
        if cell is not None and hasattr(cell, name):
            return getattr(cell, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def build(self, input_shape):
        shape = self._sequence_shape(input_shape)
        if shape.rank is not None and shape.rank != self._rank + 3:
            raise ValueError(f"Input 0 of layer {self.name!r} is incompatible with the layer: "
                             f"expected ndim={self._rank + 3}, found ndim={shape.rank}. Full "
                             f"shape received: {tuple(shape)}")
        super().build(input_shape)

    def compute_output_shape(self, input_shape):
        shape = tuple(self._sequence_shape(input_shape))
        if not self.cell.built:
            self.cell.spatial_dims = self.cell._split_shape((shape[0],) + shape[2:])[0]
        state = TensorShape(self.cell.state_shape(shape[0]))
        out = TensorShape((shape[0], shape[1]) + tuple(state)[1:]) if self.return_sequences \
            else state
        return [out, state, state] if self.return_state else out

    def get_config(self):
        config = super().get_config()
        cell = self.cell.get_config()
        for key in ("name", "trainable", "dtype"):
            cell.pop(key, None)
        config.update(cell)
        config["activity_regularizer"] = _ser(self.activity_regularizer)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(**_standard_config(config))


class ConvLSTM1D(_ConvLSTM):
    """ConvLSTM over [batch, time, length, channels] sequences."""
    _rank = 1


class ConvLSTM2D(_ConvLSTM):
    """ConvLSTM over [batch, time, height, width, channels] sequences."""
    _rank = 2


class ConvLSTM3D(_ConvLSTM):
    """ConvLSTM over [batch, time, depth, height, width, channels] sequences."""
    _rank = 3
