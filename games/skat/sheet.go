package skat

import "github.com/kozyr-bot/kozyr/games"

// Score is the score list of §14: a row per deal with each seat's change, running totals, and
// the winners once the match is over.
func (st *state) Score() games.Sheet {
	sh := games.Sheet{Totals: make([]int, st.Cfg.Players)}
	for _, r := range st.Rows {
		row := games.SheetRow{Label: st.rowLabel(r), Points: make([]int, st.Cfg.Players)}
		for s, d := range r.Scores {
			row.Points[s] = d
			sh.Totals[s] += d
			switch {
			case st.Cfg.Players == 4 && games.Seat(s) == r.Dealer:
				row.Cells = append(row.Cells, "—") // §1: the dealer sat out
			case d != 0 || games.Seat(s) == r.Declarer:
				row.Cells = append(row.Cells, signed(d))
			default:
				row.Cells = append(row.Cells, "·")
			}
		}
		sh.Rows = append(sh.Rows, row)
	}
	if st.Phase == phOver {
		sh.Winners = st.winners()
	}
	return sh
}
