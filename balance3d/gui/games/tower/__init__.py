"""Tower's part of the window."""
