"""Council of Blackthorn: the guided session and the end-of-game scoring.

The referee asks the set-up rolls and characters, each round's dice and every card played (its
faction or Whispers, class, trigger and building value), and works out the dice effects, blocking,
Whispers checks, control scoring, the game-over declaration, the treason reveal, beheading and the
winner. Card texts and character abilities are carried out by the table and entered as corrections;
after a triggered Ally the referee waits at a table step so that what follows sees them.

state.py holds the plain table, rules.py the pure rules on it, parse.py the readers of typed
answers, flow.py the session in the rulebook's order, game.py the Game (correction fields, the end
of the game, views) and scoring.py the final count, also for `referee score`.
"""
