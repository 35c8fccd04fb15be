package joker

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// wireVersion is the version of the encoding below; a change to it is a new version, and
// Unmarshal refuses every version but its own.
const wireVersion = 1

// wire is the encoded state: JSON with cards in notation, every field always present but voids, so
// a stored table reads well and has exactly one encoding. Voids, the suits each seat has shown it
// lacks this deal (letters in canonical order, "" for none), is left out while no seat has shown
// one, so every state without a void (and a table stored before voids were kept) reads as it was
// written. What follows from the rest is left out: the deal
// in progress (one more than the deals scored), the dealer, the turn-up and the cards collected
// (all three dealt by the seed), the undealt stock, the seat to act, each deal's points, the party
// wins and second places, and the winners.
type wire struct {
	V         int         `json:"v"`
	Players   int         `json:"players"`
	Match     bool        `json:"match"`
	LeftLeads bool        `json:"left_leads"`
	Seed      uint64      `json:"seed,string"` // a string: exact in every JSON reader
	Parties   []wireParty `json:"parties"`     // the finished parties of the match
	Extra     bool        `json:"extra"`
	In        []bool      `json:"in"`
	Deals     []wireDeal  `json:"deals"` // the scored deals of the party in progress
	Phase     string      `json:"phase"`
	Hands     []cards.Set `json:"hands"`
	Bids      []int       `json:"bids"`
	Taken     []int       `json:"taken"`
	Leads     []int       `json:"leads"`
	Trick     []wirePlay  `json:"trick"`
	Last      []wirePlay  `json:"last"` // the last trick while it is shown
	Voids     []string    `json:"voids,omitempty"`
}

type wireParty struct {
	Extra  bool   `json:"extra"`
	In     []bool `json:"in"`
	Totals []int  `json:"totals"`
}

type wireDeal struct {
	Bids   []int `json:"bids"`
	Tricks []int `json:"tricks"`
	Leads  []int `json:"leads"`
}

type wirePlay struct {
	Seat games.Seat `json:"seat"`
	Card cards.Card `json:"card"`
	Call string     `json:"call,omitempty"` // "high" or "low" for a joker
}

var callNames = [...]string{NoCall: "", High: "high", Low: "low"}

// MarshalBinary writes the state as JSON; equal states give equal bytes.
func (st *state) MarshalBinary() ([]byte, error) {
	n := st.n
	w := wire{
		V: wireVersion, Players: n, Match: st.match, LeftLeads: st.leftLeads, Seed: st.seed,
		Parties: make([]wireParty, len(st.parties)), Extra: st.extra, In: slices.Clone(st.in[:n]),
		Deals: make([]wireDeal, len(st.deals)), Phase: st.phase.String(), Hands: slices.Clone(st.hands[:n]),
		Bids: slices.Clone(st.bids[:n]), Taken: slices.Clone(st.taken[:n]), Leads: slices.Clone(st.leads[:n]),
		Trick: wirePlays(&st.trick), Last: wirePlays(&st.last),
	}
	if st.voids != [maxSeats]suits{} {
		w.Voids = make([]string, n)
		for s := range w.Voids {
			w.Voids[s] = st.voids[s].String()
		}
	}
	for i, p := range st.parties {
		w.Parties[i] = wireParty{Extra: p.extra, In: slices.Clone(p.in[:n]), Totals: slices.Clone(p.totals[:n])}
	}
	for i, r := range st.deals {
		w.Deals[i] = wireDeal{Bids: slices.Clone(r.bids[:n]), Tricks: slices.Clone(r.tricks[:n]),
			Leads: slices.Clone(r.leads[:n])}
	}
	return json.Marshal(w)
}

func wirePlays(t *trick) []wirePlay {
	out := make([]wirePlay, t.n)
	for i := range t.n {
		out[i] = wirePlay{Seat: t.seats[i], Card: t.cards[i], Call: callNames[t.calls[i]]}
	}
	return out
}

// unmarshal reads what MarshalBinary wrote and nothing else: unknown fields, lists of the wrong
// length, cards duplicated or missing, a state no sequence of actions reaches, and any encoding
// but the canonical one (spacing, field order, trailing data) are errors.
func unmarshal(b []byte) (*state, error) {
	var w wire
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return nil, err
	}
	st, err := w.state()
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

