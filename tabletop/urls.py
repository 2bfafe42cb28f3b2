from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import path

from tabletop import views
from tabletop.views import drawings as drawing_views
from tabletop.views import designed as designed_views
from tabletop.views import how_to_play as how_to_play_views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("tables/new/", views.table_create, name="table_create"),
    path("tables/<id:table_id>/", views.table, name="table"),
    path("tables/<id:table_id>/roll/", views.roll, name="roll"),
    path("tables/<id:table_id>/chat/", views.chat, name="chat"),
    path("tables/<id:table_id>/links/<str:which>/regenerate/", views.link_regenerate, name="link_regenerate"),
    path("tables/<id:table_id>/links/<str:which>/qr.svg", views.link_qr, name="link_qr"),
    path("tables/<id:table_id>/members/<id:member_id>/rename/", views.member_rename, name="member_rename"),
    path("tables/<id:table_id>/members/<id:member_id>/remove/", views.member_remove, name="member_remove"),
    path("tables/<id:table_id>/members/<id:member_id>/seat-link/", views.seat_link, name="seat_link"),
    path("tables/<id:table_id>/members/<id:member_id>/seat-link/replace/", views.seat_link_replace, name="seat_link_replace"),
    path("tables/<id:table_id>/npc-sheets/", views.npc_sheets, name="npc_sheets"),
    path("tables/<id:table_id>/characters/new/", views.character_new, name="character_new"),
    path("tables/<id:table_id>/characters/<id:character_id>/edit/", views.character_edit, name="character_edit"),
    path("tables/<id:table_id>/characters/<id:character_id>/claim/", views.character_claim, name="character_claim"),
    path("tables/<id:table_id>/characters/<id:character_id>/growth/", views.character_growth, name="character_growth"),
    path("tables/<id:table_id>/npcs/<str:action>/", views.npc_action, name="npc_action"),
    path("tables/<id:table_id>/bestiary/<str:action>/", views.bestiary_action, name="bestiary_action"),
    path("tables/<id:table_id>/export.<str:fmt>", views.export, name="export"),
    path("tables/<id:table_id>/decks/new/", views.deck_create, name="deck_create"),
    path("tables/<id:table_id>/decks/<str:action>/", views.deck_action, name="deck_action"),
    path("tables/<id:table_id>/cards/<str:action>/", views.card_action, name="card_action"),
    path("tables/<id:table_id>/requests/<str:action>/", views.request_action, name="request_action"),
    path("tables/<id:table_id>/scenes/new/", views.scene_create, name="scene_create"),
    path("tables/<id:table_id>/scenes/tools/", views.scene_tools, name="scene_tools"),
    # the grid and a token's look (before the paths that read any word as an action)
    path("tables/<id:table_id>/scenes/<id:scene_id>/grid/", views.scene_grid, name="scene_grid"),
    path("tables/<id:table_id>/tokens/<id:token_id>/style/", views.token_style, name="token_style"),
    path("tables/<id:table_id>/tokens/<id:token_id>/remove/", views.token_remove, name="token_remove"),
    path("tables/<id:table_id>/scenes/<id:scene_id>/<str:action>/", views.scene_action, name="scene_action"),
    path("tables/<id:table_id>/tokens/new/", views.token_place, name="token_place"),
    path("tables/<id:table_id>/tokens/<id:token_id>/move/", views.token_move, name="token_move"),
    path("tables/<id:table_id>/tokens/<id:token_id>/<str:action>/", views.token_visibility, name="token_visibility"),
    # drawings on a scene (tabletop/views/drawings.py)
    path("tables/<id:table_id>/scenes/<id:scene_id>/drawings/new/", drawing_views.drawing_add, name="drawing_add"),
    path("tables/<id:table_id>/scenes/<id:scene_id>/drawings/undo/", drawing_views.drawing_undo, name="drawing_undo"),
    path("tables/<id:table_id>/scenes/<id:scene_id>/drawings/clear/", drawing_views.drawings_clear,
         name="drawings_clear"),
    path("tables/<id:table_id>/drawings/<id:drawing_id>/erase/", drawing_views.drawing_erase, name="drawing_erase"),
    path("tables/<id:table_id>/characters/<id:character_id>/portrait/", views.character_portrait,
         name="character_portrait"),
    path("tables/<id:table_id>/fog/<str:action>/", views.fog_action, name="fog_action"),
    path("tables/<id:table_id>/images/<str:what>/<id:pk>/", views.table_image, name="table_image"),
    # a game system's own, from its registration (games/contract.py)
    path("tables/<id:table_id>/commands/<str:command>/", views.table_command, name="table_command"),
    path("tables/<id:table_id>/checks/<str:check>/", views.table_check, name="table_check"),
    path("tables/<id:table_id>/campaign/<str:command>/", views.campaign_command, name="campaign_command"),
    path("tables/<id:table_id>/sessions/open/", views.session_open, name="session_open"),
    path("tables/<id:table_id>/sessions/close/", views.session_close, name="session_close"),
    path("tables/<id:table_id>/sessions/<id:number>/recap/", views.session_recap, name="session_recap"),
    # a sheet its GM designs, at a table whose game offers it (tabletop/views/designed.py); its pages stand apart
    # from its actions' path (sheet/<action>/), which the page sends as act frames
    path("tables/<id:table_id>/sheet-design/", designed_views.sheet_design, name="sheet_design"),
    path("tables/<id:table_id>/sheets/new/", designed_views.designed_sheet_new, name="designed_sheet_new"),
    path("tables/<id:table_id>/sheets/<id:character_id>/", designed_views.designed_sheet_edit,
         name="designed_sheet_edit"),
    path("tables/<id:table_id>/sheet/<str:action>/", designed_views.sheet_action, name="sheet_action"),
    path("games/<str:system>/<str:page>/", views.game_page, name="game_page"),
    # a system's "How to play this here" page, public (tabletop/views/how_to_play.py)
    path("systems/<str:system>/how-to-play/", how_to_play_views.how_to_play, name="how_to_play"),
    path("join/<str:token>/", views.join, name="join"),
    path("watch/<str:token>/", views.watch, name="watch"),
    path("seat/<str:token>/", views.seat, name="seat"),
    path("accounts/leave/", views.leave, name="leave"),
    path("admin/", admin.site.urls),
]

handler400 = "tabletop.views.errors.bad_request"
handler403 = "tabletop.views.errors.forbidden"
handler404 = "tabletop.views.errors.not_found"
