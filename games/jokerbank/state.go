package jokerbank

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/joker"
)

// Option keys of the banker game.
const (
	OptCeiling = "ceiling" // the stake ceiling (joker.md version 1, "Table limit"); default 10
	OptRounds  = "rounds"  // session length in rounds, or "open" (J1-END)
)

// Action kinds of the banker game: "stake/N" stakes N units; "stop" (open sessions only) ends
// the session instead of staking.
const (
	KindStake = "stake"
	KindStop  = "stop"
)

type rules struct{}

// Rules is the banker game, version 1 of joker.md: game id "jokerbank".
func Rules() games.Rules { return rules{} }

// Name is the game id.
func (rules) Name() string { return "jokerbank" }

// Version is the rules version; bump it whenever a change could replay a stored log differently.
func (rules) Version() int { return 2 }

// Seats: 2 to 10 players (joker.md version 1, "Money": the bot limit).
func (rules) Seats() (int, int) { return 2, 10 }

// Options: the stake ceiling ("Table limit") and the session length (J1-END).
func (rules) Options() []games.Option {
	return []games.Option{
		{Key: OptCeiling, Values: []string{"5", "10", "20", "50"}, Default: "10"},
		{Key: OptRounds, Values: []string{"10", "20", "30", "50", "open"}, Default: "20"},
	}
}

// bankRound is one settled round.
type bankRound struct {
	Round  int        `json:"r"`
	Banker games.Seat `json:"b"`
	Hit    int        `json:"h"` // 1-based turn of the hit, 0 after fourteen misses
	Deltas []int      `json:"d"` // per seat, the banker's included
}

// drawn is one card drawn for the first banker.
type drawn struct {
	Seat games.Seat `json:"s"`
	Card cards.Card `json:"c"`
}

// state is the whole serialisable state of a jokerbank table.
type state struct {
	N       int          `json:"n"`
	Ceiling int          `json:"ceiling"`
	Rounds  int          `json:"rounds"` // 0: open session
	Seed    uint64       `json:"seed"`
	Draws   [][]drawn    `json:"draws"` // the draw for the first banker, per draw round
	Banker  games.Seat   `json:"banker"`
	Round   int          `json:"round"`  // 1-based, the round being staked
	Stakes  []int        `json:"stakes"` // 0: not staked yet (hidden from the other seats)
	Money   []int        `json:"money"`
	History []bankRound  `json:"history,omitempty"`
	Turned  []cards.Card `json:"turned,omitempty"` // the cards turned in the last round
	Over    bool         `json:"over,omitempty"`
	Stopper games.Seat   `json:"stopper"` // who ended an open session, or Nobody
}

// New draws the first banker and opens round 1 for stakes.
func (r rules) New(cfg games.Config, seed uint64) (games.State, error) {
	if err := games.Validate(r, cfg); err != nil {
		return nil, fmt.Errorf("jokerbank: %w", err)
	}
	opts := r.Options()
	ceil, _ := strconv.Atoi(cfg.Get(opts, OptCeiling))
	rounds, _ := strconv.Atoi(cfg.Get(opts, OptRounds)) // "open" reads as 0
	st := &state{
		N: cfg.Players, Ceiling: ceil, Rounds: rounds, Seed: seed, Round: 1,
		Stakes: make([]int, cfg.Players), Money: make([]int, cfg.Players), Stopper: games.Nobody,
	}
	st.Draws, st.Banker = drawBanker(cfg.Players, seed)
	return st, nil
}

// drawBanker is the draw for the first banker (joker.md version 1, "Choosing the first banker",
// J1-BANKER): every player draws a card, the highest is banker; the tied highest draw again.
func drawBanker(n int, seed uint64) ([][]drawn, games.Seat) {
	drawing := make([]bool, n)
	for i := range drawing {
		drawing[i] = true
	}
	var draws [][]drawn
	for k := uint64(1); ; k++ {
		deck := cards.ShuffleWith(joker.Pack(), cards.Stream(seed, cards.Dealer, k))
		var row []drawn
		hi := 0
		for s := range n {
			if drawing[s] {
				row = append(row, drawn{games.Seat(s), deck[len(row)]})
				hi = max(hi, DrawRank(deck[len(row)-1]))
			}
		}
		draws = append(draws, row)
		var top []games.Seat
		for _, d := range row {
			drawing[d.Seat] = DrawRank(d.Card) == hi
			if drawing[d.Seat] {
				top = append(top, d.Seat)
			}
		}
		if len(top) == 1 {
			return draws, top[0]
		}
	}
}

