"""Finding cards in camera images and saying which card each is.

Pure stages on numpy arrays: :func:`detect` (image -> quadrilaterals),
:func:`rectify` (image, quad -> canonical face), :func:`identify`
(face, deck -> match); :class:`Recogniser` runs them in turn.
"""
