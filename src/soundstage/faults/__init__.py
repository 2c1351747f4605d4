"""Faults (docs/faults.md): the scene's `faults:` model (`models`), its resolution when the image is built
(`build`), and the engine that starts, stops and recovers their effects on a live world (`engine`). What
each effect does belongs to the service it acts on (`services.effects`)."""