// Unmarshal restores a state; bytes that do not describe one wrap games.ErrCorrupt.
func (rules) Unmarshal(b []byte) (games.State, error) {
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("jokerbank: %w: %v", games.ErrCorrupt, err)
	}
	n := st.N
	if n < 2 || n > 10 || len(st.Stakes) != n || len(st.Money) != n || st.Banker < 0 ||
		int(st.Banker) >= n || st.Ceiling < 1 || st.Ceiling > 100 || st.Rounds < 0 || st.Round < 1 {
		return nil, fmt.Errorf("jokerbank: %w: inconsistent state", games.ErrCorrupt)
	}
	for _, h := range st.History {
		if len(h.Deltas) != n || h.Banker < 0 || int(h.Banker) >= n {
			return nil, fmt.Errorf("jokerbank: %w: round with wrong width", games.ErrCorrupt)
		}
	}
	for _, c := range st.Turned {
		if !c.Valid() {
			return nil, fmt.Errorf("jokerbank: %w: bad turned card", games.ErrCorrupt)
		}
	}
	for _, row := range st.Draws {
		for _, d := range row {
			if d.Seat < 0 || int(d.Seat) >= n || !d.Card.Valid() {
				return nil, fmt.Errorf("jokerbank: %w: draw by seat %d", games.ErrCorrupt, d.Seat)
			}
		}
	}
	return &st, nil
}

// MarshalBinary is deterministic JSON.
func (st *state) MarshalBinary() ([]byte, error) { return json.Marshal(st) }

func (st *state) clone() *state {
	c := *st
	c.Stakes = slices.Clone(st.Stakes)
	c.Money = slices.Clone(st.Money)
	c.History = slices.Clip(st.History) // append-only
	return &c
}

// punters lists the punters in seat order from the banker's left (joker.md version 1, "One round").
func (st *state) punters() []games.Seat {
	out := make([]games.Seat, 0, st.N-1)
	for i := 1; i < st.N; i++ {
		out = append(out, games.Seat((int(st.Banker)+i)%st.N))
	}
	return out
}

// ToAct is every punter who has not staked yet: stakes are placed at the same time.
func (st *state) ToAct() []games.Seat {
	if st.Over {
		return nil
	}
	var out []games.Seat
	for s := range games.Seat(st.N) {
		if s != st.Banker && st.Stakes[s] == 0 {
			out = append(out, s)
		}
	}
	return out
}

// Legal: a punter who has not staked yet may stake 1..ceiling (and stop an open session).
func (st *state) Legal(s games.Seat) []games.Action {
	if st.Over || s < 0 || int(s) >= st.N || s == st.Banker || st.Stakes[s] != 0 {
		return nil
	}
	out := make([]games.Action, 0, st.Ceiling+1)
	for v := 1; v <= st.Ceiling; v++ {
		out = append(out, games.Num(KindStake, v)) // joker.md version 1, "One round" step 2
	}
	if st.Rounds == 0 {
		out = append(out, games.Do(KindStop)) // J1-END: an open session runs until a player ends it
	}
	return out
}

// Apply records a stake; the last one plays and settles the round.
func (st *state) Apply(s games.Seat, a games.Action) (games.State, []games.Event, error) {
	if err := games.CheckLegal(st, s, a); err != nil {
		return nil, nil, fmt.Errorf("jokerbank: seat %d %v: %w", s, a, err)
	}
	n := st.clone()
	if a.Kind == KindStop {
		n.Over, n.Stopper = true, s
		n.Stakes = make([]int, n.N) // the unfinished round is void; its stakes are never shown
		return n, []games.Event{{Kind: games.EventMatchEnd, To: games.Nobody,
			Msg: games.M("jokerbank.ev.stopped", "Seat", s, "Lines", n.moneyLines())}}, nil
	}
	n.Stakes[s] = int(a.N)
	evs := []games.Event{{Kind: games.EventInfo, To: games.Nobody, Msg: games.M("jokerbank.ev.staked", "Seat", s)}}
	if len(n.ToAct()) > 0 {
		return n, evs, nil
	}
	return n, n.playRound(evs), nil
}

