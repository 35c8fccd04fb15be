package bot

import (
	"cmp"
	"errors"
	"slices"
	"strings"

	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/games/search"
	"github.com/kozyr-bot/kozyr/store"
)

// The leaderboard (/top): a chat's players with enough rated matches, best first.
const (
	// topMin is how many rated matches of a game put a player on a chat's leaderboard: fewer say
	// little about how well they play.
	topMin = 5
	// topMax is how many players the leaderboard lists, which keeps it one message (4096
	// characters) with the longest names.
	topMax = 20
)

// aiRating is the fixed rating a computer player of level l counts at as an opponent (README
// "Ratings"): beating it moves a person's rating like beating a person of that rating, while the
// computer players themselves are never rated nor listed.
func aiRating(l search.Level) float64 {
	switch l {
	case search.Easy:
		return 1300
	case search.Strong:
		return 1700
	}
	return store.RatingStart
}

// rate rates the people of a finished match m of table rec, in the transaction that archives it.
func (b *Bot) rate(tx store.Tx, rec store.Table, m store.Match) error {
	return store.RateMatch(tx, m, aiRating(render.TableLevel(rec, b.cfg.Level)))
}

// topTx answers /top [game] in a group: the chat's leaderboard of the named game, else of the game
// at the table here, else of the game the chat finished last. Forum topics share the chat's.
func (b *Bot) topTx(tx store.Tx, place store.Place, lang, arg string) render.Content {
	game := strings.ToLower(strings.TrimSpace(arg))
	if game == "" {
		if rec, err := tx.TableAt(place); err == nil {
			game = rec.Game
		} else if m, err := tx.LastMatch(place.Chat); err == nil {
			game = m.Game
		}
	}
	if _, ok := b.rules[game]; !ok {
		if game == "" {
			return render.Content{Text: b.render.Text(lang, "bot.top.which", "Games", b.render.GameIDs())}
		}
		return render.Content{Text: b.render.Text(lang, "bot.top.unknown", "Game", render.Truncate(strings.TrimSpace(arg), 32), "Games", b.render.GameIDs())}
	}
	leaders, err := b.leaders(tx, place.Chat, game)
	if err != nil {
		b.log.Error().Err(err).Int64("chat", place.Chat).Str("game", game).Msg("read the leaderboard")
		return render.Content{Text: b.render.Text(lang, "bot.cb.error")}
	}
	return b.render.Top(lang, game, leaders, topMin)
}

// leaders are the players of game in chat with at least topMin rated matches, by rating (then by
// more rated matches, then by user id, so equal players keep one order), at most topMax of them.
func (b *Bot) leaders(tx store.Tx, chat int64, game string) ([]render.Leader, error) {
	ids, err := tx.ChatPlayers(chat, game)
	if err != nil {
		return nil, err
	}
	var out []render.Leader
	for _, id := range ids {
		u, err := tx.User(id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if s := u.Stats[game]; s.Rated >= topMin {
			out = append(out, render.Leader{User: id, Name: u.Name, Stat: s})
		}
	}
	slices.SortFunc(out, func(a, b render.Leader) int {
		return cmp.Or(cmp.Compare(b.Stat.Rating, a.Stat.Rating), cmp.Compare(b.Stat.Rated, a.Stat.Rated), cmp.Compare(a.User, b.User))
	})
	return out[:min(len(out), topMax)], nil
}
