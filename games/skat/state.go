package skat

import (
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// phase is the step of a deal.
type phase int8

const (
	phAuction  phase = iota // §4 bidding
	phChoice                // §4.5 forehand alone: play at 18, Ramsch or throw in
	phSkat                  // §5 hand or pick up the skat
	phDiscard               // §5 lay away two cards
	phGame                  // §5 name the game
	phAnnounce              // §5 schneider, schwarz, open
	phPlay                  // §7 tricks
	phOver                  // §14 the match is over
)

var phaseNames = [...]string{"auction", "choice", "skat", "discard", "game", "announce", "play", "over"}

// maxSeats is the most players at a table; the per-seat arrays of a state have this length and
// use the first Cfg.Players entries.
const maxSeats = 4

// state is one moment of a match. It is a value: Apply and Redeal copy it with an assignment and
// change the copy, and every field but the slices copies with it. The slices are never written
// in place (Calls and Rows are only extended with appended, which copies them; bids is read
// only), so states may share them.
type state struct {
	Cfg      settings
	Seed     uint64
	Deal     int // 1-based
	Dealer   games.Seat
	Phase    phase
	Hands    [maxSeats]cards.Set // the sitting-out dealer's is empty
	Skat     cards.Set           // on the table: the original skat or the cards laid away so far
	Skat0    cards.Set           // the skat as dealt
	Auction  Auction
	Calls    []Call     // the auction calls of this deal in order
	Declarer games.Seat // Nobody in Ramsch and before the auction ends
	Bid      int
	Contract Contract
	Taken    bool                // the declarer picked up the skat
	Leader   games.Seat          // who leads the current trick
	Trick    [3]cards.Card       // the current trick from Leader; NoCard where nobody played yet
	History  [10]trick           // the finished tricks of this deal, Done of them
	Done     int                 // the number of finished tricks
	Won      [maxSeats]cards.Set // cards won in tricks, per seat
	Rows     []row               // the score sheet, a row per finished deal
	Totals   [maxSeats]int       // the running totals: the column sums of Rows' Scores

	bids []int // BidValues(Cfg.Variant), computed once per state read or made; read only
}

// trick is a finished trick: the cards in playing order from the leader, and its winner.
type trick struct {
	Leader games.Seat
	Cards  [3]cards.Card
	Winner games.Seat
}

// The kinds of a row of the score sheet.
const (
	rowGame   = "game"   // a declared game
	rowRamsch = "ramsch" // §13
	rowThrown = "thrown" // D11: thrown in, nobody scores
)

// row is one deal of the score sheet (§14): enough to settle it again (Settle is pure) and to
// write its line.
type row struct {
	Deal     int
	Dealer   games.Seat
	Kind     string // rowGame, rowRamsch or rowThrown
	Declarer games.Seat
	Bid      int
	Contract Contract
	Held     cards.Set     // the declarer's dealt cards and the original skat
	Points   [maxSeats]int // card points: per seat in Ramsch; [declarer, opponents] in a game
	Tricks   int           // the declarer's tricks
	Skat     cards.Set     // the skat turned up at the end
	Scores   [maxSeats]int // score change per seat
}

// outcome settles a declared game's row again.
func (r row) outcome(v Variant) Outcome {
	return Settle(v, r.Contract, r.Held, r.Points[0], r.Tricks, r.Bid)
}

// appended is x with v appended in a new array, never in x's own: states share their slices, so
// a slice of a state is only ever replaced, never written.
func appended[T any](x []T, v T) []T { return append(slices.Clip(x), v) }

// players is the number of seats at the table.
func (st *state) players() int { return st.Cfg.Players }

// bidValues is the §4.4 ladder of this table.
func (st *state) bidValues() []int {
	if st.bids == nil {
		return BidValues(st.Cfg.Variant)
	}
	return st.bids
}

// seat is the seat playing role r in this deal (§1): forehand left of the dealer, then
// middlehand, then rearhand, who is the dealer himself at a 3-player table.
func (st *state) seat(r Role) games.Seat {
	return games.Seat((int(st.Dealer) + 1 + int(r)) % st.players())
}

// role is s's role in this deal, or -1 for the sitting-out dealer and Nobody.
func (st *state) role(s games.Seat) Role {
	for r := Forehand; r <= Rearhand; r++ {
		if st.seat(r) == s {
			return r
		}
	}
	return -1
}

// player is the seat that plays the i-th card of a trick led by leader.
func (st *state) player(leader games.Seat, i int) games.Seat {
	return st.seat((st.role(leader) + Role(i)) % 3)
}

// deal starts the next deal: the §3 packets 3 – skat 2 – 4 – 3 from a shuffled pack.
func (st *state) deal() {
	st.Deal++
	st.Phase = phAuction
	st.Hands, st.Won = [maxSeats]cards.Set{}, [maxSeats]cards.Set{}
	d := cards.Shuffle(Deck(), st.Seed, uint64(st.Deal))
	i := 0
	for _, packet := range []int{3, 0, 4, 3} {
		if packet == 0 {
			st.Skat0 = cards.SetOf(d[i], d[i+1])
			i += 2
			continue
		}
		for r := Forehand; r <= Rearhand; r++ {
			s := st.seat(r)
			st.Hands[s] = st.Hands[s].Union(cards.SetOf(d[i : i+packet]...))
			i += packet
		}
	}
	st.Skat = st.Skat0
	st.Auction = NewAuction()
	st.Calls = nil
	st.Declarer, st.Bid, st.Contract, st.Taken = games.Nobody, 0, Contract{}, false
	st.Leader, st.Trick, st.History, st.Done = st.seat(Forehand), [3]cards.Card{}, [10]trick{}, 0
}

// played is the number of cards on the current trick.
func (st *state) played() int {
	n := 0
	for n < len(st.Trick) && st.Trick[n] != cards.NoCard {
		n++
	}
	return n
}

// trickCards is the current trick in playing order, as a slice of its own.
func (st *state) trickCards() []cards.Card {
	if n := st.played(); n > 0 {
		return slices.Clone(st.Trick[:n])
	}
	return nil
}

// tricks are the finished tricks of this deal.
func (st *state) tricks() []trick { return st.History[:st.Done] }

// ToAct is the one seat to act: the caller in the auction, forehand choosing, the declarer
// declaring, or the next player to the trick.
func (st *state) ToAct() []games.Seat {
	switch st.Phase {
	case phOver:
		return nil
	case phAuction:
		return []games.Seat{st.seat(st.Auction.Turn)}
	case phChoice:
		return []games.Seat{st.seat(Forehand)}
	case phPlay:
		return []games.Seat{st.player(st.Leader, st.played())}
	}
	return []games.Seat{st.Declarer}
}

// gameKinds are the §5 games in button order.
var gameKinds = []Kind{Clubs, Spades, Hearts, Diamonds, Grand, Null, NullOuvert}

// GameAction is the action that names game k (§5): "clubs", ..., "grand", "null", "nullouvert".
// Agents build their choice with it rather than spelling the action.
func GameAction(k Kind) games.Action {
	if k == NullOuvert {
		return games.Do("nullouvert")
	}
	return games.Do(k.String())
}

// AnnounceAction is the action that declares c's announcements (§5): "simple", "schneider",
// "schwarz", or "open", "openschneider", "openschwarz" for an open game.
func AnnounceAction(c Contract) games.Action {
	k := "simple"
	switch {
	case c.Schwarz:
		k = "schwarz"
	case c.Schneider:
		k = "schneider"
	}
	if c.Open {
		if k == "simple" {
			return games.Do("open")
		}
		return games.Do("open" + k)
	}
	return games.Do(k)
}

// Legal lists what s may do now, in button order; nil for everybody else. It is the one
// legality of the game: Apply checks every action against it.
func (st *state) Legal(s games.Seat) []games.Action {
	if !slices.Contains(st.ToAct(), s) {
		return nil
	}
	switch st.Phase {
	case phAuction:
		return st.Auction.Calls(st.bidValues())
	case phChoice:
		// §4.5: play at 18, Ramsch, or throw in (not with ramsch_mandatory).
		out := []games.Action{games.Num("playat", 18), games.Do("ramsch")}
		if !st.Cfg.Variant.RamschMandatory {
			out = append(out, games.Do("throwin"))
		}
		return out
	case phSkat:
		return []games.Action{games.Do("skat"), games.Do("hand")}
	case phDiscard:
		var out []games.Action
		for _, c := range SortHand(NoKind, st.Hands[s]) {
			out = append(out, games.With("discard", c))
		}
		return out
	case phGame:
		var out []games.Action
		for _, k := range gameKinds {
			// §5 (D3): with the skat taken only a suit game or Grand.
			if k.IsNull() && st.Taken {
				continue
			}
			out = append(out, GameAction(k))
		}
		return out
	case phAnnounce:
		var out []games.Action
		for _, c := range Announcements(st.Cfg.Variant, st.Contract.Kind, !st.Taken) {
			out = append(out, AnnounceAction(c))
		}
		return out
	case phPlay:
		led := st.Trick[0]
		var out []games.Action
		for _, c := range SortHand(st.Contract.Kind, LegalPlays(st.Contract.Kind, st.Hands[s], led)) {
			out = append(out, games.With("play", c))
		}
		return out
	}
	return nil
}

// Score is the score list of §14: a row per deal with each seat's change, running totals, and
// the winners once the match is over.
func (st *state) Score() games.Sheet {
	n := st.players()
	sh := games.Sheet{Totals: make([]int, n)}
	for _, r := range st.Rows {
		row := games.SheetRow{Label: st.rowLabel(r), Points: make([]int, n)}
		for s, d := range r.Scores[:n] {
			row.Points[s] = d
			sh.Totals[s] += d
			switch {
			case n == 4 && games.Seat(s) == r.Dealer:
				row.Cells = append(row.Cells, "—") // §1: the dealer sat out
			case d != 0 || games.Seat(s) == r.Declarer:
				row.Cells = append(row.Cells, signed(d))
			default:
				row.Cells = append(row.Cells, "·")
			}
		}
		sh.Rows = append(sh.Rows, row)
	}
	if st.Phase == phOver {
		sh.Winners = st.winners()
	}
	return sh
}

// winners are the seats with the highest total (§14: equal totals share the win).
func (st *state) winners() []games.Seat {
	totals := st.Totals[:st.players()]
	best := slices.Max(totals)
	var out []games.Seat
	for s, t := range totals {
		if t == best {
			out = append(out, games.Seat(s))
		}
	}
	return out
}
