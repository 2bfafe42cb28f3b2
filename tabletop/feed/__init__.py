"""What each seat receives of the table: the catalogue of event kinds, the frames of an event,
the parts of a page and the system panels it redraws, and one seat's view (docs/architecture.md)."""
