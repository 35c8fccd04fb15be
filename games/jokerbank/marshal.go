package jokerbank

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/kozyr-bot/kozyr/games"
)

// wireVersion is the version of the encoding below; a change to it is a new version, and
// Unmarshal refuses every version but its own.
const wireVersion = 1

// wire is the encoded state: JSON, every field always present, so a stored table reads well and
// has exactly one encoding. A session is its table, its seed and its stakes: the banker, the
// cards turned, what everyone won and the money all follow from those, so they are left out and
// replayed by Unmarshal.
type wire struct {
	V       int        `json:"v"`
	Players int        `json:"players"`
	Ceiling int        `json:"ceiling"`
	Rounds  int        `json:"rounds"`      // 0: an open session
	Seed    uint64     `json:"seed,string"` // a string: exact in every JSON reader
	History [][]int    `json:"history"`     // per settled round, every seat's stake (the banker's 0)
	Stakes  []int      `json:"stakes"`      // the round being staked: 0 where no stake is in yet
	Stopper games.Seat `json:"stopper"`     // who ended an open session, -1 for nobody
}

// MarshalBinary writes the state as JSON; equal states give equal bytes.
func (st *state) MarshalBinary() ([]byte, error) {
	w := wire{V: wireVersion, Players: st.n, Ceiling: st.ceiling, Rounds: st.rounds, Seed: st.seed,
		History: make([][]int, len(st.history)), Stakes: slices.Clone(st.stakes[:st.n]), Stopper: st.stopper}
	for i, r := range st.history {
		w.History[i] = make([]int, st.n)
		for s := range st.n {
			w.History[i][s] = int(r.stakes[s])
		}
	}
	return json.Marshal(w)
}

// unmarshal reads what MarshalBinary wrote and nothing else: unknown fields, lists of the wrong
// length, a table r cannot open, stakes no punter can place, and any encoding but the canonical
// one (spacing, field order, trailing data) are errors.
func unmarshal(r games.Rules, b []byte) (*state, error) {
	var w wire
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return nil, err
	}
	st, err := w.state(r)
	if err != nil {
		return nil, err
	}
	out, err := st.MarshalBinary()
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(out, b) {
		return nil, errors.New("not the canonical encoding of the state")
	}
	return st, nil
}

// state checks w and replays the session it encodes.
func (w *wire) state(r games.Rules) (*state, error) {
	if w.V != wireVersion {
		return nil, fmt.Errorf("encoding version %d, want %d", w.V, wireVersion)
	}
	rounds := strconv.Itoa(w.Rounds)
	if w.Rounds == 0 {
		rounds = "open"
	}
	cfg := games.Config{Players: w.Players,
		Options: map[string]string{OptCeiling: strconv.Itoa(w.Ceiling), OptRounds: rounds}}
	if err := games.Validate(r, cfg); err != nil {
		return nil, fmt.Errorf("table of %d players, ceiling %d, %d rounds: %v", w.Players, w.Ceiling, w.Rounds, err)
	}
	st := newState(w.Players, w.Ceiling, w.Rounds, w.Seed)
	for i, stakes := range w.History {
		if st.over() {
			return nil, fmt.Errorf("round %d after the end of the session", i+1)
		}
		if err := st.setStakes(stakes, true); err != nil {
			return nil, fmt.Errorf("round %d: %w", i+1, err)
		}
		st.settle()
	}
	switch {
	case w.Stopper == games.Nobody:
	case st.over() || st.rounds > 0 || !st.valid(w.Stopper) || w.Stopper == st.banker:
		return nil, fmt.Errorf("session stopped by seat %d", w.Stopper)
	}
	st.stopper = w.Stopper
	if err := st.setStakes(w.Stakes, false); err != nil {
		return nil, fmt.Errorf("round %d: %w", st.round(), err)
	}
	return st, nil
}

// setStakes sets a round's stakes, all of them in (all) or some: the banker stakes nothing, a
// punter 1..ceiling; once the session is over nobody stakes, and before that the round is played
// as soon as the last stake is in.
func (st *state) setStakes(stakes []int, all bool) error {
	if len(stakes) != st.n {
		return fmt.Errorf("%d stakes for %d seats", len(stakes), st.n)
	}
	missing := 0
	for s, v := range stakes {
		switch {
		case v == 0 && (all || games.Seat(s) == st.banker):
		case v == 0:
			missing++
		case games.Seat(s) == st.banker || v < 0 || v > st.ceiling:
			return fmt.Errorf("seat %d stakes %d with banker %d, ceiling %d", s, v, st.banker, st.ceiling)
		}
	}
	switch {
	case all && slices.ContainsFunc(st.punters(), func(p games.Seat) bool { return stakes[p] == 0 }):
		return errors.New("a stake missing")
	case !all && st.over() && missing != st.n-1:
		return errors.New("stakes after the end of the session")
	case !all && !st.over() && missing == 0:
		return errors.New("every stake in, the round not played")
	}
	copy(st.stakes[:], stakes)
	return nil
}
