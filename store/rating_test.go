package store

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
)

// near compares ratings to the precision the worked examples are written with.
func near(a, b float64) bool { return math.Abs(a-b) < 5e-4 }

// TestElo: the worked examples of README "Ratings". The expected scores are 1/(1+10^(±200/400))
// = 0.759747 and 0.240253 for a 200-point gap; K = 32 is split over the n−1 opponents.
func TestElo(t *testing.T) {
	for _, tt := range []struct {
		name   string
		before []float64
		places []int
		want   []float64
	}{
		{"two equal, one wins", []float64{1500, 1500}, []int{1, 2}, []float64{1516, 1484}},
		{"two equal draw", []float64{1500, 1500}, []int{1, 1}, []float64{1500, 1500}},
		{"favourite wins", []float64{1600, 1400}, []int{1, 2}, []float64{1607.688, 1392.312}},
		{"upset", []float64{1600, 1400}, []int{2, 1}, []float64{1575.688, 1424.312}},
		{"favourite draws", []float64{1600, 1400}, []int{1, 1}, []float64{1591.688, 1408.312}},
		// Three seats: K/2 = 16 a pairwise game; the winner beats two equals: 2 × 16 × ½.
		{"three equal", []float64{1500, 1500, 1500}, []int{1, 2, 3}, []float64{1516, 1500, 1484}},
		{"three, shared last", []float64{1500, 1500, 1500}, []int{1, 2, 2}, []float64{1516, 1492, 1492}},
		// Four seats: K/3 a game; the winner's three wins make +16, the same as beating one player
		// in a game of two, so a big table does not move ratings more.
		{"four equal", []float64{1500, 1500, 1500, 1500}, []int{1, 2, 3, 4}, []float64{1516, 1505.333, 1494.667, 1484}},
		{"four, shared first", []float64{1500, 1500, 1500, 1500}, []int{1, 1, 3, 4}, []float64{1510.667, 1510.667, 1494.667, 1484}},
		{"four, all draw", []float64{1400, 1500, 1500, 1600}, []int{1, 1, 1, 1}, []float64{1405.759, 1500, 1500, 1594.241}},
		{"one player", []float64{1500}, []int{1}, []float64{1500}},
		{"places missing", []float64{1500, 1500}, nil, []float64{1500, 1500}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Elo(tt.before, tt.places, RatingK)
			if len(got) != len(tt.want) {
				t.Fatalf("Elo = %v, want %v", got, tt.want)
			}
			for i := range got {
				if !near(got[i], tt.want[i]) {
					t.Errorf("Elo(%v, %v) = %v, want %v", tt.before, tt.places, got, tt.want)
					break
				}
			}
		})
	}
}

// TestEloConserves: among rated seats the ratings only change hands, and each seat moves by at
// most K whatever the size of the table.
func TestEloConserves(t *testing.T) {
	before := []float64{1320, 1711, 1500, 1488, 1604, 1390}
	for _, places := range [][]int{{1, 2, 3, 4, 5, 6}, {6, 5, 4, 3, 2, 1}, {1, 1, 3, 3, 5, 6}, {1, 1, 1, 1, 1, 1}} {
		after := Elo(before, places, RatingK)
		sum := 0.0
		for i := range after {
			d := after[i] - before[i]
			sum += d
			if math.Abs(d) > RatingK {
				t.Errorf("places %v: seat %d moved %.3f", places, i, d)
			}
		}
		if math.Abs(sum) > 1e-9 {
			t.Errorf("places %v: ratings changed by %g in all", places, sum)
		}
	}
}

// TestPlaces: the finishing order read from final sheets of each kind of game.
func TestPlaces(t *testing.T) {
	for _, tt := range []struct {
		name    string
		totals  []int
		winners []games.Seat
		want    []int
	}{
		{"highest wins", []int{0, -30, -10}, []games.Seat{0}, []int{1, 3, 2}},
		{"equal totals share a place", []int{-10, 40, -10}, []games.Seat{1}, []int{2, 1, 2}},
		{"co-winners", []int{30, 30, 10, -5}, []games.Seat{0, 1}, []int{1, 1, 3, 4}},
		{"everybody drew", []int{7, 7, 7}, []games.Seat{0, 1, 2}, []int{1, 1, 1}},
		// Joker's match is won by parties, not by the last party's total.
		{"the winner without the best total", []int{10, 30, 20}, []games.Seat{0}, []int{1, 2, 3}},
		// Magister breaks equal results by banks: the winner is first, the equal total is not.
		{"a tie broken by the game", []int{56, 56, -112}, []games.Seat{1}, []int{2, 1, 3}},
		{"no winners", []int{3, 1, 2}, nil, []int{1, 3, 2}},
		{"totals missing", []int{4}, []games.Seat{0}, []int{1, 2, 2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sh := games.Sheet{Totals: tt.totals, Winners: tt.winners}
			if got := Places(sh, len(tt.want)); !slices.Equal(got, tt.want) {
				t.Errorf("Places(%v, winners %v) = %v, want %v", tt.totals, tt.winners, got, tt.want)
			}
		})
	}
}

