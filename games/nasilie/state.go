package nasilie

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Phases of a deal, in order; phaseOver ends the match.
const (
	phaseAuction = "auction"
	phaseNanny   = "nanny"
	phaseStock   = "stock"
	phaseDiscard = "discard"
	phaseTrump   = "trump"
	phaseMelds   = "melds"
	phasePlay    = "play"
	phaseOver    = "over"
)

// Stock decisions.
const (
	stockOpen  = 0 // not decided yet
	stockTaken = 1
	stockLeft  = 2 // N-DOUBLE
)

// Call is one call of the auction: a bid (2 is the blind bid) or a pass (Bid 0).
type Call struct {
	Seat games.Seat `json:"s"`
	Bid  int        `json:"b"`
}

// Play is one card played to a trick.
type Play struct {
	Seat games.Seat `json:"s"`
	Card cards.Card `json:"c"`
}

// row is one deal of the score sheet, a plain array so the state's JSON stays small (it is written
// after every action and a long match has many rows).
type row [7]int

const (
	rowDeal      = iota
	rowSeat      // the declarer, or the declining nanny
	rowBid       // 0 when declined
	rowFlags     // flagDeclined | flagLeft
	rowReached   // game points reached
	rowNeeded    // game points needed
	rowResult    // the declarer's change
	flagDeclined = 1
	flagLeft     = 2 // the stock was left untouched (N-DOUBLE)
)

func (r row) seat() games.Seat { return games.Seat(r[rowSeat]) }

// state is one moment of a match. Append-only slices may share their backing arrays between
// states (clone clips them); everything else is copied.
type state struct {
	Players   int          `json:"players"`
	Lenient   bool         `json:"lenient,omitempty"`
	SitOut    bool         `json:"sitout,omitempty"`
	MaxDeals  int          `json:"maxdeals"`
	Seed      uint64       `json:"seed"`
	FirstJack cards.Card   `json:"firstjack"`
	Deal      int          `json:"deal"`
	Dealer    games.Seat   `json:"dealer"`
	Scores    []int        `json:"scores"`
	Rows      []row        `json:"rows"`
	Winners   []games.Seat `json:"winners"`
	Phase     string       `json:"phase"`

	Hands      []cards.Set `json:"hands"`
	Stock      cards.Set   `json:"stock"` // the stock, or the cards laid away
	Aside      cards.Set   `json:"aside"` // N-MORE: out of play with five or six
	Took       cards.Set   `json:"took"`  // the stock as the declarer saw it when he took it
	Looked     []bool      `json:"looked"`
	Passed     []bool      `json:"passed"`
	Calls      []Call      `json:"calls"`
	High       int         `json:"high"`
	HighSeat   games.Seat  `json:"highseat"`
	Turn       games.Seat  `json:"turn"`
	Declarer   games.Seat  `json:"declarer"`
	Bid        int         `json:"bid"`
	StockState int         `json:"stockstate"`
	Trump      cards.Suit  `json:"trump"`
	Declared   []Meld      `json:"declared"`
	StoekOpen  bool        `json:"stoekopen,omitempty"`
	Plays      []byte      `json:"plays"` // the cards played this deal, in order
}

func (st *state) clone() *state {
	ns := *st
	ns.Scores = slices.Clone(st.Scores)
	ns.Rows = slices.Clip(st.Rows)
	ns.Winners = slices.Clone(st.Winners)
	ns.Hands = slices.Clone(st.Hands)
	ns.Looked = slices.Clone(st.Looked)
	ns.Passed = slices.Clone(st.Passed)
	ns.Calls = slices.Clip(st.Calls)
	ns.Declared = slices.Clip(st.Declared)
	ns.Plays = slices.Clip(st.Plays)
	return &ns
}

// pack is the pack of every deal: 32 cards, or 52 for five or six players (N-DECK, N-MORE).
func (st *state) pack() []cards.Card {
	if st.Players > 4 && !st.SitOut {
		return cards.FrenchFrom(2)
	}
	return cards.FrenchFrom(7)
}

