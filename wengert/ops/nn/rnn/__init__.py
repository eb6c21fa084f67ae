"""Fused recurrent sequences: a whole LSTM (lstm.py) or GRU (gru.py) time loop as one op, with a
fused gradient op, and derivatives of every order.

Keras's LSTM and GRU layers (keras/layers/recurrent.py) project every time step's input at once
(one matmul, xw = x W + b), then hand the recurrence to one of these ops, the way cuDNN or
TensorFlow's BlockLSTM run the loop in one kernel: the NumPy kernel loops over time with one
[B, H] x [H, kH] product per step, and the gradient op runs back-propagation through time the
same way. Everything is time major, as cuDNN's sequences are: each step reads and writes
contiguous rows. Both take Keras's weight layout; what they share (masking, checks, the ONNX
lowering) is in sequence.py.

Derivatives. Write p for the op's differentiable inputs (xw, the initial states, the recurrent
kernel and bias), y(p) for its outputs (the sequence and the final states) and J for the
Jacobian dy/dp. The gradient op computes G(p, g) = J^T g for the output gradients g: that is
the fast first-order path training takes. Beyond it, the recurrences are written again over
dual numbers (dual.py) in wengert ops, evaluated from p, so they differentiate again:
- forward mode of the sequence op: the recurrence over duals with the input tangents gives
  the output tangents J t;
- forward mode of the gradient op: the recurrence and then back-propagation through time over
  duals, with tangents on p and on g, give the tangent of J^T g;
- the gradient of the gradient op, for cotangents a of its outputs (a lives where p does):
  for g, J a (G is linear in g); for p, the gradient of <a, J(p)^T g> = <a, grad_p L> with
  L = <g, y(p)>, which is H a, H the Hessian of L; H is symmetric, so H a is the derivative of
  grad_p L = G along a: the tangent of G along a with g held. One pass over duals with
  tangents a on p gives both.
Those rules read p, never the reserve outputs: the reserve outputs are working memory and
nothing differentiates through them, so recomputing from p is what keeps the higher
derivatives exact. They run the loop in Python step by step, so they need the number of time
steps known while they are built.
"""
from .gru import gru_sequence
from .lstm import lstm_sequence

__all__ = ["lstm_sequence", "gru_sequence"]
