"""Importers: other benchmarks' worlds and tasks turned into soundstage world files and scenes (docs/import.md)."""
