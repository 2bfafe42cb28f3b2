"""The platform's data. Only the services (``tabletop/services/``) write these rows."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models


def new_link_token() -> str:
    """192 random bits, URL-safe: an invite link nobody can guess."""
    return secrets.token_urlsafe(24)


class Role(models.TextChoices):
    GM = "gm", "GM"
    PLAYER = "player", "Player"
    SPECTATOR = "spectator", "Spectator"


class Audience(models.TextChoices):
    EVERYONE = "everyone", "Everyone"
    GM = "gm", "GM only"
    OWNER = "owner", "Owner and GM"


class Table(models.Model):
    """A table: one game system, the people at it, its log, decks and procedure.

    The GM hosts it; players and spectators join through its two links. (One word for
    one concept: what a GM creates, runs over many sessions and plays at is a table.)"""

    name = models.CharField(max_length=100)
    system = models.CharField(max_length=40)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tables_run"
    )
    player_token = models.CharField(max_length=64, unique=True, default=new_link_token)
    spectator_token = models.CharField(max_length=64, unique=True, default=new_link_token)
    # The seq the next Event gets; read and bumped only under this row's lock.
    next_seq = models.PositiveBigIntegerField(default=1)
    # How many events everyone sees there are so far (Event.public_no); written with next_seq.
    public_seq = models.PositiveBigIntegerField(default=0)
    # An NPC's sheet is the GM's (the decided reading: "unless the GM shows it"): the other seats see
    # its name and what the rules make public, in every byte. The GM may turn it off.
    npc_sheets_secret = models.BooleanField(default=True)
    # Sheets in play are the rules' and the GM's: once a character has been used by a rule move,
    # its player's change to a field the rules read waits for the GM's approval (SheetRequest).
    # A group that wants none turns this off; what the rules keep (tracks) stays theirs either way.
    sheet_approvals = models.BooleanField(default=True)
    # The sheet as the table's GM designed it, where its game offers that (GameSystem.designed_sheets) (games/core/designs.py); {} for none.
    sheet_design = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A member of a table: one person with one role. Removal keeps the row (the log refers to it) and ends access."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices)
    display_name = models.CharField(max_length=40)
    joined = models.DateTimeField(auto_now_add=True)
    removed_at = models.DateTimeField(null=True, blank=True)
    # A guest's way back: the personal seat link (seat/<token>/) logs any browser in as this
    # member's guest account. Shown only to the member and the GM; the GM replaces it to revoke.
    seat_token = models.CharField(max_length=64, unique=True, default=new_link_token)

    class Meta:
        ordering = ["joined", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="one_seat_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} ({self.role})"

    @property
    def is_active(self) -> bool:
        return self.removed_at is None


class Character(models.Model):
    """A sheet. ``owner`` is empty for NPCs and for characters the GM made for players to claim."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="characters")
    owner = models.ForeignKey(
        Membership, on_delete=models.SET_NULL, null=True, blank=True, related_name="characters"
    )
    is_npc = models.BooleanField(default=False)
    name = models.CharField(max_length=60)
    sheet = models.JSONField(default=dict)
    # Bumped on every change; an edit made against an older version is refused.
    version = models.PositiveIntegerField(default=1)
    # The picture its tokens show (else initials on the sheet's colour), as tabletop/services/images.py
    # re-encoded it, with the format Pillow read ("png", "jpeg", "webp", "gif").
    portrait = models.FileField(upload_to="portraits", blank=True)
    portrait_type = models.CharField(max_length=10, blank=True)
    # Set once a rule move of its system has used it (named it in an event): from then on a
    # field its rules read changes only by a rule, the GM, or a request the GM approves.
    in_play = models.BooleanField(default=False)
    # A retired character (a fallen NPC put away) is gone from the lists and the scene and
    # kept for the log, which names it.
    retired = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return self.name


