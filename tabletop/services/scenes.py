"""Scenes and tokens: the GM sets scenes and places tokens; each player moves their own.

Audiences (docs/protocol.md, Scenes): whatever concerns a scene not shown, or a hidden
token, is the GM's alone ("gm"); showing a scene, and moving, placing or revealing a visible
token on it, is everyone's. An uploaded picture is read and re-encoded (tabletop/services/images.py)
before the table is locked, and stored through Django's storage API; a file stored for a
change that then fails is removed again, and a file replaced or put away is removed once the
change is committed.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import IO, Any

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models.fields.files import FieldFile

from tabletop.services.images import Picture, read_picture
from tabletop.models import Audience, Character, Membership, Scene, Table, Token
from tabletop.permissions import (
    Verb, can, can_edit_character, may_move_token, may_see_scene, refusal_of, standing_of,
)
from tabletop.selectors.drawings import drawings_of
from tabletop.selectors.fog import covered
from tabletop.selectors.scenes import (
    BOARD_SIZES, HEX, scene_data, shown_badges, shown_scene, token_data, token_seen, tokens_of,
)
from tabletop.services.base import NotAllowed, NotFound, ServiceError, acting, append, lock_table

MAX_SCENES = 40
NO_TOKEN = "There is no such token on the scene."


def _may(actor: Membership, verb: Verb) -> None:
    """The seat's verb, checked before an upload is read (again under the lock: ``acting``)."""
    if not can(standing_of(actor), verb):
        raise NotAllowed(refusal_of(standing_of(actor), verb))


def _store(field: FieldFile, picture: Picture, prefix: str) -> str:
    """Saves the picture under a name of our own (never the uploader's) and returns it."""
    field.save(f"{prefix}-{secrets.token_hex(8)}.{picture.kind}", ContentFile(picture.data), save=False)
    return field.name


def _stored_or_removed(run: Callable[[list[str]], Any]) -> Any:
    """Runs ``run(stored)``, which appends each file it stores; if it fails, they are removed."""
    stored: list[str] = []
    try:
        return run(stored)
    except BaseException:
        for name in stored:
            default_storage.delete(name)
        raise


def _remove_on_commit(name: str) -> None:
    if name:
        transaction.on_commit(lambda: default_storage.delete(name))


def _scene_name(locked: Table, name: str, *, but: int | None = None) -> str:
    title = " ".join((name or "").split())
    if not title:
        raise ServiceError("Please give the scene a name.", field="name")
    if len(title) > 60:
        raise ServiceError("A scene's name is at most 60 characters.", field="name")
    others = locked.scenes.filter(name__iexact=title)
    if but is not None:
        others = others.exclude(pk=but)
    if others.exists():
        raise ServiceError(f"There is already a scene called {title} at this table.", field="name")
    return title


def scene_create(*, table: Table, actor: Membership, name: str, image: IO[bytes] | None = None,
                 colour: str = "", shape: str = "wide") -> Scene:
    """The GM prepares a scene, the GM's alone until shown: a picture (``image``) or a plain
    board of ``colour`` and ``shape`` (BOARD_SIZES)."""
    _may(actor, Verb.SCENE_MANAGE)
    picture = read_picture(image) if image is not None else None
    if picture is None and not HEX.fullmatch(colour or ""):
        raise ServiceError("Choose the board's colour.", field="colour")
    if picture is None and shape not in BOARD_SIZES:
        raise ServiceError("Choose the board's shape.", field="shape")

    def run(stored: list[str]) -> Scene:
        with transaction.atomic():
            locked = lock_table(table.pk)
            me = acting(locked, actor, Verb.SCENE_MANAGE)
            title = _scene_name(locked, name)
            if locked.scenes.count() >= MAX_SCENES:
                raise ServiceError(f"A table keeps at most {MAX_SCENES} scenes: put one away first.", field="name")
            width, height = (picture.width, picture.height) if picture else BOARD_SIZES[shape]
            scene = Scene(table=locked, name=title, width=width, height=height, colour=colour or "#4a6741")
            if picture is not None:
                stored.append(_store(scene.image, picture, f"{locked.pk}"))
                scene.image_type = picture.kind
            scene.save()
            what = "a picture" if picture else "a board"
            append(locked, "scene.created", actor=me, audience=Audience.GM, payload={"scene": scene_data(scene, gm=True)},
                   summary=f"{me.display_name} prepares a scene, {what}: {title}.")
            return scene
    return _stored_or_removed(run)


def _scene_under_lock(locked: Table, scene: Scene) -> Scene:
    fresh = Scene.objects.filter(pk=scene.pk, table=locked).first()
    if fresh is None:
        raise NotFound("There is no such scene.")
    return fresh


