"""TensorFlow 1's recurrent cells: `BasicRNNCell`, `BasicLSTMCell`, `LSTMCell` and `GRUCell`
(`tf.compat.v1.nn.rnn_cell`), with TensorFlow 1's variable names and math.

With `z = concat([x, h_prev], 1)`:
- BasicRNNCell: `h = act(z @ kernel + bias)`; kernel `[in + units, units]`.
- BasicLSTMCell: `i, j, f, o = split(z @ kernel + bias, 4)`,
  `c = c_prev * sigmoid(f + forget_bias) + sigmoid(i) * act(j)`, `h = act(c) * sigmoid(o)`;
  kernel `[in + units, 4 units]`, bias zeros.
- LSTMCell: the same gates over `z = concat([x, m_prev])`; with peepholes the forget and input
  gates also see `w_f_diag * c_prev`, `w_i_diag * c_prev` and the output gate `w_o_diag * c`;
  `c` is clipped to `[-cell_clip, cell_clip]`; the output `m = sigmoid(o) * act(c)` is projected
  by `projection/kernel` `[units, num_proj]` (and clipped to `proj_clip`) when `num_proj` is set.
- GRUCell: `r, u = split(sigmoid(z @ gates/kernel + gates/bias), 2)` (gates bias ones),
  `c = act(concat([x, r * h_prev]) @ candidate/kernel + candidate/bias)`,
  `h = u * h_prev + (1 - u) * c`.
The default activation is tanh (a name such as "relu" picks another). An LSTM's state is an
`LSTMStateTuple(c, h)`, or `concat([c, h], 1)` when `state_is_tuple=False`.
"""
from ..ops.array_ops import concat, split
from ..ops.math_ops import clip_by_value
from ..ops.matmul_ops import matmul
from ..ops.random.v1_initializers import constant_initializer, zeros_initializer
from ..ops.unary_ops import sigmoid
from ..graph.variable_scope import variable_scope
from .rnn_cell_base import LSTMStateTuple, RNNCell, activation_function, check_inputs_shape

__all__ = ["BasicRNNCell", "BasicLSTMCell", "LSTMCell", "GRUCell"]


def _affine(inputs, state, kernel, bias):
    """`concat([inputs, state], 1) @ kernel + bias`."""
    return matmul(concat([inputs, state], 1), kernel) + bias


class BasicRNNCell(RNNCell):
    """`h = activation(concat([x, h_prev]) @ kernel + bias)`; output and state are `h`."""

    def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        self._num_units = int(num_units)
        self._activation = activation_function(activation)

    @property
    def state_size(self):
        return self._num_units

    @property
    def output_size(self):
        return self._num_units

    def build(self, inputs_shape):
        depth = check_inputs_shape(self, inputs_shape)
        self._kernel = self.add_variable("kernel", [depth + self._num_units, self._num_units])
        self._bias = self.add_variable("bias", [self._num_units],
                                       initializer=zeros_initializer(dtype=self.dtype))

    def call(self, inputs, state):
        output = self._activation(_affine(inputs, state, self._kernel, self._bias))
        return output, output


class BasicLSTMCell(RNNCell):
    """The LSTM of Zaremba et al. without peepholes or clipping; `forget_bias` (1.0) is added to
    the forget gate's pre-activation. Gates in the order i, j, f, o."""

    def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None,
                 reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        self._num_units = int(num_units)
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = activation_function(activation)

    @property
    def state_size(self):
        n = self._num_units
        return LSTMStateTuple(n, n) if self._state_is_tuple else 2 * n

    @property
    def output_size(self):
        return self._num_units

    def build(self, inputs_shape):
        depth = check_inputs_shape(self, inputs_shape)
        n = self._num_units
        self._kernel = self.add_variable("kernel", [depth + n, 4 * n])
        self._bias = self.add_variable("bias", [4 * n],
                                       initializer=zeros_initializer(dtype=self.dtype))

    def call(self, inputs, state):
        c, h = state if self._state_is_tuple else split(state, 2, axis=1)
        i, j, f, o = split(_affine(inputs, h, self._kernel, self._bias), 4, axis=1)
        act = self._activation
        new_c = c * sigmoid(f + self._forget_bias) + sigmoid(i) * act(j)
        new_h = act(new_c) * sigmoid(o)
        if self._state_is_tuple:
            return new_h, LSTMStateTuple(new_c, new_h)
        return new_h, concat([new_c, new_h], 1)


