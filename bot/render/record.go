package render

import (
	"github.com/kozyr-bot/kozyr/games/record"
	"github.com/kozyr-bot/kozyr/store"
)

// Commitment is the table's commitment to its seed (record.Commit), or "" for a table of a game
// the renderer does not know.
func (r *Renderer) Commitment(t store.Table) string {
	g, ok := r.Rules[t.Game]
	if !ok {
		return ""
	}
	rules := t.Rules
	if rules == 0 {
		rules = g.Version()
	}
	return record.Commit(t.Game, rules, t.Config, g.Options(), t.Seed)
}

// commitLine is the table message's line with the commitment, shown from the first deal to the
// end, so the seed the match-end post reveals can be checked against it.
func (r *Renderer) commitLine(t store.Table, lang string) string {
	c := r.Commitment(t)
	if c == "" {
		return ""
	}
	return r.Text(lang, "record.commit", "Commit", c)
}

// seedLine is the match-end post's line that reveals the seed.
func (r *Renderer) seedLine(t store.Table, lang string) string {
	return r.Text(lang, "record.seed", "Seed", record.Seed(t.Seed).String(), "Commit", r.Commitment(t))
}
