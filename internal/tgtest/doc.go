// Package tgtest is a strict in-process stand-in for the Telegram Bot API, meant for end-to-end
// tests of the bot through the real go-telegram/bot client:
//
//	s := tgtest.New(tgtest.Options{RateScale: 100})
//	defer s.Close()
//	b, _ := tg.New(s.Token(), tg.WithServerURL(s.URL()))
//
// The server decodes what the client sends (multipart/form-data POSTs to /bot<token>/<method>, with
// reply_markup and similar objects as JSON strings in form fields; url-encoded and JSON bodies are
// accepted too) and answers exactly like Telegram: {"ok":true,"result":...} or
// {"ok":false,"error_code":N,"description":"...","parameters":{...}} with the matching HTTP status.
//
// Tests script users (SendText, StartDM, Press, Migrate, BotAdded, BotRemoved), which queue
// updates for getUpdates (long polling with Telegram's offset/timeout semantics), and inspect what
// the bot did (Messages, Message, Answer, Calls, Violations). WaitFor waits on a condition with a
// deadline; tests never sleep. Forum supergroups (forum.go: AddForum, CreateTopic, SendTopicText,
// SendReply, SendAsGroup for an anonymous admin) keep the topic of every message (Message.Thread,
// Topic), and a sendMessage into a topic that does not exist is refused like Telegram does.
//
// The fake is strict where Telegram is: 403 for a DM to a user who never pressed START, 400
// "chat not found" for an unknown chat, 429 with retry_after when the bot exceeds the flood limits
// (more than 3 messages in a chat per second, 20 per group per minute, 30 overall per second; sends
// and edits count, windows divided by Options.RateScale), 400 for malformed HTML, text over 4096
// UTF-16 code units after entity parsing, empty text, callback data outside 1–64 bytes, more than
// 100 buttons, an edit that changes nothing ("message is not modified"), an unknown message, and
// a callback query answered twice. Every such error that reveals a client bug (everything except
// 403 for an unopened DM, "message is not modified", the migration error, and injected faults) is
// also recorded in Violations, so a test can assert that the bot never broke a rule.
//
// Two behaviours of real Telegram that surprise people are reproduced on purpose:
// editMessageText without reply_markup removes the message's inline keyboard, and an inline
// keyboard must be a JSON array ({"inline_keyboard":[]} removes it; null is a 400).
//
// The fake is safe for concurrent use. Message ids are per chat and start at 1; update ids start
// at 1. Bot API methods are matched case-insensitively, as Telegram does.
package tgtest
