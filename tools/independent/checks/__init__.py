"""Layer checks: every vector file of spec/vectors/ through the implementation."""
