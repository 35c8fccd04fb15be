package bot

import (
	"fmt"

	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/store"
)

// scoreContentTx answers /score: the sheet of the match running at place, else of the last one
// finished there (a forum topic has its own).
func (b *Bot) scoreContentTx(tx store.Tx, place store.Place, lang string) render.Content {
	if rec, err := tx.TableAt(place); err == nil && rec.Started {
		st, err := b.stateOf(tx, b.mem(rec.ID), rec)
		if err != nil {
			b.log.Error().Err(err).Msg("score")
			return render.Content{Text: b.render.Text(lang, "bot.score.none")}
		}
		return b.render.SheetContent(rec, st.Score(), lang)
	}
	m, err := tx.LastMatchAt(place)
	if err != nil {
		return render.Content{Text: b.render.Text(lang, "bot.score.none")}
	}
	sh, err := b.matchSheet(m)
	if err != nil {
		b.log.Error().Err(err).Msg("score of a finished match")
		return render.Content{Text: b.render.Text(lang, "bot.score.none")}
	}
	return b.render.SheetContent(render.MatchTable(m), sh, lang)
}

// matchSheet is the final sheet of an archived match: as kept, or (for a match archived before
// sheets were kept) by replaying its log with the rules it was played by.
func (b *Bot) matchSheet(m store.Match) (games.Sheet, error) {
	if m.Sheet != nil {
		return *m.Sheet, nil
	}
	r, ok := b.rules[m.Game]
	if !ok || r.Version() != m.Rules {
		return games.Sheet{}, fmt.Errorf("match %d: no rules %s v%d to replay it", m.Table, m.Game, m.Rules)
	}
	log := make([]store.Entry, 0, len(m.Log))
	for _, s := range m.Log {
		e, err := store.ParseEntry(s)
		if err != nil {
			return games.Sheet{}, err
		}
		log = append(log, e)
	}
	st, _, err := replay(r, m.Config, m.Seed, log)
	if err != nil {
		return games.Sheet{}, err
	}
	return st.Score(), nil
}