def scene_show(*, scene: Scene, actor: Membership) -> Scene:
    """The GM shows a scene to everyone, with its visible tokens; the scene shown before goes
    back to being the GM's."""
    with transaction.atomic():
        locked = lock_table(scene.table_id)
        me = acting(locked, actor, Verb.SCENE_MANAGE)
        fresh = _scene_under_lock(locked, scene)
        if fresh.shown:
            raise ServiceError(f"{fresh.name} is already the scene everyone sees.")
        locked.scenes.filter(shown=True).update(shown=False)
        fresh.shown = True
        fresh.save(update_fields=["shown"])
        append(locked, "scene.shown", actor=me, summary=f"{me.display_name} shows the scene: {fresh.name}.",
               payload={"scene": scene_data(fresh), "tokens": tokens_of(fresh, gm=False),
                        "drawings": drawings_of(fresh, gm=False)},
               private={"scene": scene_data(fresh, gm=True), "tokens": tokens_of(fresh, gm=True),
                        "drawings": drawings_of(fresh, gm=True)},
               private_audience=Audience.GM)
    return fresh


def scene_delete(*, scene: Scene, actor: Membership) -> None:
    """The GM puts a scene away, with its tokens; if everyone saw it, the table shows none."""
    with transaction.atomic():
        locked = lock_table(scene.table_id)
        me = acting(locked, actor, Verb.SCENE_MANAGE)
        fresh = _scene_under_lock(locked, scene)
        shown, name, file = fresh.shown, fresh.name, fresh.image.name
        gone = Scene(pk=fresh.pk, table_id=fresh.table_id)
        fresh.delete()
        _remove_on_commit(file)
        from tabletop.services.fog import forget  # here: the fog's service reads scenes through this one
        transaction.on_commit(lambda: forget(gone))  # its fogged pictures too
        append(locked, "scene.deleted", actor=me, audience=Audience.EVERYONE if shown else Audience.GM,
               summary=f"{me.display_name} puts away the scene {name}.",
               payload={"scene": {"id": scene.pk, "shown": shown}})


def _audience(scene: Scene, token: Token) -> str:
    """A token's events are everyone's only while it stands in sight on the shown scene (not
    hidden, not under its fog)."""
    return Audience.EVERYONE if scene.shown and token_seen(scene, token) else Audience.GM


UNDER_FOG = "That is under the fog: the GM has not revealed it yet."


