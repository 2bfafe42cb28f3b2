"""What the server log says of an ordinary refusal: one line, not a traceback."""

from __future__ import annotations

import logging

ORDINARY = {400, 403, 404, 405}


class QuietRefusals(logging.Filter):
    """A 403 from ``PermissionDenied`` or a 404 from ``Http404`` is Django's request logger
    writing the exception's whole traceback for what is no fault: a stranger at a table, a
    mistyped link. Keep the line, drop the traceback; a 500 keeps everything."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) in ORDINARY:
            record.exc_info = None
            record.exc_text = None
        return True
