package skat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// formatVersion is written into every marshalled state so a future layout can be told apart.
const formatVersion = 1

// wireState is the stored form of a state (format 1): JSON whose per-seat lists have one entry
// per player and whose tricks and trick are as long as they are played.
type wireState struct {
	V        int          `json:"v"`
	Cfg      settings     `json:"cfg"`
	Seed     uint64       `json:"seed"`
	Deal     int          `json:"deal"`
	Dealer   games.Seat   `json:"dealer"`
	Phase    phase        `json:"phase"`
	Hands    []cards.Set  `json:"hands"`
	Skat     cards.Set    `json:"skat"`
	Skat0    cards.Set    `json:"skat0"`
	Auction  Auction      `json:"auction"`
	Calls    []wireCall   `json:"calls"`
	Declarer games.Seat   `json:"declarer"`
	Bid      int          `json:"bid"`
	Contract Contract     `json:"contract"`
	Taken    bool         `json:"taken"`
	Leader   games.Seat   `json:"leader"`
	Trick    []cards.Card `json:"trick"`
	History  []wireTrick  `json:"history"`
	Won      []cards.Set  `json:"won"`
	Rows     []wireRow    `json:"rows"`
	Totals   []int        `json:"totals"`
}

// wireCall is a Call as stored.
type wireCall struct {
	Seat games.Seat `json:"s"`
	Kind string     `json:"k"`
	N    int        `json:"n,omitempty"`
}

// wireTrick is a finished trick as stored: its three cards, from the leader.
type wireTrick struct {
	Leader games.Seat   `json:"l"`
	Cards  []cards.Card `json:"c"`
	Winner games.Seat   `json:"w"`
}

// wireRow is a row of the score sheet as stored.
type wireRow struct {
	Deal     int        `json:"n"`
	Dealer   games.Seat `json:"d"`
	Kind     string     `json:"k"`
	Declarer games.Seat `json:"s"`
	Bid      int        `json:"b,omitempty"`
	Contract Contract   `json:"c"`
	Held     cards.Set  `json:"h,omitempty"`
	Points   []int      `json:"p"` // nil when thrown in, two in a game, one per seat in Ramsch
	Tricks   int        `json:"t,omitempty"`
	Skat     cards.Set  `json:"sk,omitempty"`
	Scores   []int      `json:"x"`
}

// MarshalBinary writes the state as JSON: deterministic, and readable in a dump.
func (st *state) MarshalBinary() ([]byte, error) { return json.Marshal(st.wire()) }

// wire is the stored form of st. Its lists share st's arrays: it is for encoding only.
func (st *state) wire() wireState {
	n := st.players()
	w := wireState{V: formatVersion, Cfg: st.Cfg, Seed: st.Seed, Deal: st.Deal, Dealer: st.Dealer,
		Phase: st.Phase, Hands: st.Hands[:n], Skat: st.Skat, Skat0: st.Skat0, Auction: st.Auction,
		Declarer: st.Declarer, Bid: st.Bid, Contract: st.Contract, Taken: st.Taken,
		Leader: st.Leader, Trick: st.trickCards(), Won: st.Won[:n], Totals: st.Totals[:n]}
	for _, c := range st.Calls {
		w.Calls = append(w.Calls, wireCall(c))
	}
	for _, t := range st.tricks() {
		w.History = append(w.History, wireTrick{Leader: t.Leader, Cards: t.Cards[:], Winner: t.Winner})
	}
	for _, r := range st.Rows {
		wr := wireRow{Deal: r.Deal, Dealer: r.Dealer, Kind: r.Kind, Declarer: r.Declarer, Bid: r.Bid,
			Contract: r.Contract, Held: r.Held, Tricks: r.Tricks, Skat: r.Skat, Scores: r.Scores[:n]}
		switch r.Kind {
		case rowGame:
			wr.Points = r.Points[:2]
		case rowRamsch:
			wr.Points = r.Points[:n]
		}
		w.Rows = append(w.Rows, wr)
	}
	return w
}

