package wizard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// wireVersion is the version of the stored form; a change to wire that old states cannot be read
// with bumps it.
const wireVersion = 1

// wire is the serialized state: plain JSON with cards in notation, so a stored table is readable.
// Hands, stock and played cards are sets (canonical order); the tricks are in play order.
type wire struct {
	Version     int         `json:"v"`
	Players     int         `json:"players"`
	CannotMatch bool        `json:"bids_cannot_match,omitempty"`
	Hidden      bool        `json:"hidden_bids,omitempty"`
	Rounds      []int       `json:"rounds"`
	Seed        uint64      `json:"seed"`
	Round       int         `json:"round"`
	Phase       string      `json:"phase"`
	Dealer      int         `json:"dealer"`
	Turn        int         `json:"turn"`
	Leader      int         `json:"leader"`
	Turned      string      `json:"turned"`
	Trump       string      `json:"trump"`
	Stock       cards.Set   `json:"stock"`
	Hands       []cards.Set `json:"hands"`
	Bids        []int       `json:"bids"`
	Taken       []int       `json:"taken"`
	Trick       string      `json:"trick"`
	Played      cards.Set   `json:"played"`
	Voids       []string    `json:"voids,omitempty"` // per seat, the suits it did not follow ("CH"); only when one did
	Last        string      `json:"last,omitempty"`
	LastLeader  int         `json:"last_leader"`
	LastWinner  int         `json:"last_winner"`
	History     [][][3]int  `json:"history"` // per scored round, per seat: bid, taken, points
}