// TestRateMatch: a finished match rates its people from their ratings before it, counts its
// computer player at the given fixed rating without rating it, lists the chat's players per game
// (any topic), and a match without a sheet only lists them.
func TestRateMatch(t *testing.T) {
	s, _ := openTemp(t, WithNoSync())
	alice, bob := int64(101), int64(102)
	sheet := func(totals []int, winners ...games.Seat) *games.Sheet {
		return &games.Sheet{Totals: totals, Winners: winners}
	}
	matches := []Match{
		{Table: 1, Place: Place{Chat: -5}, Game: "wizard", Seats: []MatchSeat{{UserID: alice, Name: "Alice"}, {UserID: bob, Name: "Bob"}, {AI: true}},
			Sheet: sheet([]int{50, -10, 20}, 0)},
		// Bob at 1484 and a computer at 1700 draw with Alice at 1516 in topic 9 of the same chat.
		{Table: 2, Place: Place{Chat: -5, Topic: 9}, Game: "wizard", Seats: []MatchSeat{{UserID: bob, Name: "Bobby"}, {AI: true}, {UserID: alice, Name: "Alice"}},
			Sheet: sheet([]int{0, 0, 0}, 0, 1, 2)},
		{Table: 3, Place: Place{Chat: -6}, Game: "skat", Seats: []MatchSeat{{UserID: bob}, {UserID: 103}}},
	}
	for _, m := range matches {
		update(t, s, func(tx Tx) error { return RateMatch(tx, m, 1700) })
	}
	// Match 1, K/2 = 16: Alice beats Bob (1 − ½) and the 1700 computer (1 − 0.240253), 1520.156;
	// Bob loses to both, 1488.156; the computer's rating stays.
	a1 := 1500 + 16*(0.5+0.759747)
	b1 := 1500 + 16*(-0.5-0.240253)
	// Match 2, all draw: each seat's sum is Σ(½ − E) over its two opponents.
	e := func(r, o float64) float64 { return 1 / (1 + math.Pow(10, (o-r)/400)) }
	b2 := b1 + 16*((0.5-e(b1, 1700))+(0.5-e(b1, a1)))
	a2 := a1 + 16*((0.5-e(a1, 1700))+(0.5-e(a1, b1)))
	view(t, s, func(tx Tx) error {
		for _, c := range []struct {
			id     int64
			rating float64
			rated  int
			name   string
		}{{alice, a2, 2, "Alice"}, {bob, b2, 2, "Bobby"}} {
			u, err := tx.User(c.id)
			if err != nil {
				t.Fatal(err)
			}
			st := u.Stats["wizard"]
			if !near(st.Rating, c.rating) || st.Rated != c.rated || u.Name != c.name {
				t.Errorf("user %d: %+v named %q, want rating %.3f after %d", c.id, st, u.Name, c.rating, c.rated)
			}
			if st.Played != 0 {
				t.Errorf("user %d: RateMatch counted a match played", c.id)
			}
		}
		if u, _ := tx.User(bob); u.Stats["skat"].Rated != 0 {
			t.Errorf("a match without a sheet was rated: %+v", u.Stats["skat"])
		}
		for _, c := range []struct {
			chat int64
			game string
			want []int64
		}{{-5, "wizard", []int64{alice, bob}}, {-6, "skat", []int64{bob, 103}}, {-5, "skat", nil}, {-6, "wizard", nil}} {
			if got, err := tx.ChatPlayers(c.chat, c.game); err != nil || !slices.Equal(got, c.want) {
				t.Errorf("players of %s in %d: %v, %v; want %v", c.game, c.chat, got, err, c.want)
			}
		}
		return nil
	})
}

// TestPlayersMoveWithChat: a group that becomes a supergroup keeps its leaderboard.
func TestPlayersMoveWithChat(t *testing.T) {
	s, _ := openTemp(t, WithNoSync())
	update(t, s, func(tx Tx) error {
		for _, u := range []int64{3, 1, 2} {
			if err := tx.AddChatPlayer(-7, "joker", u); err != nil {
				return err
			}
		}
		if err := tx.AddChatPlayer(-7, "joker", 1); err != nil { // again: no change
			return err
		}
		return tx.AddChatPlayer(-8, "joker", 9)
	})
	update(t, s, func(tx Tx) error { return tx.MoveChat(-7, -1000000000007) })
	view(t, s, func(tx Tx) error {
		if got, _ := tx.ChatPlayers(-1000000000007, "joker"); !slices.Equal(got, []int64{1, 2, 3}) {
			t.Errorf("moved players: %v", got)
		}
		if got, _ := tx.ChatPlayers(-7, "joker"); len(got) != 0 {
			t.Errorf("players left behind: %v", got)
		}
		if got, _ := tx.ChatPlayers(-8, "joker"); !slices.Equal(got, []int64{9}) {
			t.Errorf("another chat's players: %v", got)
		}
		return nil
	})
	err := s.Update(context.Background(), func(tx Tx) error { return tx.MoveChat(-9, -10) })
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("moving a chat with nothing: %v", err)
	}
}
