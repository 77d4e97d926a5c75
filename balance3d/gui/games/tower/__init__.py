"""Tower in the window: :mod:`.text` (the HUD's words: holdings, heights, the
prompts of every phase, the penalty decisions, verdicts, the ranking),
:mod:`.table` (the trays, each base's owner, the roll and the drawn card, the marker
on the tower's top and the designer's centres of mass) and :mod:`.figures` (the
tower figures both show every frame, read again only when a tower moved)."""
