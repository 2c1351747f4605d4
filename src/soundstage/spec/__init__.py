"""The file formats' building blocks: YAML with the line of every key (`loader`), strict models and the
field types they share (`fields`), refs (`refs`), the context services build a world image in (`build`),
and where world and scene files are found (`discovery`). The whole files are composed in `stage.models`."""
