// Package outbox sends the bot's Telegram calls (sends, edits, deletes) while keeping the Bot
// API's flood limits, so that Telegram never has to answer 429.
//
// Every call is a Job for one chat. Jobs of a chat run one at a time in submission order; jobs of
// different chats run concurrently. The Outbox keeps, with the windows divided by Limits.Scale:
//
//   - per chat: one call per PerChat (1 s);
//   - per group (chat id < 0): GroupPerMinute (20) calls in any sliding minute;
//   - overall: GlobalPerSecond (30) calls in any sliding second.
//
// A call occupies its slot in a window from the moment it starts until PerChat/the window after it
// ends, so however long the request takes, the calls as Telegram receives them are never closer
// than the limits (this is the margin: Telegram counts arrival times, which lie between our start
// and end times). Every attempt counts, failed ones too.
//
// A Job with a Coalesce key replaces a pending (not yet started) job of the same chat with the
// same key: only the latest edit of a message is sent. The replaced job is dropped from its place
// and the new one queued at the end, so submission order holds; the replaced job's Done gets nil.
//
// Outcomes: nil and "message is not modified" are success. A 429 (*tg.TooManyRequestsError)
// pauses that chat for retry_after seconds (divided by Scale, as the test fake scales its windows)
// and retries. 5xx answers, network errors and timeouts are retried with capped exponential
// backoff, up to a bounded number of attempts; then Done gets the error and a warning is logged.
// Other 4xx errors (403 for a DM never opened, 400 migrate_to_chat_id, ...) are final at once.
//
// Run drives the sending until its context is done; calls in flight then finish in the
// background with a context of their own (30 s timeout), and their Done still runs. Flush waits
// until nothing is pending or running, and drives the sending itself when Run is not running, so
// a shutdown can stop Run first and then Flush with a deadline.
package outbox
