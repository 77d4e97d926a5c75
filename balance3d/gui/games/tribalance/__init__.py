"""Tri-Ba-Lance in the window: :mod:`.text` (the HUD's words) and :mod:`.table` (the
plate's numbered fields, the trays, the frame contacts and the designer's tilt)."""
