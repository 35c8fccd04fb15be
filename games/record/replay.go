package record

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/kozyr-bot/kozyr/games"
)

// Mismatch is the first place where a record and the engine's replay of it part.
type Mismatch struct {
	Action int // the index of the action, -1 for the record's header, len(Actions) for after the last
	What   string
}

// Error says where and what.
func (m *Mismatch) Error() string {
	if m.Action < 0 {
		return "header: " + m.What
	}
	return fmt.Sprintf("action %d: %s", m.Action, m.What)
}

// Summary is what a record that replays exactly comes to.
type Summary struct {
	Game    string
	Rules   int
	Actions int
	Deals   int
	Winners []string // the winners' names
}

// String is the summary as one line.
func (s Summary) String() string {
	w := strings.Join(s.Winners, ", ")
	if w == "" {
		w = "nobody"
	}
	return fmt.Sprintf("%s (rules %d): %d actions and %d deals replay exactly; the results and the final sheet match; won by %s",
		s.Game, s.Rules, s.Actions, s.Deals, w)
}

// Replay plays rec again with r from its seed and configuration, action by action, and compares
// everything the record says with what the engine does: the header (game, rules version, every
// option, the commitment), every action (the engine must accept it), where each deal ends and its
// result, the match's end and the final sheet. The first difference is a *Mismatch.
func Replay(r games.Rules, rec Record) (Summary, error) {
	cfg, seed := rec.Config(), uint64(rec.Seed)
	switch {
	case rec.Game != r.Name():
		return Summary{}, &Mismatch{-1, fmt.Sprintf("the record is of %q, the engine plays %q", rec.Game, r.Name())}
	case rec.Rules != r.Version():
		return Summary{}, &Mismatch{-1, fmt.Sprintf("the match was played under %s rules version %d, the engine is at %d", rec.Game, rec.Rules, r.Version())}
	case !maps.Equal(rec.Options, Options(cfg, r.Options())):
		return Summary{}, &Mismatch{-1, fmt.Sprintf("options %v are not every option of %s once each: %v", rec.Options, rec.Game, Options(cfg, r.Options()))}
	}
	if c := Commit(rec.Game, rec.Rules, cfg, r.Options(), seed); c != rec.Commitment {
		return Summary{}, &Mismatch{-1, fmt.Sprintf("commitment %s is not that of the seed, game, rules and options, %s", rec.Commitment, c)}
	}
	moves, err := rec.Moves()
	if err != nil {
		return Summary{}, &Mismatch{-1, err.Error()}
	}
	st, err := r.New(cfg, seed)
	if err != nil {
		return Summary{}, &Mismatch{-1, fmt.Sprintf("the engine refuses the configuration: %v", err)}
	}
	var end []games.Msg
	deal := 0 // deals matched so far
	for i, mv := range moves {
		var evs []games.Event
		if st, evs, err = st.Apply(mv.Seat, mv.Action); err != nil {
			return Summary{}, &Mismatch{i, fmt.Sprintf("seat %d %s is refused: %v", mv.Seat, mv.Action, err)}
		}
		result, e := results(evs)
		end = append(end, e...)
		recorded := deal < len(rec.Deals) && rec.Deals[deal].Last == i
		switch {
		case result == nil && recorded:
			return Summary{}, &Mismatch{i, fmt.Sprintf("the record ends deal %d here, the engine does not", deal+1)}
		case result == nil:
			continue
		case !recorded:
			return Summary{}, &Mismatch{i, fmt.Sprintf("the engine ends deal %d here, the record does not", deal+1)}
		}
		if got, want := msgsText(result), msgsText(rec.Deals[deal].Result); got != want {
			return Summary{}, &Mismatch{i, fmt.Sprintf("deal %d's result is %s, the record says %s", deal+1, got, want)}
		}
		deal++
	}
	after := len(moves)
	if len(st.ToAct()) > 0 {
		return Summary{}, &Mismatch{after, "the match is not over after the last action"}
	}
	if got, want := msgsText(end), msgsText(rec.End); got != want {
		return Summary{}, &Mismatch{after, fmt.Sprintf("the match's end is %s, the record says %s", got, want)}
	}
	sh := sheetOf(st.Score())
	got, _ := json.Marshal(sh)
	want, _ := json.Marshal(rec.Sheet)
	if path := differs(got, want); path != "" {
		return Summary{}, &Mismatch{after, fmt.Sprintf("the final sheet differs at %s: the engine's is %s, the record's %s",
			strings.Replace(path, "record", "sheet", 1), got, want)}
	}
	sum := Summary{Game: rec.Game, Rules: rec.Rules, Actions: len(moves), Deals: deal}
	for _, w := range sh.Winners {
		sum.Winners = append(sum.Winners, rec.Seats[w].Name)
	}
	return sum, nil
}

// msgsText is messages as compact JSON, the form in which they are compared and reported.
func msgsText(ms []games.Msg) string {
	if len(ms) == 0 {
		return "[]"
	}
	b, err := json.Marshal(ms)
	if err != nil {
		return fmt.Sprintf("unwritable messages (%v)", err)
	}
	return string(b)
}