// playRound reveals the stakes, turns cards until a hit or fourteen misses, settles and starts the
// next round (joker.md version 1, "One round", "Settlement").
func (st *state) playRound(evs []games.Event) []games.Event {
	var lines []games.Msg
	stakes := make([]int, 0, st.N-1)
	for _, p := range st.punters() {
		lines = append(lines, games.M("jokerbank.stakeof", "Seat", p, "N", st.Stakes[p]))
		stakes = append(stakes, st.Stakes[p])
	}
	evs = append(evs, games.Event{Kind: games.EventInfo, To: games.Nobody,
		Msg: games.M("jokerbank.ev.stakes", "Lines", lines, "Seat", st.Banker)})
	deck := cards.Shuffle(joker.Pack(), st.Seed, uint64(st.Round)) // step 1: a fresh shuffle each round
	set := Settle(stakes, deck)
	turned := deck[:Turns]
	if set.Hit > 0 {
		turned = deck[:set.Hit]
	}
	for i, c := range turned {
		id := "jokerbank.ev.miss"
		if IsHit(i+1, c) {
			id = "jokerbank.ev.hit"
		}
		evs = append(evs, games.Event{Kind: games.EventInfo, To: games.Nobody,
			Msg: games.M(id, "N", i+1, "Call", callMsg(i+1), "Card", c)})
	}
	st.Turned = slices.Clone(turned)
	r := bankRound{Round: st.Round, Banker: st.Banker, Hit: set.Hit, Deltas: make([]int, st.N)}
	r.Deltas[st.Banker] = set.Banker
	for i, p := range st.punters() {
		r.Deltas[p] = set.Deltas[i]
	}
	for s, d := range r.Deltas {
		st.Money[s] += d
	}
	st.History = append(st.History, r)
	evs = append(evs, games.Event{Kind: games.EventDealEnd, To: games.Nobody, Msg: roundMsg(r)})
	for s := range games.Seat(st.N) {
		evs = append(evs, games.Event{Kind: games.EventDealEnd, To: games.Nobody,
			Msg: games.M("jokerbank.ev.delta", "Seat", s, "Delta", signed(r.Deltas[s]), "Total", st.Money[s])})
	}
	if set.PassesLeft {
		st.Banker = games.Seat((int(st.Banker) + 1) % st.N) // the bank passes to the left
		evs = append(evs, games.Event{Kind: games.EventDealEnd, To: games.Nobody,
			Msg: games.M("jokerbank.ev.pass", "Seat", st.Banker)})
	}
	st.Stakes = make([]int, st.N)
	if st.Rounds > 0 && st.Round >= st.Rounds {
		st.Over = true
		evs = append(evs, games.Event{Kind: games.EventMatchEnd, To: games.Nobody,
			Msg: games.M("jokerbank.ev.end", "Count", st.Round, "Lines", st.moneyLines())})
		return evs
	}
	st.Round++
	return evs
}

// callMsg is the banker's call on turn 1..14: Joker, Ace, King … Two.
func callMsg(turn int) games.Msg {
	if turn == 1 {
		return games.M("jokerbank.call.joker")
	}
	return games.M("jokerbank.call." + CalledRank(turn).String())
}

// roundMsg is the headline of a settled round.
func roundMsg(r bankRound) games.Msg {
	switch {
	case r.Hit == 1:
		return games.M("jokerbank.ev.double", "Seat", r.Banker, "N", r.Deltas[r.Banker])
	case r.Hit > 1:
		return games.M("jokerbank.ev.won", "Seat", r.Banker, "N", r.Deltas[r.Banker], "Turn", r.Hit)
	}
	return games.M("jokerbank.ev.lost", "Seat", r.Banker, "N", -r.Deltas[r.Banker])
}

// moneyLines is everybody's running money.
func (st *state) moneyLines() []games.Msg {
	out := make([]games.Msg, st.N)
	for s := range games.Seat(st.N) {
		out[s] = games.M("jokerbank.t.moneyof", "Seat", s, "N", st.Money[s])
	}
	return out
}

// signed writes a money change with its sign ("+10", "-30") for messages.
func signed(n int) string { return fmt.Sprintf("%+d", n) }