class SheetRequest(models.Model):
    """A player's asked change to their character's sheet, waiting for the GM: ``name`` and
    ``sheet`` are the whole sheet asked for (as the system cleaned it), ``version`` the one it
    was asked against. ``reason`` says why it waits ("in play", "past what creation allows")."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for the GM"
        APPROVED = "approved", "Approved"
        REFUSED = "refused", "Refused"
        WITHDRAWN = "withdrawn", "Withdrawn"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="sheet_requests")
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="requests")
    asked_by = models.ForeignKey(Membership, on_delete=models.SET_NULL, null=True, related_name="+")
    name = models.CharField(max_length=60)
    sheet = models.JSONField(default=dict)
    version = models.PositiveIntegerField()
    reason = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created = models.DateTimeField(auto_now_add=True)
    decided = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created", "pk"]


class BestiaryEntry(models.Model):
    """An NPC a GM saved once, to bring to any of their tables of the same system."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bestiary")
    system = models.CharField(max_length=40)
    name = models.CharField(max_length=60)
    sheet = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["system", "name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "system", "name"], name="one_entry_per_name"),
        ]


class SheetTemplate(models.Model):
    """A sheet design a GM saved, to start their other tables' sheets from."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sheet_templates")
    name = models.CharField(max_length=60)
    design = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="one_sheet_template_per_name")]


class Event(models.Model):
    """One entry of a table's append-only log.

    ``audience`` says who sees the event at all; ``private`` is a part of it that only
    ``private_audience`` sees (the cards drawn, the result of a blind roll). "owner" means
    ``owner`` plus the GM.

    ``seq`` counts every event of the table and is shown to the GM alone: anyone else would
    read, in its gaps, that and when a hidden event happened. Everyone else numbers events by
    ``public_no`` (the events everyone sees, up to this one) and, for an event only its owner
    and the GM see, ``own_no`` (its owner's such events since the last public one): see
    ``position``.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveBigIntegerField()
    public_no = models.PositiveBigIntegerField(default=0)
    own_no = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=40)
    actor = models.ForeignKey(
        Membership, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    owner = models.ForeignKey(
        Membership, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    audience = models.CharField(max_length=10, choices=Audience.choices)
    private_audience = models.CharField(
        max_length=10, choices=Audience.choices, default=Audience.OWNER
    )
    summary = models.TextField()
    private_summary = models.TextField(blank=True)
    payload = models.JSONField(default=dict)
    private = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="one_event_per_seq"),
        ]
        indexes = [models.Index(fields=["table", "public_no"], name="event_public_no")]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"

    def position(self, *, gm: bool) -> str:
        """Where this event stands in its viewer's own numbering, as pages, frames, answers
        and exports show it: the GM's is ``seq``; anyone else's is ``public_no``, or
        ``public_no.own_no`` for an event only its owner (and the GM) sees. Neither counts an
        event the viewer cannot see, and both order as the viewer's log does."""
        if gm:
            return str(self.seq)
        return f"{self.public_no}.{self.own_no}" if self.own_no else str(self.public_no)


class Presence(models.Model):
    """One open socket. A member is online while they have at least one on a live process."""

    membership = models.ForeignKey(Membership, on_delete=models.CASCADE, related_name="sockets")
    channel_name = models.CharField(max_length=200, unique=True)
    # The server process holding the socket: a process killed outright runs no disconnect
    # handler, so its sockets are known dead only by its heartbeat stopping.
    process = models.CharField(max_length=32, default="", db_index=True)
    connected = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.channel_name


class PileKind(models.TextChoices):
    DRAW = "draw", "Draw pile"
    DISCARD = "discard", "Discard pile"
    PLAY = "play", "Play area"
    HAND = "hand", "Hand"


