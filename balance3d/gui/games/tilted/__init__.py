"""Tilted in the window: :mod:`.text` (the HUD's words) and :mod:`.table` (the beam's
sections and values, the trays and supply, the designer's centre of mass)."""
