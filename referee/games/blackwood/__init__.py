"""Blackwood: witches brew potions for a seat on the Council.

The referee guides a whole session: it lays out the setup, runs the rounds of each expedition
(who places a puppet, which puppets come back and in what order, the cauldron, the refills), asks
what the cards print (prices, rewards, reputation) and applies purchases, brewing, sales, spells,
loans and the half-price sale at each expedition's end; it ends the game and scores it. It also
scores a game on its own from each witch's holdings (`scoring`).

Modules: `state` (the table), `rules` (pure rules on it), `parse` (readers of typed answers),
`flow` (the session, by rulebook part), `game` (corrections, the end, invariants, views) and
`scoring` (the final score and the tie-breaks).
"""
