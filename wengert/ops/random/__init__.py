"""Random numbers: the seeded ops (global and op seeds as TensorFlow combines them), stateless ops of
a seed tensor, `tf.random.Generator`, distributions (categorical, gamma, poisson, ...) and the
variable initializers built on them."""
