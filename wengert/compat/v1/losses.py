"""`tf.compat.v1.losses`: TensorFlow 1's losses and their graph collection (tf1/losses.py)."""
from ...tf1.losses import (Reduction, absolute_difference, add_loss,  # noqa: F401
                           compute_weighted_loss, cosine_distance, get_losses,
                           get_regularization_loss, get_regularization_losses, get_total_loss,
                           hinge_loss, huber_loss, log_loss, mean_pairwise_squared_error,
                           mean_squared_error, sigmoid_cross_entropy, softmax_cross_entropy,
                           sparse_softmax_cross_entropy)
