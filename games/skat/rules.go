package skat

import (
	"fmt"
	"strconv"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Name is the game id, persisted with every table.
const Name = "skat"

// version is the rules version Rules reports; bump it whenever a change could replay a stored
// log differently (the pins in testdata/pins fail until it is bumped and re-pinned).
const version = 2

type rules struct{}

// Rules returns Robber Skat for 3 or 4 players (skat.md).
func Rules() games.Rules { return rules{} }

// Name is the game id.
func (rules) Name() string { return Name }

// Seats is 3 or 4 players: with four, the dealer sits out each deal (§1).
func (rules) Seats() (int, int) { return 3, 4 }

// Options are the preset, every §16 switch and the match length.
func (rules) Options() []games.Option { return options() }

// Version is the rules version, stored with every table.
func (rules) Version() int { return version }

// Agent is the game's computer player, so the bot plays Skat with it rather than at random.
func (rules) Agent() games.Agent { return Agent{} }

// New deals the first deal of a match; the first dealer is drawn from the seed (§1).
func (r rules) New(cfg games.Config, seed uint64) (games.State, error) {
	set, err := parseConfig(r, cfg)
	if err != nil {
		return nil, fmt.Errorf("skat: %w", err)
	}
	st := &state{Cfg: set, Seed: seed, Dealer: firstDealer(seed, set.Players),
		bids: BidValues(set.Variant)}
	st.deal()
	return st, nil
}

// firstDealer is the seat drawn by lot to deal first (§1).
func firstDealer(seed uint64, players int) games.Seat {
	return games.Seat(cards.Stream(seed, cards.Dealer, 1).IntN(players))
}

// Unmarshal restores a state written by MarshalBinary, and refuses anything else (see decode).
func (rules) Unmarshal(b []byte) (games.State, error) {
	st, err := decode(b)
	if err != nil {
		return nil, fmt.Errorf("skat: %w: %v", games.ErrCorrupt, err)
	}
	return st, nil
}

// Option keys. Every §16 switch of skat.md is an option; OptPreset picks the values of the
// switches left at "preset", and OptDeals is the match length.
const (
	OptPreset          = "preset"
	OptGrandBase       = "grand_base"
	OptNullOuvertValue = "null_ouvert_value"
	OptSchneiderMin    = "schneider_min_points"
	OptAnnounceLevels  = "announce_levels"
	OptAnnounceHand    = "announce_requires_hand"
	OptOpenMode        = "open_mode"
	OptLossScoring     = "loss_scoring"
	OptRamschMandatory = "ramsch_mandatory"
	OptDeals           = "match_deals"
)

// Preset values: the seed's rules and the International Skat Order.
const (
	PresetSeed = "seed"
	PresetISkO = "isko"
	// FromPreset is every switch's default: "whatever the preset says".
	FromPreset = "preset"
)

// dealCounts are the match lengths offered (skat.md §14: a multiple of the player count).
var dealCounts = []string{"3", "4", "6", "8", "12", "24", "36", "48"}

// Variant is the resolved set of §16 switches a table plays with. Every rule that an option can
// change reads it; the zero value is not a valid variant, use Seed or ISkO.
type Variant struct {
	GrandBase         int  `json:"g"`            // skat.md D1: 20 (seed) or 24
	NullOuvert        int  `json:"no"`           // D2: 24 (seed) or 46
	SchneiderMin      int  `json:"sm"`           // D4: 91 (seed) or 90
	ISkOLevels        bool `json:"il,omitempty"` // D5: levels 1/2/2/3/4 instead of 1/2/3/4/5
	AnnounceNeedsHand bool `json:"ah,omitempty"` // D6: schneider/schwarz announced in hand games only
	ISkOOpen          bool `json:"io,omitempty"` // D7: open needs schwarz announced and adds 1, not ×2
	ISkOLoss          bool `json:"ls,omitempty"` // D8: a lost game costs twice its value, not the bid
	RamschMandatory   bool `json:"rm,omitempty"` // §4.5: forehand may not throw the deal in
}

// Seed is the rules of skat.md with every switch at its default.
func Seed() Variant {
	return Variant{GrandBase: 20, NullOuvert: 24, SchneiderMin: 91}
}

// ISkO is every switch set to the International Skat Order (the "isko" preset). Ramsch stays
// optional: the ISkO has no Ramsch and throws a passed-out deal in.
func ISkO() Variant {
	return Variant{GrandBase: 24, NullOuvert: 46, SchneiderMin: 90, ISkOLevels: true,
		AnnounceNeedsHand: true, ISkOOpen: true, ISkOLoss: true}
}

// switches lists each §16 switch with its values (after "preset"): the first value is the seed's.
var switches = []struct {
	key    string
	values [2]string
}{
	{OptGrandBase, [2]string{"20", "24"}},
	{OptNullOuvertValue, [2]string{"24", "46"}},
	{OptSchneiderMin, [2]string{"91", "90"}},
	{OptAnnounceLevels, [2]string{"seed", "isko"}},
	{OptAnnounceHand, [2]string{"false", "true"}},
	{OptOpenMode, [2]string{"seed", "isko"}},
	{OptLossScoring, [2]string{"seed", "isko"}},
	{OptRamschMandatory, [2]string{"false", "true"}},
}

func options() []games.Option {
	opts := []games.Option{{Key: OptPreset, Values: []string{PresetSeed, PresetISkO}, Default: PresetSeed}}
	for _, sw := range switches {
		opts = append(opts, games.Option{Key: sw.key,
			Values: []string{FromPreset, sw.values[0], sw.values[1]}, Default: FromPreset})
	}
	return append(opts, games.Option{Key: OptDeals, Values: dealCounts, Default: "12"})
}

// settings are a table's configuration as the engine reads it.
type settings struct {
	Players int     `json:"p"`
	Deals   int     `json:"n"`
	Variant Variant `json:"v"`
}

// parseConfig validates cfg and resolves the preset and the switches into a Variant: a switch at
// "preset" takes the preset's value, any other value overrides the preset.
func parseConfig(r games.Rules, cfg games.Config) (settings, error) {
	if err := games.Validate(r, cfg); err != nil {
		return settings{}, err
	}
	opts := r.Options()
	v := Seed()
	if cfg.Get(opts, OptPreset) == PresetISkO {
		v = ISkO()
	}
	pick := func(key string, cur bool) bool {
		switch cfg.Get(opts, key) {
		case "true", "isko":
			return true
		case "false", "seed":
			return false
		}
		return cur
	}
	num := func(key string, cur int) int {
		if n, err := strconv.Atoi(cfg.Get(opts, key)); err == nil {
			return n
		}
		return cur
	}
	v.GrandBase = num(OptGrandBase, v.GrandBase)
	v.NullOuvert = num(OptNullOuvertValue, v.NullOuvert)
	v.SchneiderMin = num(OptSchneiderMin, v.SchneiderMin)
	v.ISkOLevels = pick(OptAnnounceLevels, v.ISkOLevels)
	v.AnnounceNeedsHand = pick(OptAnnounceHand, v.AnnounceNeedsHand)
	v.ISkOOpen = pick(OptOpenMode, v.ISkOOpen)
	v.ISkOLoss = pick(OptLossScoring, v.ISkOLoss)
	v.RamschMandatory = pick(OptRamschMandatory, v.RamschMandatory)
	deals, _ := strconv.Atoi(cfg.Get(opts, OptDeals))
	if err := checkDeals(deals, cfg.Players); err != nil {
		return settings{}, fmt.Errorf("%w: skat: %v", games.ErrBadConfig, err)
	}
	return settings{Players: cfg.Players, Deals: deals, Variant: v}, nil
}

// checkDeals checks a match length against the player count: skat.md §14, a multiple of it, so
// everybody deals equally often.
func checkDeals(deals, players int) error {
	if deals <= 0 || deals%players != 0 {
		return fmt.Errorf("%d deals is not a multiple of %d players", deals, players)
	}
	return nil
}