// state checks w and builds the state it encodes.
func (w *wire) state() (*state, error) {
	if w.V != wireVersion {
		return nil, fmt.Errorf("encoding version %d, want %d", w.V, wireVersion)
	}
	n := w.Players
	if n < 2 || n > maxSeats {
		return nil, fmt.Errorf("%d players", n)
	}
	st := &state{n: n, match: w.Match, leftLeads: w.LeftLeads, seed: w.Seed, extra: w.Extra}
	ph := slices.Index(phaseNames[:], w.Phase)
	if ph < 0 {
		return nil, fmt.Errorf("phase %q", w.Phase)
	}
	st.phase = phase(ph)
	var err error
	if st.in, err = seatsOf(w.In, n); err != nil {
		return nil, fmt.Errorf("seats in the party: %w", err)
	}
	if err := st.setParties(w.Parties); err != nil {
		return nil, err
	}
	if err := st.setDeals(w.Deals); err != nil {
		return nil, err
	}
	if len(w.Hands) != n || len(w.Bids) != n || len(w.Taken) != n || len(w.Leads) != n {
		return nil, errors.New("per-seat lists of the wrong length")
	}
	var row dealRow
	copy(row.bids[:], w.Bids)
	copy(row.tricks[:], w.Taken)
	copy(row.leads[:], w.Leads)
	h := HandSize(st.dealNo())
	if err := st.checkRow(&row, h, st.phase != phaseBid, st.phase == phaseOver); err != nil {
		return nil, fmt.Errorf("deal in progress: %w", err)
	}
	st.bids, st.taken, st.leads = row.bids, row.tricks, row.leads
	if st.trick, err = st.trickOf(w.Trick); err != nil {
		return nil, fmt.Errorf("trick: %w", err)
	}
	if st.last, err = st.trickOf(w.Last); err != nil {
		return nil, fmt.Errorf("last trick: %w", err)
	}
	copy(st.hands[:], w.Hands)
	st.dealer = st.firstDealer()
	for range st.dealNo() - 1 {
		st.dealer = st.next(st.dealer) // joker.md "Dealer and deal": the deal passes clockwise
	}
	if err := st.setCards(h); err != nil {
		return nil, err
	}
	if err := st.setTurn(h); err != nil {
		return nil, err
	}
	if err := st.setVoids(w.Voids); err != nil {
		return nil, fmt.Errorf("voids: %w", err)
	}
	return st, nil
}

// setVoids reads the suits each seat has shown it lacks: none while bidding (a deal starts without
// any) or for a seat not in the party, and never a suit the seat still holds. A void shown by a
// card on the table (voidOf) may be missing: tables stored before voids were kept have none.
func (st *state) setVoids(ws []string) error {
	if ws == nil {
		return nil
	}
	if len(ws) != st.n {
		return fmt.Errorf("%d lists for %d seats", len(ws), st.n)
	}
	for s, text := range ws {
		var v suits
		for _, su := range cards.Suits {
			if strings.HasPrefix(text, su.Letter()) {
				v, text = v.add(su), text[1:]
			}
		}
		switch {
		case text != "":
			return fmt.Errorf("seat %d: %q is not suit letters in canonical order", s, ws[s])
		case v != 0 && (st.phase == phaseBid || !st.in[s]):
			return fmt.Errorf("seat %d shows voids %v while it has played nothing this deal", s, v)
		case !st.hands[s].Intersect(v.cards()).Empty():
			return fmt.Errorf("seat %d shows voids %v and holds %v", s, v, st.hands[s].Intersect(v.cards()))
		}
		st.voids[s] = v
	}
	if st.voids == [maxSeats]suits{} {
		return errors.New("a list of no voids")
	}
	return nil
}

// seatsOf reads a per-seat list of flags: n of them, at least two set (a party has 2+ players).
func seatsOf(in []bool, n int) ([maxSeats]bool, error) {
	var out [maxSeats]bool
	if len(in) != n {
		return out, fmt.Errorf("%d flags for %d seats", len(in), n)
	}
	copy(out[:], in)
	if len(seatList(in)) < 2 {
		return out, errors.New("fewer than two players")
	}
	return out, nil
}

