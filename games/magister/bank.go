package magister

import (
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Outcome is what a card did to the bank (§6): a take of some kind, a knock-out, or nothing. The
// kinds of take are also the topKind of §6.1, with Lead for the main card itself.
type Outcome uint8

// The outcomes, named as in the vectors (§13).
const (
	None   Outcome = iota // no effect: a discard (R5 and every "no effect")
	Cancel                // knock-out: the bank falls back to the leader (M-CANCEL)
	Higher                // a higher card of the main suit (R2)
	Lower                 // a one-below beat (R2, M-LOWER)
	Rank                  // an equal-rank beat (R3)
	Trump                 // a trump of another suit (R4)
	Eight                 // an eight of the main suit (R1d)
	Switch                // an eight of another suit that changes the main suit (R1e)
	Lead                  // the main card itself (topKind "lead")
)

var outcomeNames = [...]string{"none", "cancel", "higher", "lower", "rank", "trump", "eight", "switch", "lead"}

// String is the outcome's name in the vectors: "none", "cancel", "higher", ...
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "?"
}

// ParseOutcome reads an outcome name of the vectors.
func ParseOutcome(s string) (Outcome, bool) {
	i := slices.Index(outcomeNames[:], s)
	return Outcome(i), i >= 0
}

// Takes reports whether o took the bank for its player.
func (o Outcome) Takes() bool { return o >= Higher && o <= Switch }

// Play is one card on the bank, who played it and what it did.
type Play struct {
	Seat    games.Seat
	Card    cards.Card
	Outcome Outcome
}

// Bank is the state of one bank (trick), the fields of magister.md §6.1. Plays is the stack in
// the order played, the main card first. A Bank is a value: Play returns a new one and never
// writes into Plays, so copies may share it. The zero Bank has no plays: no bank on the table.
type Bank struct {
	Leader     games.Seat
	L          cards.Card // the main card
	S          cards.Suit // the main suit (changed by a switch)
	MainActive bool       // L still acts as the main card
	LeadBeaten bool       // something has taken the bank from L
	Top        cards.Card
	TopSeat    games.Seat
	TopKind    Outcome
	Beaters    cards.Set // every card that took or knocked out so far
	Plays      []Play
}

// Open starts a bank: leader leads the main card l (§4.1, §6.1's initial state).
func Open(leader games.Seat, l cards.Card) Bank {
	return Bank{
		Leader: leader, L: l, S: l.Suit(), MainActive: true,
		Top: l, TopSeat: leader, TopKind: Lead,
		Plays: []Play{{Seat: leader, Card: l, Outcome: Lead}},
	}
}

// Holder is the seat that would take the bank if it ended now (§6.1: holder = topSeat).
func (b Bank) Holder() games.Seat { return b.TopSeat }

// Cards is every card on the bank.
func (b Bank) Cards() cards.Set {
	var s cards.Set
	for _, p := range b.Plays {
		s = s.Add(p.Card)
	}
	return s
}

// Play returns the bank after seat p, whose hand before the play is hand, plays x, and what x
// did. The receiver is not changed.
func (b Bank) Play(t Trumps, p games.Seat, x cards.Card, hand cards.Set) (Bank, Outcome) {
	o := b.Resolve(t, p, x, hand)
	nb := b
	nb.Plays = append(slices.Clip(b.Plays), Play{Seat: p, Card: x, Outcome: o})
	switch {
	case o == Cancel:
		// §6.2 knock-out: x counts as a beater, the bank falls back to the leader; leadBeaten
		// stays true, so no one-below beat on L afterwards.
		nb.Beaters = nb.Beaters.Add(x)
		nb.Top, nb.TopSeat, nb.TopKind = b.L, b.Leader, Lead
	case o.Takes():
		// §6.2 take (kind).
		nb.Top, nb.TopSeat, nb.TopKind = x, p, o
		nb.LeadBeaten = true
		nb.Beaters = nb.Beaters.Add(x)
		if o == Switch {
			// R1e, M-SWITCH: the eight's suit becomes the main suit, the main card stops counting.
			nb.S = x.Suit()
			nb.MainActive = false
		}
	}
	return nb, o
}

// protected is §6.1's Protected: variant 1, the main card still counts and it is its leader's
// own trump (M-PROTECT).
func (b Bank) protected(t Trumps) bool {
	return t.Variant == VariantOwn && b.MainActive && t.Level(b.L, b.Leader) > 0
}

// levelOK is §6.1's LevelOK(x, p, top, topSeat): in shared variants a card never beats one of a
// higher trump level (M-LEVEL).
func (b Bank) levelOK(t Trumps, x cards.Card, p games.Seat) bool {
	return !t.IsShared() || t.Level(x, p) >= t.Level(b.Top, b.TopSeat)
}

