"""What the window draws (Panda3D): the table view of a game's World and trays
(:mod:`.table`), the orbit camera (:mod:`.camera`, pure maths), part meshes
(:mod:`.meshes`), lights and shadows (:mod:`.lights`, :mod:`.shading`), marks and
overlays (:mod:`.marks`, :mod:`.overlays`), poses as comparable values
(:mod:`.poses`, no Panda3D) and the offscreen base for tests and screenshots
(:mod:`.offscreen`)."""