// active reports whether seat p plays this deal (the dealer sits out in the five-player 32-card
// form).
func (st *state) active(p games.Seat) bool { return !st.SitOut || p != st.Dealer }

// next is the next seat clockwise after p that plays this deal.
func (st *state) next(p games.Seat) games.Seat {
	for {
		p = (p + 1) % games.Seat(st.Players)
		if st.active(p) {
			return p
		}
	}
}

// nanny is the player on the dealer's left (nasilie.md §Bidding).
func (st *state) nanny() games.Seat { return st.next(st.Dealer) }

// inPlay is the number of players this deal.
func (st *state) inPlay() int {
	if st.SitOut {
		return st.Players - 1
	}
	return st.Players
}

// deal shuffles and deals deal number st.Deal: 7 cards each, one at a time from the nanny, then the
// 4-card stock; the rest is set aside (nasilie.md §First dealer and the deal, N-MORE).
func (st *state) deal() {
	n := st.Players
	deck := cards.Shuffle(st.pack(), st.Seed, uint64(st.Deal))
	st.Phase = phaseAuction
	st.Hands = make([]cards.Set, n)
	st.Looked = make([]bool, n)
	st.Passed = make([]bool, n)
	p := st.nanny()
	i := 0
	for ; i < 7*st.inPlay(); i++ {
		st.Hands[p] = st.Hands[p].Add(deck[i])
		p = st.next(p)
	}
	st.Stock = cards.SetOf(deck[i : i+4]...)
	st.Aside = cards.SetOf(deck[i+4:]...)
	st.Took = 0
	st.Calls, st.High, st.HighSeat = nil, 0, games.Nobody
	st.Turn = st.nanny()
	st.Declarer, st.Bid, st.StockState = games.Nobody, 0, stockOpen
	st.Trump, st.Declared, st.StoekOpen = cards.NoSuit, nil, false
	st.Plays = nil
}

// ToAct is the one seat to act, or nobody when the match is over.
func (st *state) ToAct() []games.Seat {
	switch st.Phase {
	case phaseAuction, phasePlay:
		return []games.Seat{st.Turn}
	case phaseNanny:
		return []games.Seat{st.nanny()}
	case phaseStock, phaseDiscard, phaseTrump, phaseMelds:
		return []games.Seat{st.Declarer}
	}
	return nil
}

// nextBid is the only bid that may be made now, or 0 (N-STEP, N-BLIND, N-MAXBID).
func (st *state) nextBid() int {
	b := 3
	switch {
	case st.High == 2:
		b = 4
	case st.High > 2:
		b = st.High + 1
	}
	if b > MaxBid {
		return 0
	}
	return b
}

// trumpKinds are the actions that name trump, by suit.
var trumpKinds = [4]string{"clubs", "diamonds", "hearts", "spades"}

// trumpOf is the suit a trump action names, or NoSuit.
func trumpOf(kind string) cards.Suit {
	if i := slices.Index(trumpKinds[:], kind); i >= 0 {
		return cards.Suits[i]
	}
	return cards.NoSuit
}

