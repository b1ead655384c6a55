"""Examples of the pictures, as the service draws them (a test checks each is what it answers)."""

SHOW_QUERY = "hand=5H,5S,6D,4C&starter=JH"
BOARD_QUERY = "scores=45,38&previous=37,30&names=Ana,Bea"

# Shortened: the drawing itself is left out.
SHOW_EXAMPLE = ('<svg xmlns="http://www.w3.org/2000/svg" width="530" height="338" '
                'viewBox="0 0 530 338" role="img"><title>Hand: 5H 5S 6D 4C; Starter: JH; 16 '
                'points. fifteen two, fifteen four, fifteen six, fifteen eight and a double run '
                'of three makes sixteen</title><!-- the cards, the points, the words --></svg>')
BOARD_EXAMPLE = ('<svg xmlns="http://www.w3.org/2000/svg" width="492" height="244" '
                 'viewBox="0 0 492 244" role="img"><title>Pegging board, game to 121: Ana 45, '
                 'Bea 38</title><!-- the names, the holes, the pegs --></svg>')
