"""Type stub: the C play state has the interface of the plain Python one.

One difference: ``camps`` reads as a new list each time, so change it by assigning a whole list
(``state.camps = [1, 0, 1]``), not an item of it.
"""

from belote.playstate import PlayState as PlayState
