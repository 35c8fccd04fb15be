package nasilie

import (
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Limits of one deal, the sizes of the state's fixed arrays.
const (
	maxPlayers = 6                       // N-MORE: six with the 52-card pack
	handSize   = 7                       // nasilie.md §First dealer and the deal
	stockSize  = 4                       // the stock, and the cards laid away
	dealTricks = handSize                // 7 tricks a deal
	maxPlays   = dealTricks * maxPlayers // the cards of one deal's tricks
	maxCalls   = MaxBid - 2 + maxPlayers // every bid from 3 (or blind 2) to MaxBid, and a pass each
	maxMelds   = 4                       // two runs, a four of a kind and stoek fill a 7-card hand
)

// phase is the step of a deal; phaseOver ends the match.
type phase int8

// The phases of a deal, in order (doc.go).
const (
	phaseAuction phase = iota
	phaseNanny
	phaseStock
	phaseDiscard
	phaseTrump
	phaseMelds
	phasePlay
	phaseOver
)

var phaseNames = [...]string{"auction", "nanny", "stock", "discard", "trump", "melds", "play", "over"}

// String is the phase's name, as View.Phase and the stored state spell it.
func (p phase) String() string {
	if p >= 0 && int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase?"
}

// Call is one call of the auction: a bid (2 is the blind bid) or a pass (Bid 0).
type Call struct {
	Seat games.Seat
	Bid  int
}

// Play is one card played to a trick.
type Play struct {
	Seat games.Seat
	Card cards.Card
}

// row is one deal of the score sheet, a plain array so the stored state stays small (it is
// written after every action and a long match has many rows).
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

// seat is the row's declarer, or the nanny who declined.
func (r row) seat() games.Seat { return games.Seat(r[rowSeat]) }

// settings are the table options of a match, fixed when it starts.
type settings struct {
	players  int
	lenient  bool // N-FOLLOW: pagat's "may trump at any time"
	sitOut   bool // five players with 32 cards: the dealer sits out each deal
	maxDeals int  // the deal after which the highest total wins; 0 plays to Target
}

// state is one moment of a match. It is a value: copying it copies everything but rows, which
// states share and only ever extend into a fresh array (addRow), so Apply is "copy, then change
// the copy" and needs no clone. What follows from these fields (whose turn it is, the declarer
// and his bid, the high bid, who passed, whether stoek is open, the winners) is computed, never
// stored, so no two fields can disagree. Three are kept because they are asked for often, and
// Unmarshal derives them: the dealer and the first jack (from the seed and the deal number) and
// the leader of the trick on the table (from the cards played).
type state struct {
	settings
	seed      uint64
	firstJack cards.Card // N-DEALER: the jack that made the first dealer
	deal      int        // 1-based deal number
	dealer    games.Seat
	scores    [maxPlayers]int
	rows      []row // one per finished deal
	phase     phase

	hands  [maxPlayers]cards.Set
	stock  cards.Set // the stock, or the cards laid away
	aside  cards.Set // N-MORE: out of play with five or six
	took   cards.Set // the stock as the declarer saw it when he took it; empty when left
	looked [maxPlayers]bool
	calls  [maxCalls]Call
	nCalls int
	trump  cards.Suit
	melds  [maxMelds]Meld // declared, in order
	nMelds int
	plays  [maxPlays]cards.Card // the cards played this deal, in order
	nPlays int
	lead   games.Seat // who leads the trick on the table, Nobody before the play: see walk
}

// addRow appends a row of the score sheet without writing into an array another state shares.
func (st *state) addRow(r row) { st.rows = append(slices.Clip(st.rows), r) }

// callList is the auction so far.
func (st *state) callList() []Call { return st.calls[:st.nCalls] }

// declared is the melds declared so far.
func (st *state) declared() []Meld { return st.melds[:st.nMelds] }

// played is the cards played this deal, in order.
func (st *state) played() []cards.Card { return st.plays[:st.nPlays] }

// pack is the pack of every deal: 32 cards, or 52 for five or six players (N-DECK, N-MORE).
func (st *state) pack() []cards.Card {
	if st.players > 4 && !st.sitOut {
		return cards.FrenchFrom(2)
	}
	return cards.FrenchFrom(7)
}

// active reports whether seat p plays this deal (the dealer sits out in the five-player 32-card
// form).
func (st *state) active(p games.Seat) bool { return !st.sitOut || p != st.dealer }

// next is the next seat clockwise after p that plays this deal.
func (st *state) next(p games.Seat) games.Seat {
	for {
		p = (p + 1) % games.Seat(st.players)
		if st.active(p) {
			return p
		}
	}
}

// nanny is the player on the dealer's left (nasilie.md §Bidding).
func (st *state) nanny() games.Seat { return st.next(st.dealer) }

// inPlay is the number of players this deal.
func (st *state) inPlay() int {
	if st.sitOut {
		return st.players - 1
	}
	return st.players
}

// dealCards shuffles and deals deal number st.deal: 7 cards each, one at a time from the nanny,
// then the 4-card stock; the rest is set aside (nasilie.md §First dealer and the deal, N-MORE).
func (st *state) dealCards() {
	deck := cards.Shuffle(st.pack(), st.seed, uint64(st.deal))
	st.phase = phaseAuction
	st.hands, st.looked = [maxPlayers]cards.Set{}, [maxPlayers]bool{}
	p := st.nanny()
	i := 0
	for ; i < handSize*st.inPlay(); i++ {
		st.hands[p] = st.hands[p].Add(deck[i])
		p = st.next(p)
	}
	st.stock = cards.SetOf(deck[i : i+stockSize]...)
	st.aside = cards.SetOf(deck[i+stockSize:]...)
	st.took = 0
	st.calls, st.nCalls = [maxCalls]Call{}, 0
	st.trump = cards.NoSuit
	st.melds, st.nMelds = [maxMelds]Meld{}, 0
	st.plays, st.nPlays, st.lead = [maxPlays]cards.Card{}, 0, games.Nobody
}

// high is the highest bid so far and who made it, or 0 and Nobody: the last bid of the auction,
// since every bid tops the one before (N-STEP).
func (st *state) high() (int, games.Seat) {
	for i := st.nCalls - 1; i >= 0; i-- {
		if c := st.calls[i]; c.Bid > 0 {
			return c.Bid, c.Seat
		}
	}
	return 0, games.Nobody
}

// passed reports whether p has passed in this auction; a pass is final (nasilie.md §Bidding).
func (st *state) passed(p games.Seat) bool {
	return slices.Contains(st.callList(), Call{p, 0})
}

// left is the number of players still in the auction.
func (st *state) left() int {
	n := 0
	for p := range games.Seat(st.players) {
		if st.active(p) && !st.passed(p) {
			n++
		}
	}
	return n
}

// auctionTurn is who calls next: the nanny first, then clockwise, skipping those who passed.
func (st *state) auctionTurn() games.Seat {
	if st.nCalls == 0 {
		return st.nanny()
	}
	p := st.next(st.calls[st.nCalls-1].Seat)
	for range st.players {
		if !st.passed(p) {
			break
		}
		p = st.next(p)
	}
	return p
}

// nextBid is the only bid that may be made now, or 0 (N-STEP, N-BLIND, N-MAXBID).
func (st *state) nextBid() int {
	b := 3
	switch h, _ := st.high(); {
	case h == 2:
		b = 4
	case h > 2:
		b = h + 1
	}
	if b > MaxBid {
		return 0
	}
	return b
}

// declarer is who plays the deal and for what bid: the high bidder once the auction is won, the
// nanny's forced game of 1 once she chose to play it (N-NANNY); Nobody and 0 before that, and
// when she declined.
func (st *state) declarer() (games.Seat, int) {
	switch st.phase {
	case phaseAuction, phaseNanny:
		return games.Nobody, 0
	case phaseOver:
		if st.nPlays == 0 {
			return games.Nobody, 0 // the match ended with the nanny declining
		}
	}
	if bid, s := st.high(); bid > 0 {
		return s, bid
	}
	return st.nanny(), 1
}

// choice is the declarer's decision on the stock: "taken", "left" (N-DOUBLE) or "" while open.
func (st *state) choice() string {
	d, _ := st.declarer()
	switch {
	case !st.took.Empty():
		return "taken"
	case d != games.Nobody && st.phase > phaseStock:
		return "left"
	}
	return ""
}

// playHands is each seat's hand with the cards it has played this deal put back: the hands the
// tricks are played from, the declarer's as it was after the exchange.
func (st *state) playHands() [maxPlayers]cards.Set {
	h := st.hands
	st.walk(func(p games.Seat, c cards.Card) { h[p] = h[p].Add(c) })
	return h
}

// exchanged is the declarer's hand after the stock exchange, or nothing before there is one.
func (st *state) exchanged() cards.Set {
	d, _ := st.declarer()
	if d == games.Nobody {
		return 0
	}
	return st.playHands()[d]
}

// stoekOpen reports whether the declarer may still declare stoek: he held the K and Q of trumps
// after the exchange and has not declared it yet (N-STOEK).
func (st *state) stoekOpen() bool {
	if st.phase != phaseMelds && st.phase != phasePlay {
		return false
	}
	h := st.exchanged()
	if !h.Has(cards.French(st.trump, cards.Queen)) || !h.Has(cards.French(st.trump, cards.King)) {
		return false
	}
	return !slices.ContainsFunc(st.declared(), func(m Meld) bool { return m.Kind == Stoek })
}

// meldPoints is the value of everything declared so far.
func (st *state) meldPoints() int {
	n := 0
	for _, m := range st.declared() {
		n += MeldPoints(m.Kind)
	}
	return n
}

// shown is the declarer's cards that are still in his hand and were shown in a meld: public.
func (st *state) shown() cards.Set {
	d, _ := st.declarer()
	if d == games.Nobody {
		return 0
	}
	var s cards.Set
	for _, m := range st.declared() {
		s = s.Union(m.Cards)
	}
	return s.Intersect(st.hands[d])
}

// winners are the seats with the highest total once the match is over: the one who reached
// Target, or the best at the deal limit (nasilie.md §End of the game); nil while it runs.
func (st *state) winners() []games.Seat {
	if st.phase != phaseOver {
		return nil
	}
	best := slices.Max(st.scores[:st.players])
	var out []games.Seat
	for p, v := range st.scores[:st.players] {
		if v == best {
			out = append(out, games.Seat(p))
		}
	}
	return out
}

// playState is the play of the deal so far, derived from the cards played: tricks are led by
// the declarer, then by each trick's winner, and go clockwise.
type playState struct {
	history [][]Play              // completed tricks
	trick   []Play                // the trick on the table
	won     [maxPlayers]cards.Set // cards won per seat
	count   [maxPlayers]int       // tricks won per seat
	last    games.Seat            // winner of the latest completed trick, or Nobody
}

// tricks replays the cards played this deal into tricks.
func (st *state) tricks() playState {
	ps := playState{last: games.Nobody}
	n := st.inPlay()
	lead, _ := st.declarer()
	if lead == games.Nobody {
		return ps
	}
	for i := 0; i < st.nPlays; i += n {
		end := min(i+n, st.nPlays)
		t := make([]Play, 0, n)
		p := lead
		for _, c := range st.plays[i:end] {
			t = append(t, Play{p, c})
			p = st.next(p)
		}
		if len(t) < n {
			ps.trick = t
			return ps
		}
		w := t[TrickWinner(st.plays[i:end], st.trump)].Seat
		ps.won[w] = ps.won[w].Union(cards.SetOf(st.plays[i:end]...))
		ps.count[w]++
		ps.history = append(ps.history, t)
		ps.last, lead = w, w
	}
	return ps
}

// walk calls fn with every card played this deal and who played it, and returns who leads the
// trick on the table: the declarer leads the first trick (nasilie.md §Play), each trick's winner
// the next, and the others follow clockwise. It is tricks without the bookkeeping.
func (st *state) walk(fn func(p games.Seat, c cards.Card)) games.Seat {
	n := st.inPlay()
	lead, _ := st.declarer()
	for i := 0; i < st.nPlays; i += n {
		t := st.plays[i:min(i+n, st.nPlays)]
		p := lead
		for _, c := range t {
			if fn != nil {
				fn(p, c)
			}
			p = st.next(p)
		}
		if len(t) < n {
			break
		}
		for range TrickWinner(t, st.trump) {
			lead = st.next(lead)
		}
	}
	return lead
}

// playTurn is who plays next: the one after the last card of the trick on the table, or its
// leader.
func (st *state) playTurn() games.Seat {
	p := st.lead
	for range st.nPlays % st.inPlay() {
		p = st.next(p)
	}
	return p
}
