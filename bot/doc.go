// Package bot is kozyr's Telegram transport (design §5): it turns updates into commands, lobby
// presses and game actions, commits every accepted action to the store before anything is sent,
// and renders the group table, the private hands, deal and match results from the committed
// record through the outbox.
//
// Nothing here knows a particular game: every game is shown from its View (Table, Private, Prompt,
// Hand), its Legal actions, its Events, its Sheet and its Options, through the locales bundle.
//
// Concurrency: go-telegram/bot hands updates to one worker (WithNotAsyncHandlers, an unbuffered
// channel); the bot queues each update behind the earlier work of the same table chat (serial.go),
// so one table has one writer, tables run in parallel, and a restart resumes after the last update
// whose processing finished (the offset is persisted).
//
// Decisions worth knowing:
//   - The lobby message becomes the table message when the match begins.
//   - The group message and each DM hand message are rendered from the committed record at the
//     moment the outbox sends them (coalesce keys "table:<chat>" and "hand:<chat>:<user>"), so a
//     burst of moves costs one edit, every edit shows the latest state, and a restart re-renders
//     what a crash lost. Edits with fixed content use "edit:<chat>:<msg>".
//   - Private events (Event.To = a seat) of kind Info appear in that player's hand message; deal
//     and match results addressed to a seat are sent to their DM as new messages.
//   - The bot removed from a group (my_chat_member) closes that chat's table quietly: it is deleted
//     without an archive entry or stats, and the players' hand messages lose their buttons.
//   - /leave during a match marks the seat away: the agent plays it until the player presses a
//     button again.
//   - A hand keyboard shows at most pageSize actions (paging.go): longer lists (Skat's first bid)
//     get "‹" / "›" buttons whose data "p1|<chat>|<version>|<page>" is checked like a game
//     button's; a page press redraws the keyboard only. Numeric ladders come in ascending order.
package bot
