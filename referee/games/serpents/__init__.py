"""Council of Serpents: three Houses, secret Ambitions, and the end of the game."""
