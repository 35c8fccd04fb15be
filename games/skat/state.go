package skat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Name is the game id.
const Name = "skat"

// formatVersion is written into every marshalled state so a future layout can be told apart.
const formatVersion = 1

type rules struct{}

// Rules returns Robber Skat for 3 or 4 players (skat.md).
func Rules() games.Rules { return rules{} }

// Name, Seats and Options describe the game to the lobby.
func (rules) Name() string            { return Name }
func (rules) Seats() (int, int)       { return 3, 4 }
func (rules) Options() []games.Option { return options() }

// Version is the rules version; bump it whenever a change could replay a stored log differently.
func (rules) Version() int { return 2 }

// New deals the first deal of a match; the first dealer is drawn from the seed (§1).
func (r rules) New(cfg games.Config, seed uint64) (games.State, error) {
	set, err := parseConfig(r, cfg)
	if err != nil {
		return nil, fmt.Errorf("skat: %w", err)
	}
	st := &state{V: formatVersion, Cfg: set, Seed: seed, Totals: make([]int, set.Players)}
	st.Dealer = games.Seat(cards.Stream(seed, cards.Dealer, 1).IntN(set.Players))
	st.deal()
	return st, nil
}

// Unmarshal restores a state written by MarshalBinary.
func (rules) Unmarshal(b []byte) (games.State, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	st := &state{}
	if err := dec.Decode(st); err != nil {
		return nil, fmt.Errorf("skat: %w: %v", games.ErrCorrupt, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("skat: %w: trailing data", games.ErrCorrupt)
	}
	if err := st.check(); err != nil {
		return nil, fmt.Errorf("skat: %w: %v", games.ErrCorrupt, err)
	}
	if st.Phase == phAuction {
		st.bids = BidValues(st.Cfg.Variant)
	}
	return st, nil
}

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

// call is one auction call, for the table.
type call struct {
	Seat games.Seat `json:"s"`
	Kind string     `json:"k"` // bid, hold, pass
	N    int        `json:"n,omitempty"`
}

// trick is a finished trick: the cards in playing order from the leader, and its winner.
type trick struct {
	Leader games.Seat   `json:"l"`
	Cards  []cards.Card `json:"c"`
	Winner games.Seat   `json:"w"`
}

// state is one moment of a match. It is immutable once returned: Apply works on a clone.
type state struct {
	V        int          `json:"v"`
	Cfg      settings     `json:"cfg"`
	Seed     uint64       `json:"seed"`
	Deal     int          `json:"deal"` // 1-based
	Dealer   games.Seat   `json:"dealer"`
	Phase    phase        `json:"phase"`
	Hands    []cards.Set  `json:"hands"`
	Skat     cards.Set    `json:"skat"`  // the two cards on the table: the original skat or the laid-away cards
	Skat0    cards.Set    `json:"skat0"` // the skat as dealt
	Auction  Auction      `json:"auction"`
	Calls    []call       `json:"calls"`
	Declarer games.Seat   `json:"declarer"` // Nobody in Ramsch and before the auction ends
	Bid      int          `json:"bid"`
	Contract Contract     `json:"contract"`
	Taken    bool         `json:"taken"` // the declarer picked up the skat
	Leader   games.Seat   `json:"leader"`
	Trick    []cards.Card `json:"trick"`
	History  []trick      `json:"history"`
	Won      []cards.Set  `json:"won"` // cards won in tricks, per seat
	Rows     []row        `json:"rows"`
	Totals   []int        `json:"totals"`

	bids []int // BidValues(Cfg.Variant) while the auction runs; derived, never marshalled
}

// bidValues is the §4.4 ladder of this table.
func (st *state) bidValues() []int {
	if st.bids == nil {
		return BidValues(st.Cfg.Variant)
	}
	return st.bids
}

// row is one deal of the score sheet (§14): enough to settle it again (Settle is pure) and to
// write its line.
type row struct {
	Deal     int        `json:"n"`
	Dealer   games.Seat `json:"d"`
	Kind     string     `json:"k"` // game, ramsch, thrown
	Declarer games.Seat `json:"s"`
	Bid      int        `json:"b,omitempty"`
	Contract Contract   `json:"c"`
	Held     cards.Set  `json:"h,omitempty"`  // the declarer's dealt cards and the original skat
	Points   []int      `json:"p"`            // card points per seat (Ramsch) or [declarer, opponents]
	Tricks   int        `json:"t,omitempty"`  // the declarer's tricks
	Skat     cards.Set  `json:"sk,omitempty"` // the skat turned up at the end
	Scores   []int      `json:"x"`            // score change per seat
}

// outcome settles a declared game's row again.
func (r row) outcome(v Variant) Outcome {
	return Settle(v, r.Contract, r.Held, r.Points[0], r.Tricks, r.Bid)
}

// check rejects a decoded state whose shape cannot be played on.
func (st *state) check() error {
	n := st.Cfg.Players
	switch {
	case st.V != formatVersion:
		return fmt.Errorf("version %d", st.V)
	case n < 3 || n > 4 || st.Cfg.Deals <= 0:
		return fmt.Errorf("players %d deals %d", n, st.Cfg.Deals)
	case len(st.Hands) != n || len(st.Won) != n || len(st.Totals) != n:
		return fmt.Errorf("seat slices do not match %d players", n)
	case st.Phase < phAuction || st.Phase > phOver:
		return fmt.Errorf("phase %d", st.Phase)
	case st.Dealer < 0 || int(st.Dealer) >= n || st.Deal < 1 || st.Deal > st.Cfg.Deals:
		return fmt.Errorf("dealer %d deal %d", st.Dealer, st.Deal)
	case st.Cfg.Variant.GrandBase <= 0 || st.Cfg.Variant.NullOuvert <= 0:
		return fmt.Errorf("variant %+v", st.Cfg.Variant)
	case len(st.Trick) > 2 || len(st.History) > 10:
		return fmt.Errorf("trick %d history %d", len(st.Trick), len(st.History))
	}
	var all cards.Set
	count := 0
	for _, z := range st.Zones() {
		all, count = all.Union(z), count+z.Len()
	}
	if all != st.Deck() || count != 32 {
		return fmt.Errorf("cards not conserved")
	}
	seat := func(s games.Seat) bool { return s == games.Nobody || (s >= 0 && int(s) < n) }
	if !seat(st.Declarer) || !seat(st.Leader) {
		return fmt.Errorf("seat out of range")
	}
	if st.Phase >= phSkat && st.Phase <= phAnnounce && st.Declarer == games.Nobody {
		return fmt.Errorf("no declarer in phase %d", st.Phase)
	}
	for _, r := range st.Rows {
		if len(r.Scores) != n || (r.Kind == "game" && len(r.Points) != 2) {
			return fmt.Errorf("bad row %+v", r)
		}
	}
	return nil
}

// MarshalBinary writes the state as JSON of its fields: deterministic, and readable in a dump.
func (st *state) MarshalBinary() ([]byte, error) { return json.Marshal(st) }

// clone copies what Apply changes in place (the per-seat slices) and clips the append-only ones
// (calls, trick, history, rows), so an append on the copy reallocates instead of writing into
// the receiver's arrays.
func (st *state) clone() *state {
	c := *st
	c.Hands = slices.Clone(st.Hands)
	c.Won = slices.Clone(st.Won)
	c.Totals = slices.Clone(st.Totals)
	c.Calls = slices.Clip(st.Calls)
	c.Trick = slices.Clip(st.Trick)
	c.History = slices.Clip(st.History)
	c.Rows = slices.Clip(st.Rows)
	return &c
}

// seat is the seat playing role r in this deal (§1): forehand left of the dealer, then
// middlehand, then rearhand, who is the dealer himself at a 3-player table.
func (st *state) seat(r Role) games.Seat {
	return games.Seat((int(st.Dealer) + 1 + int(r)) % st.Cfg.Players)
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

// deal starts the next deal: the §3 packets 3 – skat 2 – 4 – 3 from a shuffled pack.
func (st *state) deal() {
	st.Deal++
	st.Phase = phAuction
	st.Hands = make([]cards.Set, st.Cfg.Players)
	st.Won = make([]cards.Set, st.Cfg.Players)
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
	if st.bids == nil {
		st.bids = BidValues(st.Cfg.Variant)
	}
	st.Calls = nil
	st.Declarer, st.Bid, st.Contract, st.Taken = games.Nobody, 0, Contract{}, false
	st.Leader, st.Trick, st.History = st.seat(Forehand), nil, nil
}

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
		return []games.Seat{st.turn()}
	}
	return []games.Seat{st.Declarer}
}

