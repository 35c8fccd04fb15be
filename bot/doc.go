// Package bot is kozyr's Telegram transport (design §5): it turns updates into commands, lobby
// presses and game actions, commits each to the store before anything is sent, and brings the
// group's table message and the players' hand messages up to date from the committed snapshot.
//
// Nothing here knows a particular game: every game is shown from its View, its Legal actions, its
// Events, its Sheet and its Options (bot/render), and its computer player comes from its Rules.
//
// The path of an update:
//   - intake.go takes it from getUpdates (the bot's own poll loop) or from Telegram's webhook
//     request, and puts it in the queue of the table it concerns (one queue per place, so a table
//     has one writer; tables run in parallel; a full queue answers "busy").
//   - The handler runs one store transaction (txn): the effect, the update's id as processed (for a
//     press, in its log entry), the messages the commit owes as outbox rows, and the bookkeeping of
//     earlier sends. A redelivered update is recognised there and changes nothing.
//   - Only then is the update settled: the poll loop's offset, or the webhook's 200, confirms to
//     Telegram exactly the settled updates. A crash before that makes Telegram deliver it again.
//     A press settles as soon as its transaction commits, before its answer goes out: a
//     redelivery of it would be recognised and change nothing anyway.
//     An update still in a queue when the poll loop asks again is kept (stored as it came, in one
//     commit for all of them) so one slow table does not hold back the offset for everyone; a
//     restarted bot processes the kept ones first.
//   - After the commit the table's snapshot (render.Snapshot: record, state, last events, language)
//     goes to the outbox jobs, which render it and make at most one call each: the group message
//     (edited after a short pause, so a run of moves costs one edit), each hand (a fresh prompt
//     when a turn begins, which deletes the superseded one; an edit after a pause otherwise), the
//     deal and match results (rows deleted once sent).
//
// What the bot holds between updates (tables.go) is a cache of the store plus the marks of its
// own messages (ids and content hashes), which ride along with the table's next transaction or a
// flush a moment later; a restart (resume.go) rebuilds everything from the store by replaying each
// table's log, sends the rows that are left and re-renders every message, skipping those whose
// stored hash shows they are current.
//
// Decisions worth knowing:
//   - The lobby message becomes the table message when the match begins.
//   - Callback data (bot/callback) names the table by id and the version its buttons were drawn
//     at; an older version counts only while several seats act at once.
//   - A forged or stale press is answered and changes nothing: no state, no keyboard, no message.
//   - The bot removed from a group (my_chat_member) closes the group's tables quietly: no archive
//     entry or stats, and the players' hand messages say so.
//   - /leave during a match marks the seat away: the agent plays it until the player presses a
//     button again.
//   - A hand keyboard shows at most render.PageSize actions; longer lists (Skat's first bid) get
//     "‹" / "›" buttons whose press redraws the keyboard only.
package bot
