package bot

import (
	"errors"

	"github.com/kozyr-bot/kozyr/games"
)

// refusal is a request the bot turns down with a localized answer: its text is the locale id of
// the answer. Returned from inside a transaction it also aborts the write, so a refusal changes
// nothing.
type refusal string

func (r refusal) Error() string { return string(r) }

// Refusals of a game button, each with its own answer.
var (
	errNoTable   = refusal("bot.cb.notable")   // no running table of that id
	errNotPlayer = refusal("bot.cb.notplayer") // the presser is not seated there
	errStale     = refusal("bot.cb.stale")     // drawn for an older version
)

// refusalOf is the one place where what went wrong becomes what the user is told: a refusal,
// or an engine's sentinel error (the engine is the judge of turn and legality). ok is false for
// any other error, which is a fault of the bot's, answered with a generic apology.
func refusalOf(err error) (r refusal, ok bool) {
	switch {
	case errors.As(err, &r):
		return r, true
	case errors.Is(err, games.ErrNotYourTurn):
		return "bot.cb.notturn", true
	case errors.Is(err, games.ErrIllegal):
		return "bot.cb.illegal", true
	case errors.Is(err, games.ErrOver):
		return errNoTable, true
	}
	return "bot.cb.error", false
}

// outcome is the answer to a request: the success text, its refusal, or the generic apology (the
// error is logged).
func (b *Bot) outcome(lang string, err error, ok string) string {
	if err == nil {
		return b.render.Text(lang, ok)
	}
	r, known := refusalOf(err)
	if !known {
		b.log.Error().Err(err).Msg("request failed")
	}
	return b.render.Text(lang, string(r))
}
