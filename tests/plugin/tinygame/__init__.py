"""A tiny game that plugs into the platform through the game registry alone.

It lives only in the tests: nothing outside this folder names it. Players of a
table take turns saying "step"; whoever reaches three steps first wins.
"""
