package skat

import "github.com/kozyr-bot/kozyr/games/cards"

// Contract is what the declarer plays: the game and its announcements (skat.md §5).
type Contract struct {
	Kind      Kind `json:"k,omitempty"`
	Hand      bool `json:"h,omitempty"`  // the skat was not taken
	Open      bool `json:"o,omitempty"`  // the declarer's cards are shown (always true for Null Ouvert)
	Schneider bool `json:"sn,omitempty"` // schneider announced (and not schwarz)
	Schwarz   bool `json:"sw,omitempty"` // schwarz announced
}

// Level is a row of the schneider/schwarz table of skat.md §10.3.
type Level int

// The rows of §10.3, lowest first.
const (
	LevelGame              Level = iota // game only
	LevelSchneider                      // schneider, not announced
	LevelSchwarz                        // schwarz, not announced
	LevelSchneiderAnn                   // schneider announced and made, not schwarz
	LevelSchneiderAnnBlack              // schneider announced, schwarz made
	LevelSchwarzAnn                     // schwarz announced and made
)

// Steps is the multiplier the level adds: the seed's 0..5 (D5), or the ISkO's 0/1/2/2/3/4.
func (l Level) Steps(v Variant) int {
	if v.ISkOLevels {
		return [...]int{0, 1, 2, 2, 3, 4}[l]
	}
	return int(l)
}

// Matadors counts the declarer's matadors in game k (§10.2) from every trump he held, i.e. among
// his ten dealt cards plus the two original skat cards: "with n" when he holds CJ, else "without n".
func Matadors(k Kind, held cards.Set) (n int, with bool) {
	order := TrumpOrder(k)
	if len(order) == 0 {
		return 0, false
	}
	with = held.Has(order[0])
	for _, c := range order {
		if held.Has(c) != with {
			break
		}
		n++
	}
	return n, with
}

// Multiplier is k of §10.3 for a suit game or Grand: game + matadors + hand + level, plus one for
// an open game under the ISkO open mode (D7).
func Multiplier(v Variant, c Contract, matadors int, l Level) int {
	k := 1 + matadors + l.Steps(v)
	if c.Hand {
		k++
	}
	if c.Open && v.ISkOOpen {
		k++
	}
	return k
}

// Value is the game value of §10.4: base × multiplier, doubled for an open suit game or Grand
// under the seed's open mode; the fixed value for Null and Null Ouvert.
func Value(v Variant, c Contract, matadors int, l Level) int {
	if c.Kind.IsNull() {
		return c.Kind.Base(v)
	}
	val := c.Kind.Base(v) * Multiplier(v, c, matadors, l)
	if c.Open && !v.ISkOOpen {
		val *= 2
	}
	return val
}

// reached is the level the declarer's result reaches with his announcements (§10.3), and
// whether the contract of §9 is fulfilled.
func reached(v Variant, c Contract, points, tricks int) (Level, bool) {
	schwarz := tricks == 10
	schneider := points >= v.SchneiderMin
	switch {
	case c.Schwarz:
		return LevelSchwarzAnn, schwarz
	case c.Schneider && schwarz:
		return LevelSchneiderAnnBlack, true
	case c.Schneider:
		return LevelSchneiderAnn, schneider
	case schwarz:
		return LevelSchwarz, true
	case schneider:
		return LevelSchneider, true
	}
	return LevelGame, points >= 61
}

// Outcome is the settlement of one declared game (§9–§12).
type Outcome struct {
	Matadors   int   // n of "with n"/"without n"; 0 in Null games
	With       bool  // "with" (holds CJ) rather than "without"
	Multiplier int   // k of §10.3 (before the open doubling); 0 in Null games
	Level      Level // the schneider/schwarz level counted in Value
	Value      int   // the game value; for a lost game the display value of §10.5
	Fulfilled  bool  // the contract of §9 (61, 91, all tricks, no trick) was met
	Overbid    bool  // fulfilled, but Value < bid (§11)
	Won        bool  // fulfilled and Value ≥ bid
	Score      int   // the declarer's score change (§12)
}

// Settle scores a declared game (§9–§12). held is every card the declarer held (his ten dealt
// cards plus the original skat; only the trumps matter), points his card points including the
// skat (ignored in Null), tricks the tricks he won, bid the auction's bid.
func Settle(v Variant, c Contract, held cards.Set, points, tricks, bid int) Outcome {
	var o Outcome
	if c.Kind.IsNull() {
		// skat.md §9: Null is won by taking no trick with a value that reaches the bid.
		o.Value = c.Kind.Base(v)
		o.Fulfilled = tricks == 0
	} else {
		o.Matadors, o.With = Matadors(c.Kind, held)
		o.Level, o.Fulfilled = reached(v, c, points, tricks)
		if !o.Fulfilled {
			// §10.5: a failed announcement counts its announced level; without one the level
			// reached is the game level.
			switch {
			case c.Schwarz:
				o.Level = LevelSchwarzAnn
			case c.Schneider:
				o.Level = LevelSchneiderAnn
			}
		}
		if !o.Fulfilled && v.ISkOLoss {
			// §10.5 with loss_scoring=isko: schneider/schwarz against the declarer count too.
			switch {
			case tricks == 0:
				o.Level = max(o.Level, LevelSchwarz)
			case points <= 30:
				o.Level = max(o.Level, LevelSchneider)
			}
		}
		o.Multiplier = Multiplier(v, c, o.Matadors, o.Level)
		o.Value = Value(v, c, o.Matadors, o.Level)
	}
	// §11: a fulfilled contract whose value falls short of the bid is overbid and lost.
	o.Overbid = o.Fulfilled && o.Value < bid
	o.Won = o.Fulfilled && !o.Overbid
	o.Score = score(v, c, o, bid)
	return o
}