// Legal lists the actions of s in canonical order: look/blind, pass/bid, playone/decline,
// take/leave, discard/CARD, the four suits, all/meld/N/done, play/CARD and stoek/CARD.
func (st *state) Legal(s games.Seat) []games.Action {
	if !slices.Contains(st.ToAct(), s) {
		return nil
	}
	var out []games.Action
	switch st.Phase {
	case phaseAuction:
		if !st.Looked[s] {
			// N-BLIND: the hand stays hidden until he looks; blind 2 only while nobody has bid.
			out = append(out, games.Do("look"))
			if st.High == 0 {
				out = append(out, games.Do("blind"))
			}
			return out
		}
		out = append(out, games.Do("pass"))
		if b := st.nextBid(); b > 0 {
			out = append(out, games.Num("bid", b))
		}
	case phaseNanny:
		// N-NANNY: play a game of 1 or decline for −10.
		out = append(out, games.Do("playone"), games.Do("decline"))
	case phaseStock:
		out = append(out, games.Do("take"), games.Do("leave"))
	case phaseDiscard:
		for _, c := range st.Hands[s].Cards() {
			out = append(out, games.With("discard", c))
		}
	case phaseTrump:
		for _, k := range trumpKinds {
			out = append(out, games.Do(k))
		}
	case phaseMelds:
		avail := st.available()
		if len(avail) > 0 {
			out = append(out, games.Do("all"))
		}
		for _, i := range avail {
			out = append(out, games.Num("meld", i+1))
		}
		out = append(out, games.Do("done"))
	case phasePlay:
		legal := st.legalCards(s)
		for _, c := range legal {
			out = append(out, games.With("play", c))
		}
		if s == st.Declarer && st.StoekOpen {
			// N-STOEK: stoek may be declared when the trump K or Q is played.
			for _, c := range legal {
				if c.Suit() == st.Trump && (c.Rank() == cards.King || c.Rank() == cards.Queen) {
					out = append(out, games.With("stoek", c))
				}
			}
		}
	}
	return out
}

// legalCards is what s may play to the current trick.
func (st *state) legalCards(s games.Seat) []cards.Card {
	led := cards.NoCard
	if n := len(st.Plays) % st.inPlay(); n > 0 {
		led = cards.Card(st.Plays[len(st.Plays)-n])
	}
	return LegalPlays(st.Hands[s].Cards(), led, st.Trump, st.Lenient)
}

// available lists the indexes into candidates the declarer may still declare: not declared yet,
// not sharing cards with a declared run (N-SEQ), stoek only once (N-STOEK).
func (st *state) available() []int {
	var out []int
	for i, c := range candidates(st.Hands[st.Declarer], st.Trump) {
		if st.declarable(c) {
			out = append(out, i)
		}
	}
	return out
}

func (st *state) declarable(c candidate) bool {
	if c.Kind == Stoek {
		return st.StoekOpen
	}
	for _, d := range st.Declared {
		if d.Kind == c.Kind && slices.Equal(d.Cards, c.Cards) {
			return false
		}
		if c.group > 0 && isRun(d.Kind) && cards.SetOf(d.Cards...).Intersect(cards.SetOf(c.Cards...)) != 0 {
			return false
		}
	}
	return true
}

func isRun(kind string) bool { return kind == Seq3 || kind == Seq4 || kind == Seq5Plus }

// meldPoints is the value of everything declared so far.
func (st *state) meldPoints() int {
	n := 0
	for _, m := range st.Declared {
		n += MeldPoints(m.Kind)
	}
	return n
}

// shown is the declarer's cards that are still in his hand and were shown in a meld: public.
func (st *state) shown() cards.Set {
	if st.Declarer == games.Nobody {
		return 0
	}
	var s cards.Set
	for _, m := range st.Declared {
		s = s.Union(cards.SetOf(m.Cards...))
	}
	return s.Intersect(st.Hands[st.Declarer])
}

// MarshalBinary is the JSON of the state: deterministic, read back by Rules().Unmarshal.
func (st *state) MarshalBinary() ([]byte, error) { return json.Marshal(st) }

