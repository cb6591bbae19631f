"""Cutthroat Kingdoms: end-of-game scoring (coins, the unmarried bonus, cards, gems, marriages)."""