// turn is the seat to play to the current trick.
func (st *state) turn() games.Seat {
	return st.seat((st.role(st.Leader) + Role(len(st.Trick))) % 3)
}

// announceKinds maps a contract's announcements to its action kind.
func announceKind(c Contract) string {
	k := "simple"
	switch {
	case c.Schwarz:
		k = "schwarz"
	case c.Schneider:
		k = "schneider"
	}
	if c.Open {
		if k == "simple" {
			return "open"
		}
		return "open" + k
	}
	return k
}

// gameKinds are the §5 games in button order and their action kinds.
var gameKinds = []Kind{Clubs, Spades, Hearts, Diamonds, Grand, Null, NullOuvert}

func gameAction(k Kind) string {
	if k == NullOuvert {
		return "nullouvert"
	}
	return k.String()
}

// Legal lists what s may do now, in button order; nil for everybody else.
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
			out = append(out, games.Do(gameAction(k)))
		}
		return out
	case phAnnounce:
		var out []games.Action
		for _, c := range Announcements(st.Cfg.Variant, st.Contract.Kind, !st.Taken) {
			out = append(out, games.Do(announceKind(c)))
		}
		return out
	case phPlay:
		var led cards.Card
		if len(st.Trick) > 0 {
			led = st.Trick[0]
		}
		var out []games.Action
		legal := LegalPlays(st.Contract.Kind, st.Hands[s], led)
		for _, c := range SortHand(st.Contract.Kind, legal) {
			out = append(out, games.With("play", c))
		}
		return out
	}
	return nil
}