// setParties checks that the finished parties follow each other as the match rules decide
// (J-MATCH) and that the party in progress (the last one, once over) is the one they decide.
func (st *state) setParties(ws []wireParty) error {
	m := newStandings(st.n)
	for i, wp := range ws {
		if m.over {
			return fmt.Errorf("party %d after the end of the match", i+1)
		}
		p := party{extra: wp.Extra}
		var err error
		if p.in, err = seatsOf(wp.In, st.n); err != nil {
			return fmt.Errorf("party %d: %w", i+1, err)
		}
		if len(wp.Totals) != st.n {
			return fmt.Errorf("party %d: %d totals for %d seats", i+1, len(wp.Totals), st.n)
		}
		copy(p.totals[:], wp.Totals)
		for s := range st.n {
			if !p.in[s] && p.totals[s] != 0 {
				return fmt.Errorf("party %d: a total for seat %d, which did not play", i+1, s)
			}
		}
		if p.extra != m.extra || p.in != m.in {
			return fmt.Errorf("party %d is not the party that follows the ones before", i+1)
		}
		m.add(p, st.n, st.match)
		st.parties = append(st.parties, p)
	}
	if (st.phase == phaseOver) != m.over {
		return fmt.Errorf("phase %v after %d parties", st.phase, len(ws))
	}
	next := party{extra: m.extra, in: m.in}
	if m.over {
		next = st.parties[len(st.parties)-1]
	}
	if st.extra != next.extra || st.in != next.in {
		return errors.New("the party in progress is not the one that follows")
	}
	return nil
}

// setDeals reads the scored deals: fewer than 13 while the party runs, all 13 once the match is
// over, whose totals are then the last party's.
func (st *state) setDeals(ws []wireDeal) error {
	over := st.phase == phaseOver
	if over && len(ws) != Deals || !over && len(ws) >= Deals {
		return fmt.Errorf("%d scored deals in phase %v", len(ws), st.phase)
	}
	for i, wd := range ws {
		if len(wd.Bids) != st.n || len(wd.Tricks) != st.n || len(wd.Leads) != st.n {
			return fmt.Errorf("deal %d: per-seat lists of the wrong length", i+1)
		}
		var r dealRow
		copy(r.bids[:], wd.Bids)
		copy(r.tricks[:], wd.Tricks)
		copy(r.leads[:], wd.Leads)
		if err := st.checkRow(&r, HandSize(i+1), true, true); err != nil {
			return fmt.Errorf("deal %d: %w", i+1, err)
		}
		st.deals = append(st.deals, r)
	}
	if over && st.totals() != st.parties[len(st.parties)-1].totals {
		return errors.New("the deals do not add up to the last party's totals")
	}
	return nil
}

// checkRow checks the bids, tricks and leads of a deal of hand size h, bidden once every player
// has bid and done once every trick is taken: seats outside the party have none; a bid is 0..h,
// and all of them never add up to h (J-HOOK); a deal has h tricks, and two jokers, so at most two
// penalised joker leads (J-LEADPEN).
func (st *state) checkRow(r *dealRow, h int, bidden, done bool) error {
	bids, tricks, leads := 0, 0, 0
	for s := range st.n {
		b, t, l := r.bids[s], r.tricks[s], r.leads[s]
		switch {
		case !st.in[s] && (b != -1 || t != 0 || l != 0):
			return fmt.Errorf("seat %d, not in the party, has a bid, tricks or leads", s)
		case !st.in[s]:
			continue
		case b < -1 || b > h || t < 0 || t > h || l < 0:
			return fmt.Errorf("seat %d: bid %d, %d tricks, %d leads with %d cards", s, b, t, l, h)
		case bidden && b < 0:
			return fmt.Errorf("seat %d has not bid", s)
		}
		bids, tricks, leads = bids+max(b, 0), tricks+t, leads+l
	}
	if leads > 2 || tricks > h || bidden && bids == h || done && tricks != h {
		return fmt.Errorf("bids adding up to %d, %d tricks and %d penalised leads with %d cards", bids, tricks, leads, h)
	}
	return nil
}

// trickOf reads the plays of a trick: players of the party in turn, cards of the Pack, jokers
// with their value (the second one opposite to the first, J-TWOJOKERS), no card twice.
func (st *state) trickOf(ps []wirePlay) (trick, error) {
	var t trick
	if len(ps) > st.players() {
		return t, fmt.Errorf("%d cards", len(ps))
	}
	for i, p := range ps {
		v := slices.Index(callNames[:], p.Call)
		call := Call(v)
		switch {
		case v < 0:
			return t, fmt.Errorf("call %q", p.Call)
		case !st.valid(p.Seat) || !st.in[p.Seat] || i > 0 && p.Seat != st.next(t.seats[i-1]):
			return t, fmt.Errorf("card %d played by seat %d", i+1, p.Seat)
		case !packSet.Has(p.Card) || t.set().Has(p.Card):
			return t, fmt.Errorf("card %v", p.Card)
		case p.Card.IsJoker() != (call == High || call == Low):
			return t, fmt.Errorf("%v called %q", p.Card, p.Call)
		case p.Card.IsJoker() && t.hasJoker() && call == t.firstCall():
			return t, errors.New("two jokers of the same value")
		}
		t.add(p.Seat, p.Card, call)
	}
	return t, nil
}

