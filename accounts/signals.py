"""Signals other apps listen to, so public tables react at once.

``public_data_withdrawn(sender, player)``: the player's results must leave every
public table now (consent withdrawn, stats reset, or the profile is being deleted).
"""

from django.dispatch import Signal

public_data_withdrawn = Signal()
