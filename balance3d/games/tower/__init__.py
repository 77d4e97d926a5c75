"""Tower: dice-driven towers of letter and logo pieces (physics helpers so far)."""
