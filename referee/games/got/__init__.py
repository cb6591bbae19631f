"""A Game of Thrones: The Card Game (1st edition): the end-of-game power count."""