// check validates an unmarshalled state enough that no method can panic on it.
func (st *state) check() error {
	n := st.Players
	switch {
	case n < 4 || n > 6:
		return errors.New("bad player count")
	case len(st.Scores) != n || len(st.Hands) != n || len(st.Looked) != n || len(st.Passed) != n:
		return errors.New("bad seat arrays")
	case !seatOK(st.Dealer, n) || !seatOK(st.Turn, n) || !seatOrNobody(st.HighSeat, n) ||
		!seatOrNobody(st.Declarer, n):
		return errors.New("bad seat")
	case st.SitOut && n != 5:
		return errors.New("bad sit-out")
	case st.Deal < 1 || st.MaxDeals < 0:
		return errors.New("bad deal number")
	case st.Trump != cards.NoSuit && st.Trump > cards.Spades:
		return errors.New("bad trump")
	case st.High < 0 || st.High > MaxBid || st.Bid < 0 || st.Bid > MaxBid:
		return errors.New("bad bid")
	case len(st.Plays) > 7*st.inPlay():
		return errors.New("bad plays")
	}
	for _, r := range st.Rows {
		if !seatOK(r.seat(), n) {
			return errors.New("bad row")
		}
	}
	for _, w := range st.Winners {
		if !seatOK(w, n) {
			return errors.New("bad winner")
		}
	}
	for _, c := range st.Calls {
		if !seatOK(c.Seat, n) {
			return errors.New("bad call")
		}
	}
	var seen cards.Set
	for _, b := range st.Plays {
		c := cards.Card(b)
		if !c.IsFrench() || seen.Has(c) {
			return errors.New("bad card played")
		}
		seen = seen.Add(c)
	}
	if len(st.Plays) > 0 && (st.Phase != phasePlay && st.Phase != phaseOver || st.Declarer == games.Nobody) {
		return errors.New("plays outside the play")
	}
	needDecl := false
	switch st.Phase {
	case phaseAuction, phaseNanny, phaseOver:
	case phaseStock, phaseDiscard, phaseTrump, phaseMelds:
		needDecl = true
	case phasePlay:
		needDecl = true
		if st.Trump > cards.Spades {
			return errors.New("play without trump")
		}
	default:
		return errors.New("bad phase")
	}
	if needDecl && st.Declarer == games.Nobody {
		return errors.New("no declarer")
	}
	if st.Phase == phaseMelds && st.Trump > cards.Spades {
		return errors.New("melds without trump")
	}
	if st.FirstJack.Rank() != cards.Jack {
		return errors.New("bad first-dealer jack")
	}
	// The invariant of the rules' property tests: every card of the pack in exactly one place.
	var all cards.Set
	total := 0
	for _, z := range st.Zones() {
		all = all.Union(z)
		total += z.Len()
	}
	if all != st.Deck() || total != st.Deck().Len() {
		return errors.New("cards not conserved")
	}
	return nil
}

func seatOK(s games.Seat, n int) bool       { return s >= 0 && int(s) < n }
func seatOrNobody(s games.Seat, n int) bool { return s == games.Nobody || seatOK(s, n) }

// playState is the play of the deal so far, derived from Plays: tricks are led by the declarer,
// then by each trick's winner, and go clockwise.
type playState struct {
	history [][]Play    // completed tricks
	trick   []Play      // the trick on the table
	won     []cards.Set // cards won per seat
	count   []int       // tricks won per seat
	last    games.Seat  // winner of the latest completed trick, or Nobody
}

func (st *state) played() playState {
	ps := playState{won: make([]cards.Set, st.Players), count: make([]int, st.Players), last: games.Nobody}
	n := st.inPlay()
	lead := st.Declarer
	for i := 0; i < len(st.Plays); i += n {
		end := min(i+n, len(st.Plays))
		t := make([]Play, 0, n)
		p := lead
		for _, b := range st.Plays[i:end] {
			t = append(t, Play{p, cards.Card(b)})
			p = st.next(p)
		}
		if len(t) < n {
			ps.trick = t
			break
		}
		cs := cards.SetOf()
		played := make([]cards.Card, n)
		for j, pl := range t {
			played[j] = pl.Card
			cs = cs.Add(pl.Card)
		}
		w := t[TrickWinner(played, st.Trump)].Seat
		ps.won[w] = ps.won[w].Union(cs)
		ps.count[w]++
		ps.history = append(ps.history, t)
		ps.last, lead = w, w
	}
	return ps
}