class Deck(models.Model):
    """A set of physical cards. Every card of it lies in exactly one pile at every moment."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="decks")
    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=30)  # a key of games.core.cards.DECK_KINDS
    # A personal deck (Report Card): its owner may use it as the GM may.
    owner = models.ForeignKey(
        Membership, on_delete=models.SET_NULL, null=True, blank=True, related_name="decks"
    )
    # A player the GM made this deck's dealer: deals, recalls and reshuffles it as the GM
    # does (permissions.DECK_MATRIX).
    dealer = models.ForeignKey(
        Membership, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    allow_reversed = models.BooleanField(default=False)
    players_may_use = models.BooleanField(default=False)
    # The system's rules draw from it (GameSystem.rule_decks, DeckSpec.rules): only the rules and
    # the GM move its cards; players' own card verbs are refused (permissions.DeckStanding.RULED).
    rules = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return self.name


class Pile(models.Model):
    """Where cards lie: a deck's draw and discard piles, the table's play area, a member's hand."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="piles")
    kind = models.CharField(max_length=10, choices=PileKind.choices)
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, null=True, blank=True, related_name="piles")
    owner = models.ForeignKey(
        Membership, on_delete=models.CASCADE, null=True, blank=True, related_name="piles"
    )

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["deck", "kind"], condition=models.Q(deck__isnull=False), name="one_pile_of_a_kind_per_deck"
            ),
            models.UniqueConstraint(
                fields=["table", "owner"], condition=models.Q(kind="hand"), name="one_hand_per_member"
            ),
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(kind="play"), name="one_play_area_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"


class CardPlacement(models.Model):
    """Where one card of a deck lies. Unique per (deck, card): a card cannot be in two places."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="cards")
    card_id = models.CharField(max_length=40)
    pile = models.ForeignKey(Pile, on_delete=models.CASCADE, related_name="cards")
    # Draw piles: 0 is the top. Other piles: order of arrival.
    position = models.IntegerField()
    reversed = models.BooleanField(default=False)
    # Draw piles: someone knows or can work out where this card lies (put back on the top or
    # the bottom, or looked at or rearranged by the GM) since the pile was last shuffled.
    pinned = models.BooleanField(default=False)
    # Who put it where it lies, when that is the play area: "played by Ann" under the card.
    placed_by = models.ForeignKey(
        "Membership", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["pile", "position"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "card_id"], name="a_card_is_in_one_place"),
        ]
        indexes = [models.Index(fields=["pile", "position"])]

    def __str__(self) -> str:
        return self.card_id

    @property
    def token(self) -> str:
        return self.card_id + ("/r" if self.reversed else "")


class ShuffleCommitment(models.Model):
    """A promise, published at a shuffle, about the order of a draw pile.

    The digest is public at once; the order and salt stay secret until revealed, which
    happens only when revealing them shows nobody a card hidden from them.
    """

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="commitments")
    digest = models.CharField(max_length=64)
    salt = models.CharField(max_length=128)
    order = models.JSONField(default=list)  # tokens, top first
    dealt = models.PositiveIntegerField(default=0)  # cards taken off the top under this order
    committed_seq = models.PositiveBigIntegerField()
    closed = models.BooleanField(default=False)  # no more cards are dealt under it
    # The undealt rest was shuffled (or there is none): the order no longer says how the
    # draw pile lies. Whether it may be revealed is games.core.commitment.reveal_is_safe.
    scrambled = models.BooleanField(default=False)
    revealed_seq = models.PositiveBigIntegerField(null=True, blank=True)
    # Card ids dealt under this order into a hand and not seen face up by everyone since: while
    # any is left the order stays sealed, for revealing it would tell who held what (a hand's
    # cards that were never played stay its holder's, even after the round).
    unseen = models.JSONField(default=list)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.digest[:12]


class ProcedureState(models.Model):
    """The state of a system's table procedure (Demon City's Action Rounds), as plain JSON.

    Written only under the table lock, together with the events that changed it, so the
    state is always the fold of those events.
    """

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="procedure")
    state = models.JSONField(default=dict)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"procedure of {self.table_id}"


class PlaySession(models.Model):
    """One session of play at a table: its number, when the GM opened and closed it, and where
    it stands in the log (``opened_seq``..``closed_seq``: the log reads in chapters, an export
    and a recap read one of them). At most one is open at a time."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveIntegerField()
    opened = models.DateTimeField()
    closed = models.DateTimeField(null=True, blank=True)
    opened_seq = models.PositiveBigIntegerField()
    closed_seq = models.PositiveBigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="one_number_per_session")]

    def __str__(self) -> str:
        return f"session {self.number} of {self.table_id}"

    @property
    def is_open(self) -> bool:
        return self.closed is None


