package wizard

import (
	"encoding/json"
	"fmt"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

const wireVersion = 1

// wire is the serialized state: plain JSON with cards in notation, so a stored table is readable.
type wire struct {
	Version     int        `json:"v"`
	Players     int        `json:"players"`
	CannotMatch bool       `json:"bids_cannot_match,omitempty"`
	Hidden      bool       `json:"hidden_bids,omitempty"`
	Rounds      []int      `json:"rounds"`
	Seed        uint64     `json:"seed"`
	Round       int        `json:"round"`
	Phase       string     `json:"phase"`
	Dealer      int        `json:"dealer"`
	Turn        int        `json:"turn"`
	Leader      int        `json:"leader"`
	Turned      string     `json:"turned"`
	Trump       string     `json:"trump"`
	Stock       string     `json:"stock"`
	Hands       []string   `json:"hands"`
	Bids        []int      `json:"bids"`
	Taken       []int      `json:"taken"`
	Trick       string     `json:"trick"`
	Played      string     `json:"played"`
	Last        string     `json:"last,omitempty"`
	LastLeader  int        `json:"last_leader"`
	LastWinner  int        `json:"last_winner"`
	History     [][][3]int `json:"history"` // per scored round, per seat: bid, taken, points
}

// MarshalBinary writes the state as JSON; equal states give equal bytes.
func (st *state) MarshalBinary() ([]byte, error) {
	n := int(st.n())
	w := wire{
		Version: wireVersion, Players: n, CannotMatch: st.set.cannotMatch, Hidden: st.set.hidden,
		Seed: st.seed, Round: int(st.ri), Phase: st.phase.String(),
		Dealer: int(st.dealer), Turn: int(st.turn), Leader: int(st.leader),
		Trump: st.trump.String(), Stock: st.stock.String(), Hands: make([]string, n),
		Bids: make([]int, n), Taken: make([]int, n), Trick: list(st.trick[:st.nTrick]),
		Played: st.played.String(), LastLeader: int(st.lastLeader), LastWinner: int(st.lastWinner),
	}
	if st.turned != cards.NoCard {
		w.Turned = st.turned.String()
	}
	for _, r := range st.set.rounds[:st.set.nRounds] {
		w.Rounds = append(w.Rounds, int(r))
	}
	for i := range n {
		w.Hands[i], w.Bids[i], w.Taken[i] = st.hands[i].String(), int(st.bids[i]), int(st.taken[i])
	}
	if st.lastWinner >= 0 {
		w.Last = list(st.last[:n])
	}
	for r := range st.scored() {
		row := make([][3]int, n)
		for i := range n {
			h := st.row(r)[i]
			row[i] = [3]int{int(h.bid), int(h.taken), RoundScore(int(h.bid), int(h.taken))}
		}
		w.History = append(w.History, row)
	}
	return json.Marshal(w)
}

func corrupt(format string, args ...any) error {
	return fmt.Errorf("wizard: %w: %s", games.ErrCorrupt, fmt.Sprintf(format, args...))
}

// unmarshal reads what MarshalBinary wrote and checks it is a state the engine can continue.
func unmarshal(b []byte) (*state, error) {
	var w wire
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, corrupt("%v", err)
	}
	if w.Version != wireVersion {
		return nil, corrupt("version %d", w.Version)
	}
	n := w.Players
	if n < 3 || n > 6 {
		return nil, corrupt("%d players", n)
	}
	st := &state{seed: w.Seed}
	st.set = settings{players: int8(n), cannotMatch: w.CannotMatch, hidden: w.Hidden}
	if len(w.Rounds) == 0 || len(w.Rounds) > Rounds(n) {
		return nil, corrupt("%d rounds", len(w.Rounds))
	}
	st.set.nRounds = int8(len(w.Rounds))
	for i, r := range w.Rounds {
		if r < 1 || r > Rounds(n) {
			return nil, corrupt("round of %d cards", r)
		}
		st.set.rounds[i] = int8(r)
	}
	if w.Round < 0 || w.Round >= len(w.Rounds) {
		return nil, corrupt("round index %d", w.Round)
	}
	st.ri = int8(w.Round)
	r := st.round()
	st.phase = numPhases
	for p := range numPhases {
		if p.String() == w.Phase {
			st.phase = p
		}
	}
	if st.phase == numPhases {
		return nil, corrupt("phase %q", w.Phase)
	}
	seat := func(v int, none bool) bool { return v >= 0 && v < n || none && v == -1 }
	if !seat(w.Dealer, false) || !seat(w.Turn, false) || !seat(w.Leader, false) ||
		!seat(w.LastLeader, true) || !seat(w.LastWinner, true) {
		return nil, corrupt("bad seat")
	}
	st.dealer, st.turn, st.leader = int8(w.Dealer), int8(w.Turn), int8(w.Leader)
	st.lastLeader, st.lastWinner = int8(w.LastLeader), int8(w.LastWinner)
	st.trump = cards.NoSuit
	if w.Trump != "none" {
		s, err := cards.ParseSuit(w.Trump)
		if err != nil || s.String() != w.Trump {
			return nil, corrupt("trump %q", w.Trump)
		}
		st.trump = s
	}
	if w.Turned != "" {
		c, err := cards.Parse(w.Turned)
		if err != nil || c.String() != w.Turned {
			return nil, corrupt("turned card %q", w.Turned)
		}
		st.turned = c
	}
	if len(w.Hands) != n || len(w.Bids) != n || len(w.Taken) != n {
		return nil, corrupt("seat lists of the wrong length")
	}
	var seen cards.Set
	count := 0
	zone := func(text string) (cards.Set, bool) {
		cs, err := parseList(text)
		s := cards.SetOf(cs...)
		ok := err == nil && s.Len() == len(cs) && s&^deckSet == 0 && s&seen == 0
		seen |= s
		count += len(cs)
		return s, ok
	}
	var ok bool
	for i := range n {
		if st.hands[i], ok = zone(w.Hands[i]); !ok {
			return nil, corrupt("hand %d", i)
		}
		if w.Bids[i] < -1 || w.Bids[i] > r || w.Taken[i] < 0 || w.Taken[i] > r {
			return nil, corrupt("bid or tricks of seat %d", i)
		}
		st.bids[i], st.taken[i] = int8(w.Bids[i]), int8(w.Taken[i])
	}
	trick, err := parseList(w.Trick)
	if err != nil || len(trick) >= n {
		return nil, corrupt("trick %q", w.Trick)
	}
	if _, ok = zone(w.Trick); !ok {
		return nil, corrupt("trick")
	}
	st.nTrick = int8(copy(st.trick[:], trick))
	if st.stock, ok = zone(w.Stock); !ok {
		return nil, corrupt("stock")
	}
	if st.played, ok = zone(w.Played); !ok {
		return nil, corrupt("played cards")
	}
	if st.turned != cards.NoCard {
		if _, ok = zone(w.Turned); !ok {
			return nil, corrupt("turned card")
		}
	}
	if seen != deckSet || count != 60 {
		return nil, corrupt("cards not conserved")
	}
	last, err := parseList(w.Last)
	if err != nil || (len(last) == n) != (st.lastWinner >= 0) || len(last) != 0 && len(last) != n {
		return nil, corrupt("last trick %q", w.Last)
	}
	copy(st.last[:], last)
	if len(w.History) != st.scored() {
		return nil, corrupt("%d scored rounds", len(w.History))
	}
	for ri, row := range w.History {
		if len(row) != n {
			return nil, corrupt("history row %d", ri)
		}
		r := int(st.set.rounds[ri])
		for i, h := range row {
			// Points are not stored: they are RoundScore's.
			if h[0] < 0 || h[0] > r || h[1] < 0 || h[1] > r || h[2] != RoundScore(h[0], h[1]) {
				return nil, corrupt("history row %d seat %d", ri, i)
			}
			st.row(ri)[i] = result{bid: int8(h[0]), taken: int8(h[1])}
		}
	}
	return st, nil
}

// list writes cards in notation, space separated.
func list(cs []cards.Card) string {
	b := make([]byte, 0, 4*len(cs))
	for i, c := range cs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, c.String()...)
	}
	return string(b)
}

// parseList reads what list wrote: canonical notation of Wizard-deck cards only.
func parseList(s string) ([]cards.Card, error) {
	cs, err := cards.ParseList(s)
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		if !deckSet.Has(c) {
			return nil, fmt.Errorf("%v is not a Wizard card", c)
		}
	}
	if list(cs) != s {
		return nil, fmt.Errorf("%q is not in canonical notation", s)
	}
	return cs, nil
}
