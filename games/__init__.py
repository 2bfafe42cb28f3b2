"""Game systems: pure-Python rules engines and the registry that plugs them into the table."""
