"""The axioms, one module per utility dimension."""
