"""The live feed: everything between a committed event and the sockets of its table.

``broadcast`` hands each committed event to this process's ``hub``, which fans it out to the
table's sockets (``consumers``), each through its viewer's reading; ``routing`` and
``socket_auth`` seat a socket, ``socket_actions`` runs the act frames a socket sends on
writer threads, and ``liveness`` keeps presence true when a process dies. Services call
``broadcast`` on commit; nothing here writes but through ``services``.
"""
