"""Tools over the game: the command line, bots, the arena and the
simulation runners.  The game never imports these."""