// decode reads a state written by MarshalBinary, and nothing else: the JSON must be exactly what
// MarshalBinary writes for the state it describes (so unknown, misspelt or repeated fields,
// another spacing or order and trailing data are refused), every list must have its length, and
// the state must be one the rules can reach (see check).
func decode(b []byte) (*state, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var w wireState
	if err := dec.Decode(&w); err != nil {
		return nil, err
	}
	if dec.InputOffset() != int64(len(b)) {
		return nil, errors.New("trailing data")
	}
	st, err := w.restore()
	if err != nil {
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	again, err := st.MarshalBinary()
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(again, b) {
		return nil, errors.New("not the canonical encoding of the state it describes")
	}
	return st, nil
}

// restore converts the stored form to a state, checking every list's length.
func (w *wireState) restore() (*state, error) {
	n := w.Cfg.Players
	switch {
	case w.V != formatVersion:
		return nil, fmt.Errorf("format version %d, want %d", w.V, formatVersion)
	case n < 3 || n > maxSeats:
		return nil, fmt.Errorf("%d players", n)
	case len(w.Hands) != n || len(w.Won) != n || len(w.Totals) != n:
		return nil, fmt.Errorf("%d hands, %d won piles and %d totals for %d players",
			len(w.Hands), len(w.Won), len(w.Totals), n)
	case len(w.Trick) > 2:
		return nil, fmt.Errorf("%d cards on the current trick", len(w.Trick))
	case len(w.History) > 10:
		return nil, fmt.Errorf("%d finished tricks", len(w.History))
	}
	st := &state{Cfg: w.Cfg, Seed: w.Seed, Deal: w.Deal, Dealer: w.Dealer, Phase: w.Phase,
		Skat: w.Skat, Skat0: w.Skat0, Auction: w.Auction, Declarer: w.Declarer, Bid: w.Bid,
		Contract: w.Contract, Taken: w.Taken, Leader: w.Leader, Done: len(w.History)}
	copy(st.Hands[:], w.Hands)
	copy(st.Won[:], w.Won)
	copy(st.Totals[:], w.Totals)
	copy(st.Trick[:], w.Trick)
	for _, c := range w.Calls {
		st.Calls = append(st.Calls, Call(c))
	}
	for i, t := range w.History {
		if len(t.Cards) != 3 {
			return nil, fmt.Errorf("trick %d has %d cards", i+1, len(t.Cards))
		}
		st.History[i] = trick{Leader: t.Leader, Winner: t.Winner}
		copy(st.History[i].Cards[:], t.Cards)
	}
	for i, r := range w.Rows {
		want := 0
		switch r.Kind {
		case rowGame:
			want = 2
		case rowRamsch:
			want = n
		}
		if len(r.Points) != want || len(r.Scores) != n {
			return nil, fmt.Errorf("row %d (%s) has %d points and %d scores", i+1, r.Kind, len(r.Points), len(r.Scores))
		}
		sr := row{Deal: r.Deal, Dealer: r.Dealer, Kind: r.Kind, Declarer: r.Declarer, Bid: r.Bid,
			Contract: r.Contract, Held: r.Held, Tricks: r.Tricks, Skat: r.Skat}
		copy(sr.Points[:], r.Points)
		copy(sr.Scores[:], r.Scores)
		st.Rows = append(st.Rows, sr)
	}
	st.bids = BidValues(st.Cfg.Variant)
	return st, nil
}

// check refuses a decoded state the rules cannot reach. Every method of a state relies on what it
// checks: seats and roles in range, every card of the pack in exactly one place, an auction that
// its calls produce, a declaration that fits the phase, tricks played by the rules, and a score
// sheet whose rows settle to their scores.
func (st *state) check() error {
	for _, c := range []struct {
		what  string
		check func() error
	}{
		{"table", st.checkTable},
		{"score sheet", st.checkRows},
		{"cards", st.checkCards},
		{"auction", st.checkAuction},
		{"declaration", st.checkDeclaration},
		{"tricks", st.checkTricks},
		{"last deal", st.checkEnd},
	} {
		if err := c.check(); err != nil {
			return fmt.Errorf("%s: %w", c.what, err)
		}
	}
	return nil
}

// dealerOf is the dealer of deal k (1-based): drawn for the first deal, then passing to the left
// (§1, §14).
func (st *state) dealerOf(k int) games.Seat {
	return (firstDealer(st.Seed, st.players()) + games.Seat(k-1)) % games.Seat(st.players())
}

// checkTable checks the configuration and where in the match the state is.
func (st *state) checkTable() error {
	v := st.Cfg.Variant
	switch {
	case !slices.Contains(dealCounts, strconv.Itoa(st.Cfg.Deals)) || checkDeals(st.Cfg.Deals, st.players()) != nil:
		return fmt.Errorf("%d deals at %d players", st.Cfg.Deals, st.players())
	case (v.GrandBase != 20 && v.GrandBase != 24) || (v.NullOuvert != 24 && v.NullOuvert != 46) ||
		(v.SchneiderMin != 91 && v.SchneiderMin != 90):
		return fmt.Errorf("variant %+v", v)
	case st.Phase < phAuction || st.Phase > phOver:
		return fmt.Errorf("phase %d", st.Phase)
	case st.Deal < 1 || st.Deal > st.Cfg.Deals || (st.Phase == phOver && st.Deal != st.Cfg.Deals):
		return fmt.Errorf("deal %d of %d in phase %s", st.Deal, st.Cfg.Deals, phaseNames[st.Phase])
	case st.Dealer != st.dealerOf(st.Deal):
		return fmt.Errorf("dealer %d in deal %d", st.Dealer, st.Deal)
	}
	return nil
}

// checkRows checks that the sheet has a row for every finished deal, that each row is a result
// the rules can give, and that the totals are its column sums.
func (st *state) checkRows() error {
	done := st.Deal - 1
	if st.Phase == phOver {
		done = st.Deal
	}
	if len(st.Rows) != done {
		return fmt.Errorf("%d rows after %d finished deals", len(st.Rows), done)
	}
	var totals [maxSeats]int
	for i, r := range st.Rows {
		if err := st.checkRow(i+1, r); err != nil {
			return fmt.Errorf("row %d: %w", i+1, err)
		}
		for s, d := range r.Scores {
			totals[s] += d
		}
	}
	if totals != st.Totals {
		return fmt.Errorf("totals %v, rows add up to %v", st.Totals, totals)
	}
	return nil
}

// checkRow checks the row of deal k.
func (st *state) checkRow(k int, r row) error {
	dealer := st.dealerOf(k)
	if r.Deal != k || r.Dealer != dealer {
		return fmt.Errorf("deal %d dealt by %d, want deal %d dealt by %d", r.Deal, r.Dealer, k, dealer)
	}
	// active reports whether s played deal k: everybody but the dealer at a table of four (§1).
	active := func(s games.Seat) bool {
		return s >= 0 && int(s) < st.players() && (st.players() == 3 || s != dealer)
	}
	switch r.Kind {
	case rowThrown:
		// D11: nobody scores.
		if r != (row{Deal: k, Dealer: dealer, Kind: rowThrown, Declarer: games.Nobody}) {
			return fmt.Errorf("thrown in, but %+v", r)
		}
	case rowRamsch:
		scorer, sum := games.Nobody, 0
		for s := range games.Seat(st.players()) {
			if p := r.Points[s]; p < 0 || (!active(s) && (p != 0 || r.Scores[s] != 0)) {
				return fmt.Errorf("seat %d with %d points and score %d", s, p, r.Scores[s])
			}
			sum += r.Points[s]
			if r.Scores[s] != 0 {
				if scorer != games.Nobody {
					return fmt.Errorf("two seats score")
				}
				scorer = s
			}
		}
		// §13: exactly one player scores: 10 or 20 for the fewest points, -30 for all tricks.
		switch {
		case r.Declarer != games.Nobody || r.Bid != 0 || r.Contract != (Contract{Kind: Ramsch}) ||
			r.Held != 0 || r.Tricks != 0:
			return fmt.Errorf("a Ramsch with a declaration %+v", r)
		case r.Skat.Len() != 2 || sum != 120:
			return fmt.Errorf("skat %v and %d card points", r.Skat, sum)
		case scorer == games.Nobody:
			return fmt.Errorf("nobody scores")
		case r.Scores[scorer] != 10 && r.Scores[scorer] != 20 && (r.Scores[scorer] != -30 || r.Points[scorer] != 120):
			return fmt.Errorf("seat %d scores %d with %d points", scorer, r.Scores[scorer], r.Points[scorer])
		}
	case rowGame:
		v := st.Cfg.Variant
		switch {
		case !active(r.Declarer):
			return fmt.Errorf("declarer %d", r.Declarer)
		case !slices.Contains(st.bidValues(), r.Bid):
			return fmt.Errorf("bid %d", r.Bid)
		case !declarable(v, r.Contract):
			return fmt.Errorf("contract %+v", r.Contract)
		case r.Held.Len() != 12 || r.Held.Minus(pack()) != 0 || r.Skat.Len() != 2 || r.Skat.Minus(r.Held) != 0:
			return fmt.Errorf("held %v with the skat %v", r.Held, r.Skat)
		case r.Points[0] < 0 || r.Points[1] < 0 || r.Points[0]+r.Points[1] > 120:
			return fmt.Errorf("card points %v", r.Points[:2])
		case r.Tricks < 0 || r.Tricks > 10 || (r.Contract.Kind.IsNull() && r.Tricks > 1):
			return fmt.Errorf("%d tricks", r.Tricks)
		}
		// §12: only the declarer's score changes, by what the game settles to.
		var want [maxSeats]int
		want[r.Declarer] = r.outcome(v).Score
		if r.Scores != want {
			return fmt.Errorf("scores %v, the game settles to %v", r.Scores[:st.players()], want[:st.players()])
		}
	default:
		return fmt.Errorf("kind %q", r.Kind)
	}
	return nil
}

// declarable reports whether c is a contract the declarer can declare under v (§5): a Null game
// as it is named, a suit game or Grand with announcements its hand or skat game allows.
func declarable(v Variant, c Contract) bool {
	if c.Kind == NoKind || c.Kind == Ramsch || c.Kind > Ramsch {
		return false
	}
	return slices.Contains(Contracts(v, c.Kind), c)
}

// checkCards checks that every card of the pack is in exactly one place, the sitting-out dealer
// holding none, and that the dealt skat is two cards.
func (st *state) checkCards() error {
	var all cards.Set
	count := 0
	for _, z := range st.Zones() {
		all, count = all.Union(z), count+z.Len()
	}
	switch {
	case all != pack() || count != all.Len():
		return fmt.Errorf("the hands, skat, trick and won piles do not hold the pack once")
	case st.Skat0.Len() != 2 || st.Skat0.Minus(pack()) != 0:
		return fmt.Errorf("dealt skat %v", st.Skat0)
	case st.players() == 4 && (st.Hands[st.Dealer] != 0 || st.Won[st.Dealer] != 0):
		return fmt.Errorf("the dealer sits out but has cards")
	}
	return nil
}

// checkAuction checks that replaying the calls produces the auction, and that it is running in
// the auction and over after it.
func (st *state) checkAuction() error {
	a := NewAuction()
	for i, c := range st.Calls {
		var call games.Action
		switch {
		case c.Kind == "bid":
			call = games.Num("bid", c.N)
		case (c.Kind == "hold" || c.Kind == "pass") && c.N == 0:
			call = games.Do(c.Kind)
		default:
			return fmt.Errorf("call %d: %+v", i+1, c)
		}
		r := st.role(c.Seat)
		if r < 0 {
			return fmt.Errorf("call %d by seat %d, who does not bid", i+1, c.Seat)
		}
		next, err := a.Call(st.bidValues(), r, call)
		if err != nil {
			return fmt.Errorf("call %d: %w", i+1, err)
		}
		a = next
	}
	switch {
	case a != st.Auction:
		return fmt.Errorf("%+v, its calls give %+v", st.Auction, a)
	case a.Over() == (st.Phase == phAuction):
		return fmt.Errorf("over %v in phase %s", a.Over(), phaseNames[st.Phase])
	}
	return nil
}

// dealPhase is the phase whose rules the deal's cards follow: the state's own, or for a match
// that is over, where its last deal ended: at forehand's choice (thrown in) or in play.
func (st *state) dealPhase() phase {
	switch {
	case st.Phase != phOver:
		return st.Phase
	case st.Contract.Kind == NoKind:
		return phChoice
	}
	return phPlay
}

// checkDeclaration checks the declarer, bid, skat and contract against the phase: each phase
// of §4 and §5 leaves them in one shape.
func (st *state) checkDeclaration() error {
	ph := st.dealPhase()
	d := st.Declarer
	if ph <= phChoice || st.Contract.Kind == Ramsch {
		// No declarer: the auction runs, forehand chooses, or §13 Ramsch is played.
		want := Contract{}
		if ph == phPlay {
			want = Contract{Kind: Ramsch}
		}
		if d != games.Nobody || st.Bid != 0 || st.Contract != want || st.Taken || st.Skat != st.Skat0 ||
			(ph >= phChoice && !st.Auction.ForehandAlone()) {
			return fmt.Errorf("declarer %d bid %d contract %+v in phase %s", d, st.Bid, st.Contract, phaseNames[ph])
		}
		if ph == phPlay {
			return nil // checkTricks counts the cards of play
		}
		return st.checkHandSizes(games.Nobody, 10)
	}
	// The declarer is the one the auction made, or forehand playing at 18 (§4.5).
	wantD, wantBid := st.seat(st.Auction.Declarer), st.Auction.Highest
	if st.Auction.ForehandAlone() {
		wantD, wantBid = st.seat(Forehand), 18
	}
	if d != wantD || st.Bid != wantBid {
		return fmt.Errorf("declarer %d at %d, the auction gives %d at %d", d, st.Bid, wantD, wantBid)
	}
	c := st.Contract
	switch ph {
	case phSkat, phDiscard, phGame:
		if c != (Contract{}) {
			return fmt.Errorf("contract %+v before the game is named", c)
		}
	case phAnnounce:
		if (!c.Kind.IsSuit() && c.Kind != Grand) || c != (Contract{Kind: c.Kind, Hand: !st.Taken}) ||
			len(Announcements(st.Cfg.Variant, c.Kind, !st.Taken)) < 2 {
			return fmt.Errorf("contract %+v to announce", c)
		}
	case phPlay:
		if !declarable(st.Cfg.Variant, c) || c.Hand == st.Taken {
			return fmt.Errorf("contract %+v with the skat taken %v", c, st.Taken)
		}
	}
	// §5: the skat lies untouched until it is taken; the declarer then holds it and lays two away.
	switch {
	case ph == phSkat && st.Taken:
		return fmt.Errorf("the skat is taken before the choice")
	case ph == phDiscard && !st.Taken:
		return fmt.Errorf("laying away without the skat")
	case ph == phDiscard && st.Skat.Len() > 1:
		return fmt.Errorf("%v laid away, still laying away", st.Skat)
	case ph > phDiscard && st.Skat.Len() != 2:
		return fmt.Errorf("%v in the skat", st.Skat)
	case !st.Taken && st.Skat != st.Skat0:
		return fmt.Errorf("skat %v, dealt %v, not taken", st.Skat, st.Skat0)
	case st.Taken && st.Skat0.Minus(st.Hands[d].Union(st.Skat).Union(st.playedBy(d))) != 0:
		return fmt.Errorf("the declarer took the skat %v but does not hold it", st.Skat0)
	}
	if ph == phPlay {
		return nil // checkTricks counts the cards of play
	}
	if ph == phDiscard {
		return st.checkHandSizes(d, 12-st.Skat.Len())
	}
	return st.checkHandSizes(games.Nobody, 10)
}

// playedBy is the cards s played in this deal.
func (st *state) playedBy(s games.Seat) cards.Set {
	var out cards.Set
	for _, t := range st.tricks() {
		for i, c := range t.Cards {
			if st.player(t.Leader, i) == s {
				out = out.Add(c)
			}
		}
	}
	for i, c := range st.trickCards() {
		if st.player(st.Leader, i) == s {
			out = out.Add(c)
		}
	}
	return out
}

// checkHandSizes checks, before play, that every active seat holds 10 cards, and seat d (the
// declarer laying away, or Nobody) n.
func (st *state) checkHandSizes(d games.Seat, n int) error {
	for r := Forehand; r <= Rearhand; r++ {
		s, want := st.seat(r), 10
		if s == d {
			want = n
		}
		if got := st.Hands[s].Len(); got != want {
			return fmt.Errorf("seat %d holds %d cards, want %d", s, got, want)
		}
	}
	if st.Done != 0 || st.played() != 0 || st.Won != [maxSeats]cards.Set{} || st.Leader != st.seat(Forehand) {
		return fmt.Errorf("tricks before play")
	}
	return nil
}

// checkTricks replays the tricks of a deal in play (or just ended) from the hands they were
// played from: forehand leads the first, the winner of each the next (§7); every card follows
// suit when it can; the winners and their piles are the rules' ones; and the deal ends, and only
// ends, when §7 says.
func (st *state) checkTricks() error {
	if st.dealPhase() != phPlay {
		return nil
	}
	k, d := st.Contract.Kind, st.Declarer
	var hands, won [maxSeats]cards.Set
	for r := Forehand; r <= Rearhand; r++ {
		s := st.seat(r)
		hands[s] = st.Hands[s].Union(st.playedBy(s))
		if hands[s].Len() != 10 {
			return fmt.Errorf("seat %d played from %d cards", s, hands[s].Len())
		}
	}
	// play takes the cards of a trick led by leader from the hands, if each was legal to play.
	play := func(leader games.Seat, cs []cards.Card) error {
		for i, c := range cs {
			p, led := st.player(leader, i), cards.NoCard
			if i > 0 {
				led = cs[0]
			}
			if !LegalPlays(k, hands[p], led).Has(c) {
				return fmt.Errorf("seat %d cannot play %v to %v", p, c, cs[:i])
			}
			hands[p] = hands[p].Remove(c)
		}
		return nil
	}
	leader, ended := st.seat(Forehand), false
	for i, t := range st.tricks() {
		if ended {
			return fmt.Errorf("trick %d after the deal ended", i+1)
		}
		if t.Leader != leader {
			return fmt.Errorf("trick %d led by %d, not %d", i+1, t.Leader, leader)
		}
		if err := play(leader, t.Cards[:]); err != nil {
			return fmt.Errorf("trick %d: %w", i+1, err)
		}
		w := st.player(leader, TrickWinner(k, t.Cards[:]))
		if t.Winner != w {
			return fmt.Errorf("trick %d won by %d, not %d", i+1, t.Winner, w)
		}
		won[w] = won[w].Union(cards.SetOf(t.Cards[:]...))
		leader = w
		// §7: Null ends at the declarer's first trick, an announced schwarz at the opponents'.
		ended = i == 9 || (k.IsNull() && w == d) || (st.Contract.Schwarz && w != d)
	}
	switch {
	case st.Leader != leader:
		return fmt.Errorf("led by %d, not %d", st.Leader, leader)
	case ended != (st.Phase == phOver):
		return fmt.Errorf("deal ended %v in phase %s", ended, phaseNames[st.Phase])
	}
	if err := play(leader, st.trickCards()); err != nil {
		return fmt.Errorf("current trick: %w", err)
	}
	if hands != st.Hands || won != st.Won {
		return fmt.Errorf("the hands or won piles are not what the tricks leave")
	}
	return nil
}

// checkEnd checks, once the match is over, that the last row is the settlement of the deal the
// state ended in.
func (st *state) checkEnd() error {
	if st.Phase == phOver && st.settle() != st.Rows[len(st.Rows)-1] {
		return fmt.Errorf("the last row is not the settlement of the last deal")
	}
	return nil
}