// MarshalBinary writes the state as JSON; equal states give equal bytes.
func (st *state) MarshalBinary() ([]byte, error) {
	n := int(st.n())
	w := wire{
		Version: wireVersion, Players: n, CannotMatch: st.set.cannotMatch, Hidden: st.set.hidden,
		Seed: st.seed, Round: int(st.ri), Phase: st.phase.String(),
		Dealer: int(st.dealer), Turn: int(st.turn), Leader: int(st.leader),
		Trump: st.trump.String(), Stock: st.stock, Hands: make([]cards.Set, n),
		Bids: make([]int, n), Taken: make([]int, n), Trick: list(st.trick[:st.nTrick]),
		Played: st.played, LastLeader: int(st.lastLeader), LastWinner: int(st.lastWinner),
	}
	if st.turned != cards.NoCard {
		w.Turned = st.turned.String()
	}
	for _, r := range st.set.rounds[:st.set.nRounds] {
		w.Rounds = append(w.Rounds, int(r))
	}
	for i := range n {
		w.Hands[i], w.Bids[i], w.Taken[i] = st.hands[i], int(st.bids[i]), int(st.taken[i])
	}
	if st.lastWinner >= 0 {
		w.Last = list(st.last[:n])
	}
	if st.voids != ([maxSeats]cards.Set{}) {
		w.Voids = make([]string, n)
		for i := range n {
			for _, su := range cards.Suits {
				if !st.voids[i].Suit(su).Empty() {
					w.Voids[i] += su.Letter()
				}
			}
		}
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

// corrupt is the error of a refused encoding.
func corrupt(format string, args ...any) error {
	return fmt.Errorf("wizard: %w: %s", games.ErrCorrupt, fmt.Sprintf(format, args...))
}

// corruptBy is the error of an encoding refused because of err, which it wraps too.
func corruptBy(what string, err error) error {
	return fmt.Errorf("wizard: %w: %s: %w", games.ErrCorrupt, what, err)
}

// unmarshal reads what MarshalBinary wrote, and only that: unknown fields, trailing data and any
// other spelling of a state are refused, and so is a state the engine could not have reached
// (cards missing or in two places, zones of the wrong size, turns, bids, tricks and scores that do
// not fit together), which the engine could not continue safely.
func unmarshal(b []byte) (*state, error) {
	var w wire
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return nil, corruptBy("decode", err)
	}
	if dec.InputOffset() != int64(len(b)) {
		return nil, corrupt("data after the state")
	}
	st, err := w.state()
	if err != nil {
		return nil, err
	}
	// What is left of another spelling (keys in another case or order, a key twice, escapes,
	// explicit defaults) shows as bytes MarshalBinary would not write.
	out, err := st.MarshalBinary()
	if err != nil {
		return nil, corruptBy("encode", err)
	}
	if !bytes.Equal(out, b) {
		return nil, corrupt("not the canonical encoding of its state")
	}
	return st, nil
}

// state checks w field by field and builds the state it describes.
func (w *wire) state() (*state, error) {
	if w.Version != wireVersion {
		return nil, corrupt("version %d", w.Version)
	}
	st := &state{seed: w.Seed}
	if err := w.settings(&st.set); err != nil {
		return nil, err
	}
	n := int(st.n())
	if w.Round < 0 || w.Round >= len(w.Rounds) {
		return nil, corrupt("round index %d of %d rounds", w.Round, len(w.Rounds))
	}
	st.ri = int8(w.Round)
	st.phase = numPhases
	for p := range numPhases {
		if p.String() == w.Phase {
			st.phase = p
		}
	}
	if st.phase == numPhases {
		return nil, corrupt("phase %q", w.Phase)
	}
	if st.phase == phaseOver && int(st.ri) != len(w.Rounds)-1 {
		return nil, corrupt("over in round %d of %d", w.Round+1, len(w.Rounds))
	}
	seat := func(v int, none bool) bool { return v >= 0 && v < n || none && v == -1 }
	if !seat(w.Dealer, false) || !seat(w.Turn, false) || !seat(w.Leader, false) ||
		!seat(w.LastLeader, true) || !seat(w.LastWinner, true) {
		return nil, corrupt("a seat out of range")
	}
	st.dealer, st.turn, st.leader = int8(w.Dealer), int8(w.Turn), int8(w.Leader)
	st.lastLeader, st.lastWinner = int8(w.LastLeader), int8(w.LastWinner)
	// wizard.md §2: the first dealer is drawn from the seed, and the deal passes left each round.
	if want := (int(firstDealer(st.n(), st.seed)) + int(st.ri)) % n; w.Dealer != want {
		return nil, corrupt("dealer %d in round %d, want %d", w.Dealer, w.Round+1, want)
	}
	if err := w.trump(st); err != nil {
		return nil, err
	}
	if err := w.cards(st); err != nil {
		return nil, err
	}
	if err := w.bids(st); err != nil {
		return nil, err
	}
	if err := w.tricks(st); err != nil {
		return nil, err
	}
	if err := w.voids(st); err != nil {
		return nil, err
	}
	if err := w.history(st); err != nil {
		return nil, err
	}
	return st, nil
}

// settings reads the table's variants: a player count, a combination of options and a list of
// rounds that New accepts.
func (w *wire) settings(set *settings) error {
	n := w.Players
	if n < 3 || n > maxSeats {
		return corrupt("%d players", n)
	}
	if w.CannotMatch && w.Hidden {
		return corrupt("%s and %s together", OptCannotMatch, OptHiddenBids)
	}
	*set = settings{players: int8(n), cannotMatch: w.CannotMatch, hidden: w.Hidden}
	for _, o := range (rules{}).Options() {
		if o.Key != OptShortGame {
			continue
		}
		for _, v := range o.Values {
			if list := roundList(n, v); slices.Equal(list, w.Rounds) {
				set.nRounds = int8(len(list))
				for i, r := range list {
					set.rounds[i] = int8(r)
				}
				return nil
			}
		}
	}
	return corrupt("rounds %v of no %s for %d players", w.Rounds, OptShortGame, n)
}

// trump reads the turned card and the trump suit, which must agree (wizard.md §3.2): a suited
// card is trump, a Jester or no card (§3.3) is none, and after a Wizard the dealer names one.
func (w *wire) trump(st *state) error {
	if w.Turned != "" {
		if err := st.turned.UnmarshalText([]byte(w.Turned)); err != nil || !deckSet.Has(st.turned) {
			return corrupt("turned card %q", w.Turned)
		}
	}
	if (st.turned != cards.NoCard) != HasTrumpCard(int(st.n()), st.round()) {
		return corrupt("turned card %q in a round of %d cards", w.Turned, st.round())
	}
	st.trump = cards.NoSuit
	if w.Trump != cards.NoSuit.String() {
		s, err := cards.ParseSuit(w.Trump)
		if err != nil || s.String() != w.Trump {
			return corrupt("trump %q", w.Trump)
		}
		st.trump = s
	}
	var ok bool
	switch {
	case st.turned.IsFrench():
		ok = st.trump == st.turned.Suit() && st.phase != phaseTrump
	case st.turned.IsWizard():
		ok = (st.trump == cards.NoSuit) == (st.phase == phaseTrump)
	default:
		ok = st.trump == cards.NoSuit && st.phase != phaseTrump
	}
	if !ok {
		return corrupt("trump %q in phase %v with %q turned", w.Trump, st.phase, w.Turned)
	}
	return nil
}

// cards reads the hands, the stock, the trick and the played cards: together with the turned
// card they hold every card of the deck once.
func (w *wire) cards(st *state) error {
	n := int(st.n())
	if len(w.Hands) != n || len(w.Bids) != n || len(w.Taken) != n {
		return corrupt("%d hands, %d bids and %d tricks taken for %d players", len(w.Hands), len(w.Bids), len(w.Taken), n)
	}
	trick, err := parseList(w.Trick, n-1)
	if err != nil {
		return corruptBy("trick", err)
	}
	st.nTrick = int8(copy(st.trick[:], trick))
	copy(st.hands[:], w.Hands)
	st.stock, st.played = w.Stock, w.Played
	zones := append(slices.Clone(w.Hands), st.stock, cards.SetOf(st.turned), cards.SetOf(trick...), st.played)
	var all cards.Set
	for _, z := range zones {
		if both := all & z; both != 0 {
			return corrupt("%v in two places", both)
		}
		all |= z
	}
	if all != deckSet {
		return corrupt("cards missing (%v) or not of the deck (%v)", deckSet&^all, all&^deckSet)
	}
	return nil
}

// bids reads the bids and the tricks taken: each within the round, and bid as wizard.md §4 and
// §10 order it by the phase: none while trump is named, the seats from the dealer's left up to
// the one to bid (or any of them with hidden_bids) during the bidding, everybody's once the play
// starts.
func (w *wire) bids(st *state) error {
	n, r := st.n(), st.round()
	sum, tricks := 0, 0
	for i := range n {
		b, t := w.Bids[i], w.Taken[i]
		if b < -1 || b > r || t < 0 || t > r {
			return corrupt("seat %d bid %d and took %d tricks of %d", i, b, t, r)
		}
		st.bids[i], st.taken[i] = int8(b), int8(t)
		sum, tricks = sum+max(b, 0), tricks+t
	}
	for i := n; i < maxSeats; i++ {
		st.bids[i] = -1
	}
	if tricks > 0 && st.phase != phasePlay && st.phase != phaseOver {
		return corrupt("%d tricks taken before the play", tricks)
	}
	first := st.next(st.dealer)
	var ok bool
	switch st.phase {
	case phaseTrump:
		ok = st.turn == st.dealer && !slices.ContainsFunc(st.bids[:n], func(b int8) bool { return b >= 0 })
	case phaseBid:
		if st.set.hidden {
			ok = st.turn == first && slices.Contains(st.bids[:n], -1)
			break
		}
		// Seat first+j has bid exactly when it comes before the seat to bid.
		ok = true
		to := (st.turn - first + n) % n
		for j := range n {
			ok = ok && (st.bids[(first+j)%n] >= 0) == (j < to)
		}
	default:
		// wizard.md §10: the dealer may not make the bids total the cards of the round.
		ok = !slices.Contains(st.bids[:n], -1) && !(st.set.cannotMatch && sum == r)
	}
	if !ok {
		return corrupt("bids %v in phase %v with seat %d to act", w.Bids, st.phase, st.turn)
	}
	return nil
}

// tricks checks the trick play so far (wizard.md §5–6): every hand has lost a card per completed
// trick and one more for a card on the current trick, the played cards are the completed
// tricks, the last of which its winner took and leads after, and the seat to play follows the
// trick's leader.
func (w *wire) tricks(st *state) error {
	n, r := int(st.n()), st.round()
	done := 0
	for _, t := range st.taken[:n] {
		done += int(t)
	}
	first := st.next(st.dealer)
	switch st.phase {
	case phaseTrump, phaseBid:
		if st.leader != first || st.nTrick != 0 {
			return corrupt("leader %d and a trick of %d cards before the play", st.leader, st.nTrick)
		}
	case phasePlay:
		if done >= r || st.turn != (st.leader+st.nTrick)%st.n() {
			return corrupt("%d of %d tricks done, seat %d to play after %d cards led by %d",
				done, r, st.turn, st.nTrick, st.leader)
		}
	case phaseOver:
		if done != r || st.nTrick != 0 || st.turn != st.leader || st.leader != st.lastWinner {
			return corrupt("over after %d of %d tricks", done, r)
		}
	}
	for i := range n {
		want := r - done
		if (i-int(st.leader)+n)%n < int(st.nTrick) {
			want-- // on the current trick already
		}
		if got := st.hands[i].Len(); got != want {
			return corrupt("seat %d holds %d cards, want %d", i, got, want)
		}
	}
	if st.played.Len() != n*done {
		return corrupt("%d cards played in %d tricks", st.played.Len(), done)
	}
	last, err := parseList(w.Last, n)
	if err != nil {
		return corruptBy("last trick", err)
	}
	if done == 0 {
		if len(last) != 0 || st.lastLeader != -1 || st.lastWinner != -1 {
			return corrupt("a last trick before the first one was taken")
		}
		if st.leader != first {
			return corrupt("seat %d leads the first trick, want %d", st.leader, first)
		}
		return nil
	}
	copy(st.last[:], last)
	ok := len(last) == n && st.lastLeader >= 0 && st.lastWinner >= 0 &&
		st.played&cards.SetOf(last...) == cards.SetOf(last...) &&
		int(st.lastWinner) == (int(st.lastLeader)+TrickWinner(last, st.trump))%n &&
		st.taken[st.lastWinner] > 0 && st.leader == st.lastWinner &&
		(done > 1 || st.lastLeader == first)
	if !ok {
		return corrupt("last trick %q led by %d won by %d", w.Last, st.lastLeader, st.lastWinner)
	}
	return nil
}

// voids reads the suits each seat did not follow (wizard.md §5): only during the play, and
// never a suit the seat still holds or of which no card was played this round. Their order and
// spelling are left to the canonical check of unmarshal.
func (w *wire) voids(st *state) error {
	if w.Voids == nil {
		return nil
	}
	if st.phase != phasePlay || len(w.Voids) != int(st.n()) {
		return corrupt("voids %q in phase %v for %d players", w.Voids, st.phase, st.n())
	}
	seen := st.played | cards.SetOf(st.trick[:st.nTrick]...)
	for i, letters := range w.Voids {
		for _, l := range letters {
			su, err := cards.ParseSuit(string(l))
			if err != nil || su.Letter() != string(l) {
				return corrupt("seat %d void in %q", i, l)
			}
			void := deckSet.Suit(su)
			if !st.hands[i].Intersect(void).Empty() || seen.Intersect(void).Empty() {
				return corrupt("seat %d void in %v, holding %v after %v played", i, su, st.hands[i], seen)
			}
			st.voids[i] |= void
		}
	}
	return nil
}

// history reads the scored rounds: every trick of each was taken, and its points are those of
// RoundScore; once the match is over, the last row is the last round's bids and tricks.
func (w *wire) history(st *state) error {
	n := int(st.n())
	if len(w.History) != st.scored() {
		return corrupt("%d scored rounds, want %d", len(w.History), st.scored())
	}
	for ri, row := range w.History {
		r := int(st.set.rounds[ri])
		if len(row) != n {
			return corrupt("round %d scored for %d seats", ri+1, len(row))
		}
		bids, tricks := 0, 0
		for i, h := range row {
			bid, taken, points := h[0], h[1], h[2]
			if bid < 0 || bid > r || taken < 0 || taken > r || points != RoundScore(bid, taken) {
				return corrupt("round %d seat %d: bid %d, took %d, scored %d", ri+1, i, bid, taken, points)
			}
			st.row(ri)[i] = result{bid: int8(bid), taken: int8(taken)}
			bids, tricks = bids+bid, tricks+taken
		}
		if tricks != r || st.set.cannotMatch && bids == r {
			return corrupt("round %d of %d cards: bids %d, tricks %d", ri+1, r, bids, tricks)
		}
	}
	if st.phase == phaseOver {
		for i := range n {
			if h := st.row(int(st.ri))[i]; h.bid != st.bids[i] || h.taken != st.taken[i] {
				return corrupt("the last round scored otherwise than played")
			}
		}
	}
	return nil
}

// list writes cards in notation, space separated, in their order.
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

// parseList reads what list wrote, at most max distinct cards of the Wizard deck in canonical
// notation.
func parseList(s string, max int) ([]cards.Card, error) {
	if s == "" {
		return nil, nil
	}
	var out []cards.Card
	var seen cards.Set
	for tok := range strings.SplitSeq(s, " ") {
		var c cards.Card
		if err := c.UnmarshalText([]byte(tok)); err != nil {
			return nil, err
		}
		if !deckSet.Has(c) || seen.Has(c) {
			return nil, fmt.Errorf("%v twice or not a Wizard card", c)
		}
		seen = seen.Add(c)
		out = append(out, c)
	}
	if len(out) > max {
		return nil, fmt.Errorf("%d cards, at most %d", len(out), max)
	}
	return out, nil
}
