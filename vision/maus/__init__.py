"""The camera for Maus au Chocolat: cards laid side by side, read left to right."""
from .config import DEFAULT_MAUS_CONFIG, MausVisionConfig
from .deck import MausDeck, card_from_manifest, load_maus_deck, load_maus_faces
from .reader import BadImage, MausReader, check_image, left_to_right, read_card
from .types import LaidCard, NumeralReading, PartReading, TableReading

__all__ = [
    "BadImage", "DEFAULT_MAUS_CONFIG", "LaidCard", "MausDeck", "MausReader", "MausVisionConfig", "NumeralReading",
    "PartReading", "TableReading", "card_from_manifest", "check_image", "left_to_right", "load_maus_deck",
    "load_maus_faces", "read_card",
]
