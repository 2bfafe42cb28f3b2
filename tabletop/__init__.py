"""The platform: tables, memberships, characters, the event log and the live feed."""
