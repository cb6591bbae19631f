"""Council of Serpents: a guided session and the end-of-game count.

The guided session (game.py, flow/) walks the table through setup, every turn, Wars, the Time track
and solo play against the Serpentess, asking only what a card or board shows; it moves the Houses'
markers, keeps count of the Influence cards, and ends the game the moment a House Triumphs or
Collapses or the Keeper of Balance wins on an empty deck. The count (scoring.py) says which Houses
ended and whose Ambitions came true. state.py holds the plain table, rules.py the rules on it,
parse.py the readers of typed answers, houses.py and ambitions.py the Houses and Ambition cards,
rulings.py the count's rulings.
"""
