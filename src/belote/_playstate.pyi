"""Type stub: the C play state has the interface of the plain Python one."""

from belote.playstate import PlayState as PlayState