// score is §12: +value when won; when lost −bid for hand games, −2·bid with the skat taken, or
// under loss_scoring=isko twice the lost value, raised to the smallest multiple of the base value
// that reaches the bid when the value falls short of it.
func score(v Variant, c Contract, o Outcome, bid int) int {
	if o.Won {
		return o.Value
	}
	if v.ISkOLoss {
		val := o.Value
		if base := c.Kind.Base(v); val < bid && base > 0 {
			val = (bid + base - 1) / base * base
		}
		return -2 * val
	}
	if c.Hand || c.Kind.IsNull() {
		return -bid
	}
	return -2 * bid
}

// BidValues is the list of legal bids of §4.4 under v: every value ≥ 18 some game can be worth,
// derived from Value over every contract and outcome rather than hard-coded, so the value
// switches of §16 change it consistently. The four suit games share their multipliers, so they
// are enumerated once (as clubs) and scaled by each suit's base.
func BidValues(v Variant) []int {
	// No game is worth maxValue or more under any switch: the largest is an open Grand with
	// four matadors, hand and schwarz announced at base 24, 528 (TestBidValues checks).
	var seen [maxValue]bool
	mark := func(val int) {
		if val < maxValue {
			seen[val] = true
		}
	}
	mark(Null.Base(v))
	mark(NullOuvert.Base(v))
	suits := [4]int{Diamonds.Base(v), Hearts.Base(v), Spades.Base(v), Clubs.Base(v)}
	for _, k := range []Kind{Clubs, Grand} {
		maxN := 4 // skat.md §10.2: matadors run over 4 trumps in Grand, 11 in a suit game
		if k.IsSuit() {
			maxN = 11
		}
		for _, c := range Contracts(v, k) {
			for _, l := range levelsFor(c) {
				for n := 1; n <= maxN; n++ {
					val := Value(v, c, n, l)
					if k == Grand {
						mark(val)
						continue
					}
					for _, b := range suits {
						mark(val / k.Base(v) * b)
					}
				}
			}
		}
	}
	out := make([]int, 0, 100)
	for val := 18; val < maxValue; val++ {
		if seen[val] {
			out = append(out, val)
		}
	}
	return out
}

// maxValue bounds every game value (see BidValues).
const maxValue = 1024

// levelsFor lists the levels a contract can be won with.
func levelsFor(c Contract) []Level {
	switch {
	case c.Schwarz:
		return winLevels[5:]
	case c.Schneider:
		return winLevels[3:5]
	}
	return winLevels[:3]
}

// winLevels is every level in order, for levelsFor to slice (a constant table).
var winLevels = [...]Level{LevelGame, LevelSchneider, LevelSchwarz, LevelSchneiderAnn,
	LevelSchneiderAnnBlack, LevelSchwarzAnn}

// Contracts lists every contract of kind k that may be declared under v (§5): with the skat taken
// (suit games and Grand only) and as hand games, with each announcement allowed.
func Contracts(v Variant, k Kind) []Contract {
	if k.IsNull() {
		return []Contract{{Kind: k, Hand: true, Open: k == NullOuvert}}
	}
	var out []Contract
	for _, hand := range []bool{false, true} {
		out = append(out, Announcements(v, k, hand)...)
	}
	return out
}

// Announcements lists the contracts of suit game or Grand k the declarer may choose, in the
// order the buttons show them: none, schneider, schwarz, then the open ones (§5, D6, D7).
func Announcements(v Variant, k Kind, hand bool) []Contract {
	base := Contract{Kind: k, Hand: hand}
	out := []Contract{base}
	if hand || !v.AnnounceNeedsHand {
		out = append(out, Contract{Kind: k, Hand: hand, Schneider: true},
			Contract{Kind: k, Hand: hand, Schwarz: true})
	}
	if !hand {
		return out
	}
	if v.ISkOOpen {
		// open_mode=isko: open requires schwarz announced.
		return append(out, Contract{Kind: k, Hand: true, Open: true, Schwarz: true})
	}
	return append(out, Contract{Kind: k, Hand: true, Open: true},
		Contract{Kind: k, Hand: true, Open: true, Schneider: true},
		Contract{Kind: k, Hand: true, Open: true, Schwarz: true})
}