class LSTMCell(RNNCell):
    """The LSTM of Hochreiter and Schmidhuber with optional peepholes (`use_peepholes`), cell
    clipping (`cell_clip`) and an output projection (`num_proj`, `proj_clip`). `initializer`
    initializes the kernel, peepholes and projection. Sharded weights are not supported."""

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None,
                 num_proj=None, proj_clip=None, num_unit_shards=None, num_proj_shards=None,
                 forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None, name=None,
                 dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        if num_unit_shards not in (None, 1) or num_proj_shards not in (None, 1):
            raise ValueError("LSTMCell: num_unit_shards and num_proj_shards (deprecated in "
                             "TensorFlow) are not supported; leave them None.")
        self._num_units = int(num_units)
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_proj = None if num_proj is None else int(num_proj)
        self._proj_clip = proj_clip
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = activation_function(activation)

    @property
    def state_size(self):
        n, m = self._num_units, self._num_proj or self._num_units
        return LSTMStateTuple(n, m) if self._state_is_tuple else n + m

    @property
    def output_size(self):
        return self._num_proj or self._num_units

    def build(self, inputs_shape):
        depth = check_inputs_shape(self, inputs_shape)
        n, init = self._num_units, self._initializer
        self._kernel = self.add_variable("kernel", [depth + self.output_size, 4 * n],
                                         initializer=init)
        self._bias = self.add_variable("bias", [4 * n],
                                       initializer=zeros_initializer(dtype=self.dtype))
        if self._use_peepholes:
            self._w_f_diag = self.add_variable("w_f_diag", [n], initializer=init)
            self._w_i_diag = self.add_variable("w_i_diag", [n], initializer=init)
            self._w_o_diag = self.add_variable("w_o_diag", [n], initializer=init)
        if self._num_proj is not None:
            with variable_scope("projection"):
                self._proj_kernel = self.add_variable("kernel", [n, self._num_proj],
                                                      initializer=init)

    def call(self, inputs, state):
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            c_prev, m_prev = state[:, :self._num_units], state[:, self._num_units:]
        i, j, f, o = split(_affine(inputs, m_prev, self._kernel, self._bias), 4, axis=1)
        act, peep = self._activation, self._use_peepholes
        if peep:
            c = (sigmoid(f + self._forget_bias + self._w_f_diag * c_prev) * c_prev
                 + sigmoid(i + self._w_i_diag * c_prev) * act(j))
        else:
            c = sigmoid(f + self._forget_bias) * c_prev + sigmoid(i) * act(j)
        if self._cell_clip is not None:
            c = clip_by_value(c, -self._cell_clip, self._cell_clip)
        m = sigmoid(o + self._w_o_diag * c if peep else o) * act(c)
        if self._num_proj is not None:
            m = matmul(m, self._proj_kernel)
            if self._proj_clip is not None:
                m = clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = LSTMStateTuple(c, m) if self._state_is_tuple else concat([c, m], 1)
        return m, new_state


class GRUCell(RNNCell):
    """The gated recurrent unit of Cho et al.: reset and update gates (`gates/`) and a candidate
    (`candidate/`). `kernel_initializer` and `bias_initializer` (default: ones for the gates,
    zeros for the candidate) set the variables' initial values."""

    def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None,
                 bias_initializer=None, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype, reuse=reuse, **kwargs)
        self._num_units = int(num_units)
        self._activation = activation_function(activation)
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    @property
    def state_size(self):
        return self._num_units

    @property
    def output_size(self):
        return self._num_units

    def build(self, inputs_shape):
        depth = check_inputs_shape(self, inputs_shape)
        n, kernel_init, bias_init = self._num_units, self._kernel_initializer, \
            self._bias_initializer
        self._gate_kernel = self.add_variable("gates/kernel", [depth + n, 2 * n],
                                              initializer=kernel_init)
        self._gate_bias = self.add_variable(
            "gates/bias", [2 * n],
            initializer=bias_init or constant_initializer(1.0, dtype=self.dtype))
        self._candidate_kernel = self.add_variable("candidate/kernel", [depth + n, n],
                                                   initializer=kernel_init)
        self._candidate_bias = self.add_variable(
            "candidate/bias", [n], initializer=bias_init or zeros_initializer(dtype=self.dtype))

    def call(self, inputs, state):
        gates = sigmoid(_affine(inputs, state, self._gate_kernel, self._gate_bias))
        r, u = split(gates, 2, axis=1)
        candidate = self._activation(_affine(inputs, r * state, self._candidate_kernel,
                                             self._candidate_bias))
        new_h = u * state + (1 - u) * candidate
        return new_h, new_h
