"""The platform: campaigns, memberships, characters, the event log and the live feed."""
