package search

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// toy is a small trick game with hidden cards and an honest Redeal: two players hold three cards
// each of nine spades, three lie hidden in a stock; each trick the leader plays, the other answers,
// the higher card wins a point and leads next. The deal is the match.
type toyRules struct{}

func (toyRules) Name() string                          { return "toy" }
func (toyRules) Version() int                          { return 1 }
func (toyRules) Seats() (int, int)                     { return 2, 2 }
func (toyRules) Options() []games.Option               { return nil }
func (toyRules) Unmarshal([]byte) (games.State, error) { return nil, games.ErrCorrupt }

func (toyRules) New(cfg games.Config, seed uint64) (games.State, error) {
	deck := cards.ShuffleWith(toyDeck().Cards(), cards.Stream(seed, cards.Deal, 1))
	return &toyState{
		Hands: [2]cards.Set{cards.SetOf(deck[:3]...), cards.SetOf(deck[3:6]...)},
		Stock: cards.SetOf(deck[6:]...),
	}, nil
}

func toyDeck() cards.Set {
	var s cards.Set
	for r := cards.Rank(2); r <= 10; r++ {
		s = s.Add(cards.French(cards.Spades, r))
	}
	return s
}

type toyState struct {
	Hands  [2]cards.Set
	Stock  cards.Set
	Lead   games.Seat
	Table  cards.Card `json:",omitempty"` // the card led, or NoCard
	Points [2]int
	Played cards.Set
}

func (st *toyState) over() bool {
	return st.Hands[0].Empty() && st.Hands[1].Empty() && st.Table == cards.NoCard
}

func (st *toyState) turn() games.Seat {
	if st.Table == cards.NoCard {
		return st.Lead
	}
	return 1 - st.Lead
}

func (st *toyState) ToAct() []games.Seat {
	if st.over() {
		return nil
	}
	return []games.Seat{st.turn()}
}

func (st *toyState) Legal(s games.Seat) []games.Action {
	if st.over() || s != st.turn() {
		return nil
	}
	var out []games.Action
	for _, c := range st.Hands[s].Cards() {
		out = append(out, games.With("play", c))
	}
	return out
}

func (st *toyState) Apply(s games.Seat, a games.Action) (games.State, []games.Event, error) {
	if err := games.CheckLegal(st, s, a); err != nil {
		return nil, nil, fmt.Errorf("toy: %w", err)
	}
	n := *st
	n.Hands[s] = n.Hands[s].Remove(a.Card)
	n.Played = n.Played.Add(a.Card)
	if n.Table == cards.NoCard {
		n.Table = a.Card
		return &n, nil, nil
	}
	w := s
	if n.Table.Rank() > a.Card.Rank() {
		w = 1 - s
	}
	n.Points[w]++
	n.Lead, n.Table = w, cards.NoCard
	if n.over() {
		return &n, []games.Event{{Kind: games.EventDealEnd, To: games.Nobody}, {Kind: games.EventMatchEnd, To: games.Nobody}}, nil
	}
	return &n, nil, nil
}

func (st *toyState) View(s games.Seat) games.View {
	v := games.View{Seat: s, Players: 2, ToAct: st.ToAct(), Dealer: games.Nobody,
		Game: toyView{Table: st.Table, Played: st.Played, Points: st.Points}}
	if s >= 0 && s < 2 {
		v.Hand = st.Hands[s].Cards()
	}
	return v
}

// toyView is what every seat sees.
type toyView struct {
	Table  cards.Card
	Played cards.Set
	Points [2]int
}

func (st *toyState) Score() games.Sheet {
	return games.Sheet{Totals: []int{st.Points[0], st.Points[1]}}
}

func (st *toyState) MarshalBinary() ([]byte, error) { return json.Marshal(st) }

func (st *toyState) Zones() []cards.Set {
	return []cards.Set{st.Hands[0], st.Hands[1], st.Stock, st.Played.Remove(st.Table), cards.SetOf(st.Table)}
}

func (st *toyState) Deck() cards.Set { return toyDeck() }

// Redeal deals the cards s cannot see afresh from their union, so the world drawn depends on what
// s knows and on rng only, never on where the hidden cards really lie.
func (st *toyState) Redeal(s games.Seat, rng *rand.Rand) games.State {
	n := *st
	other := 1 - s
	pool := cards.ShuffleWith(st.Hands[other].Union(st.Stock).Cards(), rng)
	k := st.Hands[other].Len()
	n.Hands[other], n.Stock = cards.SetOf(pool[:k]...), cards.SetOf(pool[k:]...)
	return &n
}

// lowest always plays its lowest card: a weak agent the search must beat.
type lowest struct{}

func (lowest) Choose(_ games.View, legal []games.Action, _ *rand.Rand) games.Action {
	return slices.MinFunc(legal, func(a, b games.Action) int { return int(a.Card.Rank()) - int(b.Card.Rank()) })
}

// counting wraps a State and counts every Apply made on it or on the states it leads to.
type counting struct {
	games.State
	applies *int
}

func (c counting) Apply(s games.Seat, a games.Action) (games.State, []games.Event, error) {
	*c.applies++
	n, evs, err := c.State.Apply(s, a)
	if err != nil {
		return nil, evs, err
	}
	return counting{n, c.applies}, evs, nil
}
