package nasilie

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// formatVersion is the version of the stored state ("v"), bumped with any change of the format.
const formatVersion = 1

// wire is the stored state: JSON with cards in notation, every field always present, keys in
// sorted order as RFC 8785 canonical JSON has them (so a tool that re-encodes a state with sorted
// keys keeps it canonical). It holds the facts of a state and nothing that follows from them: the
// dealer and the first dealer's jack follow from the seed and the deal number, the auction's
// turn, passes and high bid from the calls, the declarer from the calls and the phase. The running
// totals are facts of their own, not re-added from the rows, so a table may be given totals (the
// bot's end-to-end test starts a match near 100 that way).
type wire struct {
	Aside    cards.Set   `json:"aside"`
	Calls    [][2]int    `json:"calls"` // [seat, bid]; bid 0 is a pass, 2 the blind bid
	Deal     int         `json:"deal"`
	Hands    []cards.Set `json:"hands"`
	Lenient  bool        `json:"lenient"`
	Looked   []bool      `json:"looked"`
	MaxDeals int         `json:"maxdeals"`
	Melds    []wireMeld  `json:"melds"`
	Phase    string      `json:"phase"`
	Players  int         `json:"players"`
	Plays    string      `json:"plays"` // the cards played this deal, in order, space separated
	Rows     []row       `json:"rows"`
	Scores   []int       `json:"scores"`
	Seed     uint64      `json:"seed,string"` // a string: JSON readers in JavaScript round numbers above 2^53
	SitOut   bool        `json:"sitout"`
	Stock    cards.Set   `json:"stock"`
	Took     cards.Set   `json:"took"`
	Trump    string      `json:"trump"`
	Version  int         `json:"v"`
}

// wireMeld is a declared meld as stored.
type wireMeld struct {
	Cards cards.Set `json:"cards"`
	Kind  string    `json:"kind"`
}

// MarshalBinary writes the state in its one canonical form; equal states give equal bytes.
func (st *state) MarshalBinary() ([]byte, error) {
	n := st.players
	w := wire{
		Aside: st.aside, Calls: make([][2]int, st.nCalls), Deal: st.deal,
		Hands: st.hands[:n], Lenient: st.lenient, Looked: st.looked[:n],
		MaxDeals: st.maxDeals, Melds: make([]wireMeld, st.nMelds), Phase: st.phase.String(),
		Players: n, Plays: playsText(st.played()), Rows: st.rows, Scores: st.scores[:n],
		Seed: st.seed, SitOut: st.sitOut, Stock: st.stock, Took: st.took, Trump: st.trump.String(),
		Version: formatVersion,
	}
	for i, c := range st.callList() {
		w.Calls[i] = [2]int{int(c.Seat), c.Bid}
	}
	for i, m := range st.declared() {
		w.Melds[i] = wireMeld{m.Cards, m.Kind}
	}
	if w.Rows == nil {
		w.Rows = []row{}
	}
	b, err := json.Marshal(w)
	if err != nil {
		return nil, fmt.Errorf("nasilie: marshal: %w", err)
	}
	return b, nil
}

// playsText writes cards in order, space separated.
func playsText(cs []cards.Card) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// parsePlays reads playsText: canonical card notation, single spaces.
func parsePlays(s string) ([]cards.Card, error) {
	if s == "" {
		return nil, nil
	}
	var out []cards.Card
	for tok := range strings.SplitSeq(s, " ") {
		var c cards.Card
		if err := c.UnmarshalText([]byte(tok)); err != nil {
			return nil, fmt.Errorf("plays: %w", err)
		}
		out = append(out, c)
	}
	return out, nil
}

// corrupt wraps why bytes are not a state in games.ErrCorrupt.
func corrupt(err error) error { return fmt.Errorf("nasilie: %w: %w", games.ErrCorrupt, err) }

