"""Blackwood: witches brew potions for a seat on the Council. The referee computes the final score."""