// setCards deals the deal in progress from the seed and checks that every card is where the
// deal and its progress can have put it: a hand holds its own cards less those it played, each
// card played was its player's, and the rest of what was dealt lies in the collected tricks.
func (st *state) setCards(h int) error {
	dealt, turnUp := st.dealt()
	st.turnUp = turnUp
	var all cards.Set
	for s := range games.Seat(st.n) {
		all = all.Union(dealt[s])
		if !st.hands[s].Minus(dealt[s]).Empty() {
			return fmt.Errorf("seat %d holds %v, which it was not dealt", s, st.hands[s].Minus(dealt[s]))
		}
	}
	for _, t := range []*trick{&st.trick, &st.last} {
		for i := range t.n {
			if s, c := t.seats[i], t.cards[i]; !dealt[s].Has(c) || st.hands[s].Has(c) {
				return fmt.Errorf("seat %d played %v, which it was not dealt or still holds", s, c)
			}
		}
	}
	st.won = all
	for s := range st.n {
		st.won = st.won.Minus(st.hands[s])
		// J-LEADPEN: a penalised lead is a joker of the seat's led, so played.
		if played := dealt[s].Minus(st.hands[s]).Intersect(jokers).Len(); st.leads[s] > played {
			return fmt.Errorf("seat %d penalised for %d joker leads, having played %d jokers", s, st.leads[s], played)
		}
	}
	st.won = st.won.Minus(st.trick.set())
	c, k := st.collected(), st.players()
	if st.won.Len() != c*k || !st.last.set().Minus(st.won).Empty() {
		return fmt.Errorf("%v collected in %d tricks", st.won, c)
	}
	for s := range games.Seat(st.n) {
		want := 0
		if st.in[s] {
			want = h - c
			if slices.Contains(st.trick.seats[:st.trick.n], s) {
				want--
			}
		}
		if st.hands[s].Len() != want {
			return fmt.Errorf("seat %d holds %d cards, not %d", s, st.hands[s].Len(), want)
		}
	}
	shown := st.phase != phaseBid && st.trick.n == 0 && c > 0
	switch {
	case st.trick.n == k:
		return errors.New("a complete trick not collected")
	case st.last.n != 0 && st.last.n != k, shown != (st.last.n == k):
		return fmt.Errorf("a last trick of %d cards after %d tricks", st.last.n, c)
	case st.trick.n > 0 && c == 0 && st.trick.seats[0] != st.firstLeader(),
		st.last.n > 0 && c == 1 && st.last.seats[0] != st.firstLeader():
		return errors.New("the first trick not led by the first leader")
	case st.last.n > 0 && st.taken[st.last.winner(st.trump())] == 0:
		return errors.New("the last trick's winner took no trick")
	}
	return nil
}

// setTurn finds the seat to act and checks the progress of the deal: bids made in turn from the
// dealer's left, a play phase from the dealer's bid on, a match over after its last trick.
func (st *state) setTurn(h int) error {
	c := st.collected()
	switch st.phase {
	case phaseBid:
		if st.trick.n > 0 {
			return errors.New("a trick while bidding")
		}
		st.turn = games.Nobody
		for s := st.next(st.dealer); ; s = st.next(s) {
			switch {
			case st.turn == games.Nobody && st.bids[s] < 0:
				st.turn = s
			case st.turn != games.Nobody && st.bids[s] >= 0:
				return fmt.Errorf("seat %d bid out of turn", s)
			}
			if s == st.dealer {
				break
			}
		}
		if st.turn == games.Nobody {
			return errors.New("every bid made while bidding")
		}
	case phasePlay:
		if c == h {
			return errors.New("every trick taken while playing")
		}
		switch {
		case st.trick.n > 0:
			st.turn = st.next(st.trick.seats[st.trick.n-1])
		case st.last.n > 0:
			st.turn = st.last.winner(st.trump())
		default:
			st.turn = st.firstLeader()
		}
	case phaseOver:
		if row := (dealRow{bids: st.bids, tricks: st.taken, leads: st.leads}); row != st.deals[len(st.deals)-1] {
			return errors.New("the last deal scored is not the deal on the table")
		}
		if st.last.n == 0 {
			return errors.New("the match over without its last trick")
		}
		st.turn = st.last.winner(st.trump()) // who took the last trick, as Apply leaves it
	}
	return nil
}