// unmarshal is Rules().Unmarshal: it decodes b strictly (no unknown field, nothing after the
// state), checks that the rules can reach the state (check), and accepts b only if it is the
// state's canonical encoding, so every state has exactly one stored form.
func unmarshal(b []byte) (*state, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var w wire
	if err := dec.Decode(&w); err != nil {
		return nil, corrupt(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, corrupt(errors.New("data after the state"))
	}
	st, err := w.state()
	if err == nil {
		err = st.check()
	}
	if err != nil {
		return nil, corrupt(err)
	}
	out, err := st.MarshalBinary()
	if err != nil {
		return nil, corrupt(err)
	}
	if !bytes.Equal(out, b) {
		return nil, corrupt(errors.New("not the canonical encoding of its state"))
	}
	return st, nil
}

// state converts the stored form to a state, refusing values of the wrong shape: lists of the
// wrong length, unknown names, seats out of range.
func (w *wire) state() (*state, error) {
	if w.Version != formatVersion {
		return nil, fmt.Errorf("format version %d, want %d", w.Version, formatVersion)
	}
	n := w.Players
	switch {
	case n < 4 || n > maxPlayers:
		return nil, fmt.Errorf("%d players", n)
	case len(w.Hands) != n || len(w.Looked) != n || len(w.Scores) != n:
		return nil, fmt.Errorf("seat lists of %d hands, %d looked and %d scores for %d players",
			len(w.Hands), len(w.Looked), len(w.Scores), n)
	case len(w.Calls) > maxCalls:
		return nil, fmt.Errorf("%d calls", len(w.Calls))
	case len(w.Melds) > maxMelds:
		return nil, fmt.Errorf("%d melds", len(w.Melds))
	}
	ph := slices.Index(phaseNames[:], w.Phase)
	if ph < 0 {
		return nil, fmt.Errorf("phase %q", w.Phase)
	}
	trump := cards.NoSuit
	if w.Trump != trump.String() {
		if trump = trumpOf(w.Trump); trump == cards.NoSuit {
			return nil, fmt.Errorf("trump %q", w.Trump)
		}
	}
	plays, err := parsePlays(w.Plays)
	if err != nil {
		return nil, err
	}
	if len(plays) > maxPlays {
		return nil, fmt.Errorf("%d cards played", len(plays))
	}
	st := &state{
		settings: settings{players: n, lenient: w.Lenient, sitOut: w.SitOut, maxDeals: w.MaxDeals},
		seed:     w.Seed, deal: w.Deal, rows: slices.Clip(w.Rows), phase: phase(ph),
		stock: w.Stock, aside: w.Aside, took: w.Took, trump: trump,
		nCalls: len(w.Calls), nMelds: len(w.Melds), nPlays: len(plays),
	}
	if len(st.rows) == 0 {
		st.rows = nil
	}
	copy(st.hands[:], w.Hands)
	copy(st.looked[:], w.Looked)
	copy(st.scores[:], w.Scores)
	copy(st.plays[:], plays)
	for i, c := range w.Calls {
		if c[0] < 0 || c[0] >= n || c[1] < 0 || c[1] > MaxBid {
			return nil, fmt.Errorf("call %d: seat %d bid %d", i+1, c[0], c[1])
		}
		st.calls[i] = Call{games.Seat(c[0]), c[1]}
	}
	for i, m := range w.Melds {
		st.melds[i] = Meld{m.Kind, m.Cards}
	}
	if st.deal < 1 {
		return nil, fmt.Errorf("deal %d", st.deal)
	}
	// N-DEALER: the first dealer follows from the seed, and the deal passes clockwise.
	jack, first := firstDealer(st.seed, st.pack(), n)
	st.firstJack, st.dealer = jack, games.Seat((int(first)+(st.deal-1)%n)%n)
	st.lead = games.Nobody
	if d, _ := st.declarer(); st.phase == phasePlay || st.phase == phaseOver && d != games.Nobody {
		st.lead = st.walk(nil)
	}
	return st, nil
}

// check refuses a state the rules cannot reach, so that every method works on a state Unmarshal
// returns and no card is lost or duplicated: the options, the match's progress and score rows,
// the auction, where every card is in the phase, the declared melds and the tricks played.
func (st *state) check() error {
	for _, c := range []func() error{st.checkMatch, st.checkRows, st.checkAuction, st.checkCards,
		st.checkMelds, st.checkPlays} {
		if err := c(); err != nil {
			return err
		}
	}
	return nil
}

// checkMatch checks the options and the match's progress (nasilie.md §End of the game).
func (st *state) checkMatch() error {
	n := st.players
	if st.sitOut && n != 5 {
		return fmt.Errorf("the dealer sits out with %d players", n)
	}
	if !slices.ContainsFunc(roundsValues(), func(v string) bool {
		d, err := maxDeals(v, n)
		return err == nil && d == st.maxDeals
	}) {
		return fmt.Errorf("deal limit %d for %d players", st.maxDeals, n)
	}
	if st.maxDeals > 0 && st.deal > st.maxDeals {
		return fmt.Errorf("deal %d past the limit %d", st.deal, st.maxDeals)
	}
	reached := 0
	for _, v := range st.scores[:n] {
		if v >= Target {
			reached++
		}
	}
	switch over := st.phase == phaseOver; {
	case !over && reached > 0:
		return fmt.Errorf("a total reached %d and the match goes on", Target)
	case over && reached > 1:
		return fmt.Errorf("%d totals reached %d", reached, Target)
	case over && reached == 0 && st.deal != st.maxDeals:
		return fmt.Errorf("the match is over in deal %d, nobody reached %d", st.deal, Target)
	}
	return nil
}

// checkRows checks the score sheet: a row per finished deal, each a result the rules can give,
// the last one of the last deal once the match is over.
func (st *state) checkRows() error {
	n := st.players
	want := st.deal - 1
	if st.phase == phaseOver {
		want = st.deal
	}
	if len(st.rows) != want {
		return fmt.Errorf("%d score rows in deal %d", len(st.rows), st.deal)
	}
	for i, r := range st.rows {
		// The dealer of deal i+1, who sits out in the five-player 32-card form.
		dealer := games.Seat((int(st.dealer) + n - (st.deal-1-i)%n) % n)
		if r[rowDeal] != i+1 || !seatOK(r.seat(), n) || st.sitOut && r.seat() == dealer || !rowOK(r) {
			return fmt.Errorf("score row %d %v", i+1, r)
		}
	}
	if st.phase != phaseOver {
		return nil
	}
	last := st.rows[len(st.rows)-1]
	declined := last[rowFlags] == flagDeclined
	left := last[rowFlags] == flagLeft
	d, bid := st.declarer()
	if d == games.Nobody && (!declined || last.seat() != st.nanny()) ||
		d != games.Nobody && (declined || last.seat() != d || last[rowBid] != bid || left != st.took.Empty()) {
		return fmt.Errorf("the last score row %v is not of the last deal", last)
	}
	return nil
}

// rowOK reports whether r is a result the rules give (nasilie.md §Scoring): the nanny's −10, or a
// played deal's difference of reached and needed game points.
func rowOK(r row) bool {
	if r[rowFlags] == flagDeclined {
		return r == row{rowDeal: r[rowDeal], rowSeat: r[rowSeat], rowFlags: flagDeclined, rowResult: declined}
	}
	const (
		maxReached    = (141 + lastTrickBonus + 5) / 10 // every card point and the last trick (N-ROUND)
		maxMeldPoints = 270                             // the most seven cards declare
	)
	bid, reached, needed := r[rowBid], r[rowReached], r[rowNeeded]
	if r[rowFlags]&^flagLeft != 0 || bid < 1 || bid > MaxBid || reached < 0 ||
		reached > maxReached && reached != allTricks || needed > bid+10 || needed < bid+10-maxMeldPoints/10 {
		return false
	}
	factor := 1
	if r[rowFlags] == flagLeft {
		factor = 2 // N-DOUBLE
	}
	// N-ZERO: a deal without a trick reaches 0 and loses at least 50.
	return r[rowResult] == factor*compare(reached, needed) ||
		reached == 0 && r[rowResult] == factor*min(zeroTricks, compare(0, needed))
}

// checkAuction replays the calls: each made by the seat whose turn it was (one that has not looked
// may only bid blind), each bid the one allowed then (N-STEP, N-BLIND), none after the auction
// ended; nobody looked before his turn; and the phase must be where the auction led.
func (st *state) checkAuction() error {
	a := *st // the auction as it was before each call
	a.nCalls = 0
	ended := false
	for i, c := range st.callList() {
		h, _ := a.high()
		switch {
		case ended:
			return fmt.Errorf("call %d after the auction ended", i+1)
		case c.Seat != a.auctionTurn():
			return fmt.Errorf("call %d by seat %d out of turn", i+1, c.Seat)
		case c.Bid == 2 && h != 0, c.Bid != 0 && c.Bid != 2 && c.Bid != a.nextBid(), c.Bid != 2 && !st.looked[c.Seat]:
			return fmt.Errorf("call %d: seat %d cannot bid %d", i+1, c.Seat, c.Bid)
		}
		a.nCalls = i + 1
		h, _ = a.high()
		ended = a.left() == 0 || a.left() == 1 && h > 0
	}
	// A player looks on his turn, and everybody has once the auction is over.
	for p := range games.Seat(st.players) {
		called := slices.ContainsFunc(st.callList(), func(c Call) bool { return c.Seat == p })
		switch {
		case !st.active(p) && st.looked[p]:
			return fmt.Errorf("seat %d sits out and looked", p)
		case st.active(p) && st.phase != phaseAuction && !st.looked[p]:
			return fmt.Errorf("seat %d has not looked after the auction", p)
		case st.phase == phaseAuction && st.looked[p] && !called && p != st.auctionTurn():
			return fmt.Errorf("seat %d looked before his turn", p)
		}
	}
	d, _ := st.declarer()
	nanny := st.phase == phaseNanny || st.phase == phaseOver && d == games.Nobody
	switch {
	case ended != (st.phase != phaseAuction):
		return fmt.Errorf("calls that end the auction: %v, in phase %v", ended, st.phase)
	case nanny && st.left() != 0:
		return errors.New("the nanny chooses though not everybody passed")
	}
	return nil
}

// checkCards checks where the cards are: every card of the pack in one place, the cards set
// aside, the stock untouched until the declarer takes it, then taken into his hand and laid away
// again, hands of seven (his of eleven while he lays away), and trump, melds and tricks only in
// the phases that have them.
func (st *state) checkCards() error {
	var all cards.Set
	total := 0
	for _, z := range st.Zones() {
		all = all.Union(z)
		total += z.Len()
	}
	if all != st.Deck() || total != st.Deck().Len() {
		return errors.New("cards not conserved")
	}
	if want := st.Deck().Len() - handSize*st.inPlay() - stockSize; st.aside.Len() != want {
		return fmt.Errorf("%d cards set aside, want %d", st.aside.Len(), want)
	}
	d, _ := st.declarer()
	played := st.phase == phasePlay || st.phase == phaseOver && d != games.Nobody
	named := st.phase == phaseMelds || played
	full := dealTricks * st.inPlay()
	switch {
	case named == (st.trump == cards.NoSuit):
		return fmt.Errorf("trump %v in phase %v", st.trump, st.phase)
	case !named && st.nMelds > 0:
		return fmt.Errorf("melds in phase %v", st.phase)
	case !played && st.nPlays > 0, st.phase == phasePlay && st.nPlays >= full,
		st.phase == phaseOver && played && st.nPlays != full:
		return fmt.Errorf("%d cards played in phase %v", st.nPlays, st.phase)
	}
	held := st.playHands()
	took := st.took.Len()
	switch {
	case st.phase <= phaseStock || d == games.Nobody:
		if took != 0 || st.stock.Len() != stockSize {
			return errors.New("the stock is touched before the declarer decides")
		}
	case st.phase == phaseDiscard:
		if took != stockSize || st.stock.Len() >= stockSize || !st.took.Minus(held[d]).Minus(st.stock).Empty() {
			return errors.New("the stock taken is not in the declarer's hand or laid away")
		}
	default:
		if took != 0 && took != stockSize || st.stock.Len() != stockSize || !st.took.Minus(held[d]).Minus(st.stock).Empty() {
			return errors.New("the stock taken is not in the declarer's hand or laid away")
		}
	}
	for p := range games.Seat(st.players) {
		want := handSize
		switch {
		case !st.active(p):
			want = 0
		case st.phase == phaseDiscard && p == d:
			want = handSize + stockSize - st.stock.Len()
		}
		if held[p].Len() != want {
			return fmt.Errorf("seat %d holds %d cards with those it played, want %d", p, held[p].Len(), want)
		}
	}
	return nil
}

// checkMelds checks that each declared meld could be declared from the declarer's hand after the
// exchange, after the melds declared before it (nasilie.md §Declaring melds and trump).
func (st *state) checkMelds() error {
	h := st.exchanged()
	for i, m := range st.declared() {
		if !slices.ContainsFunc(candidates(h, st.trump), func(c candidate) bool {
			return c.Meld == m && declarable(c, st.melds[:i])
		}) {
			return fmt.Errorf("meld %d %s %v cannot be declared", i+1, m.Kind, m.Cards)
		}
	}
	return nil
}

// checkPlays replays the tricks from the hands they were played from: every card must be one its
// player could play then (nasilie.md §Play, N-FOLLOW).
func (st *state) checkPlays() error {
	held := st.playHands()
	ps := st.tricks()
	for i, t := range append(ps.history, ps.trick) {
		led := cards.NoCard
		for _, p := range t {
			if !slices.Contains(LegalPlays(held[p.Seat].Cards(), led, st.trump, st.lenient), p.Card) {
				return fmt.Errorf("trick %d: seat %d may not play %v", i+1, p.Seat, p.Card)
			}
			held[p.Seat] = held[p.Seat].Remove(p.Card)
			if led == cards.NoCard {
				led = p.Card
			}
		}
	}
	return nil
}

// seatOK reports whether s is one of n seats.
func seatOK(s games.Seat, n int) bool { return s >= 0 && int(s) < n }