// Resolve is what card x played by seat p (hand = p's cards before the play, x included) does to
// the bank: the first of the rules R1–R5 of magister.md §6.2 that matches decides.
func (b Bank) Resolve(t Trumps, p games.Seat, x cards.Card, hand cards.Set) Outcome {
	switch {
	case x.Rank() == 8:
		return b.r1(t, p, x, hand)
	case x.Suit() == b.S:
		return b.r2(t, p, x)
	case b.MainActive && x.Rank() == b.L.Rank():
		return b.r3(t, p, x)
	case t.Level(x, p) > 0:
		return b.r4(t, p, x)
	}
	// R5: anything else is a discard.
	return None
}

// r1 is R1, an eight.
func (b Bank) r1(t Trumps, p games.Seat, x cards.Card, hand cards.Set) Outcome {
	// R1a: an off-suit eight while holding the (current) main suit: no effect (M-EIGHT).
	if x.Suit() != b.S && !hand.Suit(b.S).Empty() {
		return None
	}
	// R1b: only the Q and K of its own suit stop an eight.
	if b.Top.Suit() == x.Suit() && (b.Top.Rank() == cards.Queen || b.Top.Rank() == cards.King) {
		return None
	}
	// R1c: the level rule (M-LEVEL), against the card on top and, while it counts, the main card.
	if !b.levelOK(t, x, p) || (t.IsShared() && b.MainActive && t.Level(x, p) < t.Level(b.L, b.Leader)) {
		return None
	}
	if x.Suit() == b.S {
		// R1d: an eight of the main suit knocks out a beat it cannot back up against L.
		if b.MainActive && b.TopKind != Lead && !B(x, b.L) {
			return Cancel
		}
		return Eight
	}
	// R1e: an off-suit eight switches the main suit (M-SWITCH).
	return Switch
}

// r2 is R2, a card of the main suit that is not an eight.
func (b Bank) r2(t Trumps, p games.Seat, x cards.Card) Outcome {
	if b.Top.Suit() == b.S {
		// R2a: the card on top is of the main suit.
		if B(x, b.Top) {
			if b.MainActive && b.TopKind != Lead && !B(x, b.L) {
				return Cancel // M-CANCEL
			}
			return Higher
		}
		if OneBelow(x, b.Top) && ((b.TopKind == Lead && !b.LeadBeaten) || b.TopKind == Lower) {
			return Lower // M-LOWER
		}
		return None
	}
	// R2b: an equal-rank or trump beat of another suit holds the bank (M-MAINTRUMP).
	if b.MainActive && b.levelOK(t, x, p) && B(x, b.L) && (b.TopKind == Rank || b.TopKind == Trump) {
		return Higher
	}
	return None
}

// r3 is R3, a card of the main card's rank and another suit, while the main card counts (M-RANK).
func (b Bank) r3(t Trumps, p games.Seat, x cards.Card) Outcome {
	if b.protected(t) {
		return None // M-PROTECT
	}
	switch b.TopKind {
	case Lead, Lower:
		return Rank
	case Rank:
		// M-RANKTRUMP: in variant 1 an ordinary equal-rank card never displaces a trump one; in
		// shared variants the later one always wins (M-SHAREDRANK).
		if t.Variant == VariantOwn && t.Level(b.Top, b.TopSeat) > 0 && t.Level(x, p) == 0 {
			return None
		}
		return Rank
	}
	return None
}

// r4 is R4, a trump of another suit than the main suit (M-TRUMP).
func (b Bank) r4(t Trumps, p games.Seat, x cards.Card) Outcome {
	if b.protected(t) {
		return None // M-PROTECT
	}
	if b.Top.Rank() == 8 {
		return None // nothing but the Q/K of its suit or an eight beats an eight
	}
	if b.Top.Suit() == x.Suit() && !B(x, b.Top) {
		return None // e.g. a trump ten on a six of its own suit
	}
	sx := Seniority(x)
	if sx <= Seniority(b.L) {
		return None
	}
	for _, c := range b.Beaters.Cards() {
		if sx <= Seniority(c) {
			return None
		}
	}
	if t.IsShared() {
		lx := t.Level(x, p)
		if lx < t.Level(b.Top, b.TopSeat) || (b.MainActive && lx < t.Level(b.L, b.Leader)) {
			return None // M-LEVEL
		}
	}
	return Trump
}

// LegalPlays is the set of cards of hand that seat p may play onto bank b (magister.md §7,
// M-DISCARD): any card that takes or knocks out, any card of the current main suit or of the
// main card's rank, and any card at all when he holds neither.
func LegalPlays(b Bank, t Trumps, p games.Seat, hand cards.Set) cards.Set {
	follow := hand.Suit(b.S)
	for _, c := range hand.Cards() {
		if c.Rank() == b.L.Rank() {
			follow = follow.Add(c)
		}
	}
	if follow.Empty() {
		return hand
	}
	legal := follow
	for _, c := range hand.Minus(follow).Cards() {
		if b.Resolve(t, p, c, hand) != None {
			legal = legal.Add(c)
		}
	}
	return legal
}
