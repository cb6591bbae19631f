"""Council of Blackthorn: the guided session and the end-of-game scoring."""
