package record

import (
	"fmt"

	"github.com/kozyr-bot/kozyr/games"
)

// Match is a finished match as the bot's archive keeps it: what New needs to make its record.
type Match struct {
	Rules    games.Rules  // the game, at the version the match was played by
	Version  int          // the rules version the archive says the match was played by
	Config   games.Config // as the table was opened (options left at their default may be absent)
	Seed     uint64
	Seats    []Seat       // names and computer players, in seat order (Seat is filled in)
	Log      []games.Move // every action
	Sheet    *games.Sheet // the final sheet kept with the match; nil takes the replay's
	Finished string       // when it ended, as the bot writes times (RFC 3339), or ""
}

// New makes the record of a finished match: its header and commitment, its seats and log, and,
// by replaying the log with the engine, every deal's result and the match's end. It fails when
// the rules are not the version the match was played by, or the log does not replay to the end.
func New(m Match) (Record, error) {
	r := m.Rules
	if m.Version != r.Version() {
		return Record{}, fmt.Errorf("record: %s was played under rules version %d, the engine is at %d", r.Name(), m.Version, r.Version())
	}
	rec := Record{Format: Format, Game: r.Name(), Rules: r.Version(), Players: m.Config.Players,
		Options: Options(m.Config, r.Options()), Seed: Seed(m.Seed), Finished: m.Finished,
		Seats: []Seat{}, Actions: []Action{}, Deals: []Deal{}, End: []games.Msg{}}
	rec.Commitment = Commit(rec.Game, rec.Rules, rec.Config(), r.Options(), m.Seed)
	for i, s := range m.Seats {
		s.Seat = i
		rec.Seats = append(rec.Seats, s)
	}
	st, err := r.New(rec.Config(), m.Seed)
	if err != nil {
		return Record{}, fmt.Errorf("record: new %s match: %w", r.Name(), err)
	}
	for i, mv := range m.Log {
		var evs []games.Event
		if st, evs, err = st.Apply(mv.Seat, mv.Action); err != nil {
			return Record{}, fmt.Errorf("record: action %d (seat %d %s): %w", i, mv.Seat, mv.Action, err)
		}
		rec.Actions = append(rec.Actions, Action{Seat: int(mv.Seat), Action: mv.Action.String()})
		result, end := results(evs)
		if result != nil {
			rec.Deals = append(rec.Deals, Deal{Deal: len(rec.Deals) + 1, Last: i, Result: result})
		}
		rec.End = append(rec.End, end...)
	}
	if len(st.ToAct()) > 0 {
		return Record{}, fmt.Errorf("record: the %s log of %d actions does not finish the match", r.Name(), len(m.Log))
	}
	sh := st.Score()
	if m.Sheet != nil {
		sh = *m.Sheet
	}
	rec.Sheet = sheetOf(sh)
	return rec, nil
}

// results are an action's deal-end messages (nil when it ended no deal) and match-end messages.
func results(evs []games.Event) (deal, end []games.Msg) {
	for _, e := range evs {
		switch e.Kind {
		case games.EventDealEnd:
			deal = append(deal, e.Msg)
		case games.EventMatchEnd:
			end = append(end, e.Msg)
		}
	}
	return deal, end
}

// sheetOf is a games.Sheet in the record's terms.
func sheetOf(sh games.Sheet) Sheet {
	out := Sheet{Rows: []Row{}, Totals: sh.Totals, Winners: []int{}, Notes: sh.Notes}
	for _, r := range sh.Rows {
		out.Rows = append(out.Rows, Row{Label: r.Label, Cells: r.Cells, Points: r.Points})
	}
	for _, w := range sh.Winners {
		out.Winners = append(out.Winners, int(w))
	}
	if out.Totals == nil {
		out.Totals = []int{}
	}
	return out
}