def token_place(*, scene: Scene, character: Character, actor: Membership, hidden: bool = False) -> Token:
    """The GM puts a character's token on a scene, in the next free place of a loose grid near
    its top left; a hidden one (an NPC not yet seen) is the GM's alone."""
    with transaction.atomic():
        locked = lock_table(scene.table_id)
        me = acting(locked, actor, Verb.SCENE_MANAGE)
        fresh = _scene_under_lock(locked, scene)
        who = Character.objects.filter(pk=character.pk, table=locked).select_related("owner").first()
        if who is None:
            raise NotFound("There is no such character.")
        if who.retired:
            raise ServiceError(f"{who.name} is retired: bring it back to the table first.", field="character")
        if fresh.tokens.filter(character=who).exists():
            raise ServiceError(f"{who.name} is on {fresh.name} already.", field="character")
        n = fresh.tokens.count()
        token = Token.objects.create(scene=fresh, character=who, hidden=hidden,
                                     x=fresh.width * (1 + n % 8) // 9, y=fresh.height * (1 + (n // 8) % 8) // 9)
        token.character = who
        out_of_sight = ", hidden" if hidden else ""
        append(locked, "token.placed", actor=me, audience=_audience(fresh, token),
               summary=f"{me.display_name} places {who.name} on {fresh.name}{out_of_sight}.",
               payload={"token": token_data(token, fresh, shown_badges(locked)), "shown": fresh.shown})
    return token


def _token_under_lock(locked: Table, token: Token, me: Membership) -> Token:
    """The token as it is now, if ``me`` may see it: a hidden token, or one on a scene not
    shown, is "no such token" to anyone but the GM (its id tells nothing)."""
    fresh = Token.objects.filter(pk=token.pk, scene__table=locked).select_related(
        "scene", "character", "character__owner").first()
    if fresh is None or not may_see_scene(me, shown=fresh.scene.shown, hidden=fresh.hidden):
        raise NotFound(NO_TOKEN)
    if not may_see_scene(me, shown=False) and not token_seen(fresh.scene, fresh):
        raise NotFound(NO_TOKEN)  # under the fog: as unknown to them as a hidden one
    return fresh


def token_move(*, token: Token, actor: Membership, x: int, y: int) -> Token:
    """A token's player (or the GM) moves it to (x, y), a point of its scene."""
    with transaction.atomic():
        locked = lock_table(token.scene.table_id)
        me = acting(locked, actor, Verb.TOKEN_MOVE)
        fresh = _token_under_lock(locked, token, me)
        if not may_move_token(me, fresh.character):
            raise NotAllowed(f"{fresh.character.name} is not yours to move.")
        scene = fresh.scene
        if not (0 <= x <= scene.width and 0 <= y <= scene.height):
            raise ServiceError(f"That is off the scene: it runs from 0 to {scene.width} across and "
                               f"0 to {scene.height} down.", field="x")
        if (fresh.x, fresh.y) == (x, y):
            return fresh  # dropped where it stood: nothing to log
        if not may_see_scene(me, shown=False) and covered(scene, x, y):
            raise ServiceError(UNDER_FOG, field="x")
        seen_before = scene.shown and token_seen(scene, fresh)
        fresh.x, fresh.y = x, y
        fresh.save(update_fields=["x", "y"])
        data = token_data(fresh, scene, shown_badges(locked))
        name = fresh.character.name
        seen_after = scene.shown and token_seen(scene, fresh)
        if seen_before and not seen_after:  # the GM took it under the fog: it leaves the others' scene
            append(locked, "token.hidden", actor=me, audience=Audience.EVERYONE,
                   summary=f"{me.display_name} moves {name} into the fog.",
                   private_summary=f"{me.display_name} moves {name} under the fog, toward {data['where']}: "
                                   "only you see its token now.",
                   payload={"token": {"id": fresh.pk, "scene": scene.pk}, "shown": scene.shown},
                   private={"token": data}, private_audience=Audience.GM)
        elif seen_after and not seen_before and not fresh.hidden:  # out of the fog: everyone's again
            append(locked, "token.shown", actor=me, audience=Audience.EVERYONE,
                   summary=f"{me.display_name} brings {name} out of the fog, toward {data['where']}.",
                   payload={"token": data, "shown": scene.shown})
        else:
            append(locked, "token.moved", actor=me, audience=_audience(scene, fresh),
                   summary=f"{me.display_name} moves {name} toward {data['where']}.",
                   payload={"token": data, "shown": scene.shown})
    return fresh


def token_visibility(*, token: Token, actor: Membership, hidden: bool) -> Token:
    """The GM hides a token (it leaves every other seat's scene) or reveals it to everyone."""
    with transaction.atomic():
        locked = lock_table(token.scene.table_id)
        me = acting(locked, actor, Verb.SCENE_MANAGE)
        fresh = _token_under_lock(locked, token, me)
        name = fresh.character.name
        if fresh.hidden == hidden:
            raise ServiceError(f"{name} is {'hidden' if hidden else 'in sight'} already.")
        fresh.hidden = hidden
        fresh.save(update_fields=["hidden"])
        scene, data = fresh.scene, token_data(fresh, fresh.scene, shown_badges(locked))
        # under the fog, the others see it neither before nor after: the GM's alone
        audience = Audience.EVERYONE if scene.shown and not covered(scene, fresh.x, fresh.y) else Audience.GM
        if hidden:  # the others saw it: their scene loses it, and their log says so, no more
            append(locked, "token.hidden", actor=me, audience=audience,
                   summary=f"{me.display_name} takes {name} off the scene.",
                   private_summary=f"{me.display_name} hides {name}: only you see its token now.",
                   payload={"token": {"id": fresh.pk, "scene": scene.pk}, "shown": scene.shown},
                   private={"token": data}, private_audience=Audience.GM)
        else:
            append(locked, "token.shown", actor=me, audience=audience,
                   summary=f"{me.display_name} reveals {name} on {scene.name}.",
                   payload={"token": data, "shown": scene.shown})
    return fresh


def character_portrait(*, character: Character, actor: Membership, image: IO[bytes] | None) -> Character:
    """A character's player (or the GM) gives it a portrait, which its tokens show."""
    if not can_edit_character(actor, character):
        raise NotAllowed("You may give a portrait only to your own character.")
    picture = read_picture(image, field="portrait")

    def run(stored: list[str]) -> Character:
        with transaction.atomic():
            locked = lock_table(character.table_id)
            me = Membership.objects.filter(pk=actor.pk, table=locked).first()
            fresh = Character.objects.filter(pk=character.pk, table=locked).select_related("owner").first()
            if fresh is None:
                raise NotFound("There is no such character.")
            if not can_edit_character(me, fresh):
                raise NotAllowed("You may give a portrait only to your own character.")
            assert me is not None
            old = fresh.portrait.name
            stored.append(_store(fresh.portrait, picture, f"{locked.pk}-{fresh.pk}"))
            fresh.portrait_type = picture.kind
            fresh.save(update_fields=["portrait", "portrait_type"])
            _remove_on_commit(old)
            scene = shown_scene(locked)
            tokens = list(scene.tokens.filter(character=fresh)) if scene is not None else []
            for t in tokens:
                t.character = fresh
            badges = shown_badges(locked) if scene else {}
            seen = [token_data(t, scene, badges) for t in tokens if token_seen(scene, t)] if scene else []
            every = [token_data(t, scene, badges) for t in tokens] if scene else []
            append(locked, "character.portrait", actor=me, summary=f"{me.display_name} gives {fresh.name} a portrait.",
                   payload={"character": fresh.pk, "tokens": seen},
                   private={"tokens": every} if every != seen else {}, private_audience=Audience.GM)
            return fresh
    return _stored_or_removed(run)
