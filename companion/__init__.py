"""Mamma Mia! table companion: rules engine, card recognition and the table app."""
