"""Games made up for tests and benchmarks: random legal play, computer self-play, stacked decks.

Not part of the product: nothing in cards, scoring, engine, bots, games or api imports this.
"""
