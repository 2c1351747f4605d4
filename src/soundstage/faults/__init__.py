"""Faults (DESIGN 3.5): the scene's `faults:` model (`models`), its resolution when the image is built
(`build`), and the engine that applies and recovers their effects on a live world (`engine`)."""
