package joker

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
)

// TestAgentViewIsViewWithoutTexts: over random parties of every size, at every move and for every
// seat (the public included), AgentView is View with its Table and Prompt left out and nothing
// else changed; and the Rollout player, fed AgentView as the search feeds it, always picks a legal
// action without drawing from its rng (it is given none).
func TestAgentViewIsViewWithoutTexts(t *testing.T) {
	every := 1
	if raceBuild {
		every = 7
	}
	checked := 0
	for n := 2; n <= maxSeats; n++ {
		st, err := Rules().New(games.Config{Players: n}, uint64(300+n))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(n), 5))
		for k := 0; len(st.ToAct()) > 0; k++ {
			if k%every == 0 {
				for s := games.Nobody; int(s) < n; s++ {
					want := st.View(s)
					want.Table, want.Prompt = nil, games.Msg{}
					if got := st.(games.AgentViewer).AgentView(s); !reflect.DeepEqual(got, want) {
						t.Fatalf("%d players, move %d, seat %d: AgentView\n%+v\nView without texts\n%+v", n, k, s, got, want)
					}
					checked++
				}
			}
			s := st.ToAct()[0]
			legal := st.Legal(s)
			if a := (Rollout{}).Choose(st.(games.AgentViewer).AgentView(s), legal, nil); !slices.Contains(legal, a) {
				t.Fatalf("%d players, move %d: Rollout chose %v, not in %v", n, k, a, legal)
			}
			if st, _, err = st.Apply(s, legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 500 {
		t.Errorf("only %d views checked", checked)
	}
}

// TestRolloutPlays: the Rollout player's choices in fixed positions of a 4-card deal with clubs
// trump (seat 0 deals and leads): the player in need of a trick wins it (the cheapest winner when
// last to play, the strongest when others follow, a high joker when no card can), one who wants
// no more tricks ducks with his highest loser, and the dealer bids the hand's worth, off his
// forbidden bid.
func TestRolloutPlays(t *testing.T) {
	hands := []string{"S9 H2 D3 D4", "SK S2 H5 X1", "SA SQ SJ H7"}
	tests := []struct {
		name  string
		bids  []string // seats 1, 2, then 0, the dealer
		plays []string // from seat 0
		want  string
	}{
		{"the dealer bids his worth", []string{"bid/1", "bid/2"}, nil, "pass"},
		{"the dealer avoids the forbidden bid", []string{"bid/2", "bid/2"}, nil, "bid/1"},
		{"second, in need: the strongest winner", []string{"bid/1", "bid/1", "pass"}, []string{"play/S9"}, "play/SK"},
		{"second, no trick wanted: the loser, not the joker", []string{"pass", "bid/1", "pass"}, []string{"play/S9"}, "play/S2"},
		{"second, in need, no card wins: a high joker", []string{"bid/1", "bid/1", "pass"}, []string{"play/D3"}, "high/X1"},
		{"second, no trick wanted, off suit: the highest loser", []string{"pass", "bid/1", "pass"}, []string{"play/D3"}, "play/SK"},
		{"last, in need: the cheapest winner", []string{"pass", "bid/1", "pass"}, []string{"play/S9", "play/S2"}, "play/SJ"},
		{"last, no trick wanted: the highest loser", []string{"bid/1", "pass", "pass"}, []string{"play/S9", "play/SK"}, "play/SQ"},
		{"last, in need, nothing wins: the cheapest card", []string{"pass", "bid/1", "pass"}, []string{"play/S9", "high/X1"}, "play/SJ"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var st games.State = fixedDeal(t, 3, "C2", hands...)
			for i, b := range tt.bids {
				st, _ = mustApply(t, st, games.Seat((i+1)%3), b)
			}
			for i, p := range tt.plays {
				st, _ = mustApply(t, st, games.Seat(i%3), p)
			}
			s := st.ToAct()[0]
			if got := (Rollout{}).Choose(st.View(s), st.Legal(s), nil); got.String() != tt.want {
				t.Errorf("seat %d played %v, want %s (legal %v)", s, got, tt.want, actions(st.Legal(s)))
			}
		})
	}
}

// TestRolloutBeatsRandom: one Rollout player among games.Random players (four players, its seat
// rotating) takes clearly more points per party: the search's rollouts play sensibly.
func TestRolloutBeatsRandom(t *testing.T) {
	const parties = 12
	margin := 0.0
	for i := range parties {
		seat := i % 4
		players := []games.Agent{games.Random{}, games.Random{}, games.Random{}, games.Random{}}
		players[seat] = Rollout{}
		totals := jokerParty(t, players, uint64(500+i))
		for s, v := range totals {
			if s == seat {
				margin += float64(v)
			} else {
				margin -= float64(v) / 3
			}
		}
	}
	margin /= parties
	t.Logf("Rollout beats Random by %.1f points per party", margin)
	if margin < 50 {
		t.Errorf("Rollout beats Random by only %.1f points per party", margin)
	}
}