class ProcessBeat(models.Model):
    """The last heartbeat of a server process that holds sockets."""

    process = models.CharField(max_length=32, primary_key=True)
    seen = models.DateTimeField()

    def __str__(self) -> str:
        return self.process


class Scene(models.Model):
    """A place the table plays in: an uploaded picture, or a plain board of one colour. Its
    own coordinates run from 0 to ``width`` and ``height`` (a picture's pixels; a board's
    units), and tokens stand at points of them. One scene of a table is shown to everyone at
    a time; the others are the GM's."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="scenes")
    name = models.CharField(max_length=60)
    image = models.FileField(upload_to="scenes", blank=True)
    image_type = models.CharField(max_length=10, blank=True)  # what Pillow read: "png", "jpeg", …
    colour = models.CharField(max_length=7, default="#4a6741")
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    shown = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    # The grid the GM fits to the picture: square or hex cells of ``grid_size`` scene units, the
    # first cell's corner at (``grid_x``, ``grid_y``); drawn or not; tokens snap to it unless a
    # seat moves one freely; each cell stands for ``cell_distance`` ``cell_unit`` ("5 ft").
    grid_kind = models.CharField(max_length=8, default="none")  # "none", "square", "hex"
    grid_size = models.FloatField(default=70.0)
    grid_x = models.FloatField(default=0.0)
    grid_y = models.FloatField(default=0.0)
    grid_shown = models.BooleanField(default=True)
    grid_snap = models.BooleanField(default=True)
    cell_distance = models.FloatField(default=5.0)
    cell_unit = models.CharField(max_length=12, default="ft")
    # Fog of war (tabletop/selectors/fog.py): when on, everything is covered but what ``fog``'s
    # changes reveal, in order (a change covers again, too); ``fog_rev`` counts the changes, so
    # every fog state has its own mask and its own picture for the seats that are not the GM.
    fog_on = models.BooleanField(default=False)
    fog = models.JSONField(default=list, blank=True)
    fog_rev = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["table"], condition=models.Q(shown=True), name="one_shown_scene_per_table"),
        ]

    def __str__(self) -> str:
        return self.name


class Token(models.Model):
    """A character's piece on a scene, at (x, y) in the scene's coordinates. A hidden token
    (an NPC not yet seen) is the GM's alone, in every byte."""

    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="tokens")
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="tokens")
    x = models.PositiveIntegerField()
    y = models.PositiveIntegerField()
    hidden = models.BooleanField(default=False)
    size = models.PositiveSmallIntegerField(default=1)  # cells a side, 1 to 4
    label = models.CharField(max_length=24, blank=True)  # shown under the token; "" for none
    colour = models.CharField(max_length=7, blank=True)  # "" : the character's own colour

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["scene", "character"], name="one_token_per_character_per_scene"),
        ]

    def __str__(self) -> str:
        return f"{self.character_id} on {self.scene_id}"


class Drawing(models.Model):
    """A mark drawn on a scene: freehand, a line, a rectangle or a circle, by ``points`` in the
    scene's coordinates (a freehand's path; a line's two ends; a rectangle's or a circle's
    bounding corners). On the table's layer everyone sees it (but under fog); on the GM's layer
    it is the GM's alone. Its author and the GM erase it."""

    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="drawings")
    author = models.ForeignKey(Membership, on_delete=models.SET_NULL, null=True, related_name="+")
    layer = models.CharField(max_length=8, default="table")  # "table" or "gm"
    shape = models.CharField(max_length=10)  # "freehand", "line", "rect", "circle"
    points = models.JSONField(default=list)
    colour = models.CharField(max_length=7, default="#e63946")
    width = models.PositiveSmallIntegerField(default=4)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.shape} on {self.scene_id}"
