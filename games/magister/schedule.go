package magister

import (
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Deals is the number of deals in a game (§2.2): twelve contracts scored negative, then the same
// twelve scored positive.
const Deals = 24

// Contract is one of the twelve deal contracts of §8.1, numbered 1–12 as deals 1–12; each item it
// scores is worth its number in points.
type Contract int

// The twelve contracts of §8.1.
const (
	All       Contract = iota + 1 // every bank taken: 1 (9 cards each)
	KingsJack                     // every K and J: 2
	Sixes                         // every 6: 3
	Hearts                        // every heart: 4
	TensAces                      // every 10 and A: 5
	JackKing                      // J♦, Q♦, K♦: 6
	Queens                        // every Q: 7
	Eights                        // every 8: 8
	QueenSp                       // Q♠: 9 (M-DEAL9)
	KingHt                        // K♥: 10 (M-DEAL10)
	LastTwo                       // each of the last two banks: 11
	Max                           // most card points: 12 (§8.3)
)

var contractIDs = [...]string{"", "all", "kj", "sixes", "hearts", "tenace", "jkd", "queens", "eights", "qs", "kh", "lasttwo", "max"}

// ID is the contract's stable id, used in message ids ("magister.deal.kj").
func (c Contract) ID() string {
	if c < All || c > Max {
		return "?"
	}
	return contractIDs[c]
}

// ContractOf is the contract of deal d (1–24): deal n and n+12 are the same contract (§8.1).
func ContractOf(d int) Contract { return Contract((d-1)%12 + 1) }

// Sign is −1 in deals 1–12 and +1 in deals 13–24 (§2.2).
func Sign(d int) int {
	if d <= 12 {
		return -1
	}
	return 1
}

// Value is what one scoring item of the contract is worth, unsigned (§8.1).
func (c Contract) Value() int { return int(c) }

// Total is the contract's unsigned point total, the same for every player count (§8.1); the
// twelve add up to 244 per half (M-TOTAL).
func (c Contract) Total() int {
	switch c {
	case All:
		return 9
	case LastTwo:
		return 22
	case Max:
		return 12
	}
	return c.ScoringCards().Len() * c.Value()
}

// DealTotal is deal d's signed total (ВОП): sign(d) × Total.
func DealTotal(d int) int { return Sign(d) * ContractOf(d).Total() }

// HalfTotal is the unsigned total of one half (M-TOTAL: 244, not the seed's misadded 224).
const HalfTotal = 244

// ScoringCards are the cards that carry the contract's points, empty for the contracts that score
// banks or card points (All, LastTwo, Max).
func (c Contract) ScoringCards() cards.Set {
	var s cards.Set
	for _, x := range Pack() {
		if c.scores(x) {
			s = s.Add(x)
		}
	}
	return s
}

func (c Contract) scores(x cards.Card) bool {
	r := x.Rank()
	switch c {
	case KingsJack:
		return r == cards.King || r == cards.Jack
	case Sixes:
		return r == 6
	case Hearts:
		return x.Suit() == cards.Hearts
	case TensAces:
		return r == 10 || r == cards.Ace
	case JackKing:
		return x.Suit() == cards.Diamonds && (r == cards.Jack || r == cards.Queen || r == cards.King)
	case Queens:
		return r == cards.Queen
	case Eights:
		return r == 8
	case QueenSp:
		return x == cards.French(cards.Spades, cards.Queen)
	case KingHt:
		return x == cards.French(cards.Hearts, cards.King)
	}
	return false
}

// EndsEarly reports whether the contract's deals end once all its scoring cards are taken
// (M-EARLYEND: deals 2–10 and 14–22).
func (c Contract) EndsEarly() bool { return c >= KingsJack && c <= KingHt }

// HandSize is the number of cards each of n players gets in a deal of contract c (§2.4): 9 in the
// "All" deals, else the whole pack, 36/n. It is also the number of banks of the deal
// (M-DEALBANKS).
func HandSize(c Contract, n int) int {
	if c == All {
		return 9
	}
	return 36 / n
}

// BanksPerHalf is ВВПИ of §9: 396/n + 9 banks in a half.
func BanksPerHalf(n int) int { return 396/n + 9 }

// MaxCount is a player's count in a Max deal (§8.3): the card points of the cards he took plus 10
// for every bank of four cards of one suit he took (M-BONUS).
func MaxCount(taken cards.Set, fourSuitBanks int) int {
	n := 10 * fourSuitBanks
	for _, c := range taken.Cards() {
		n += CardPoints(c)
	}
	return n
}

// MaxSplit gives the Max deal's 12 points, unsigned, to the highest counts, split equally among
// ties (§8.3, M-MAX: 12/k is an integer for k ≤ 4).
func MaxSplit(counts []int) []int {
	best, k := -1, 0
	for _, c := range counts {
		switch {
		case c > best:
			best, k = c, 1
		case c == best:
			k++
		}
	}
	out := make([]int, len(counts))
	for i, c := range counts {
		if c == best {
			out[i] = Max.Total() / k
		}
	}
	return out
}

// FourOfASuit reports whether a bank is four cards of one suit (M-BONUS: only with 4 players).
func FourOfASuit(bank cards.Set) bool {
	if bank.Len() != 4 {
		return false
	}
	for _, s := range cards.Suits {
		if bank.Suit(s).Len() == 4 {
			return true
		}
	}
	return false
}

// DealPoints are the unsigned points of each player in a deal of contract c (§8.1): taken is the
// cards of the banks each player took, banks how many banks, lastTwo how many of the deal's last
// two banks, fours how many four-of-a-suit banks (Max).
func DealPoints(c Contract, taken []cards.Set, banks, lastTwo, fours []int) []int {
	out := make([]int, len(taken))
	switch c {
	case All:
		for i := range out {
			out[i] = banks[i] * c.Value()
		}
	case LastTwo:
		for i := range out {
			out[i] = lastTwo[i] * c.Value()
		}
	case Max:
		counts := make([]int, len(taken))
		for i := range counts {
			counts[i] = MaxCount(taken[i], fours[i])
		}
		return MaxSplit(counts)
	default:
		sc := c.ScoringCards()
		for i := range out {
			out[i] = taken[i].Intersect(sc).Len() * c.Value()
		}
	}
	return out
}
