"""Freeform: any dice notation, chat, and a sheet of free key/value stats."""
