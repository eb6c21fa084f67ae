"""tf.nn: activations, losses, convolutions and pooling, normalization, dropout, embeddings, CTC,
fused recurrent sequences, sampled losses and the rest of TensorFlow's neural-network ops."""
