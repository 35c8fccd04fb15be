package bot

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/all"
	"github.com/kozyr-bot/kozyr/games/wizard"
	"github.com/kozyr-bot/kozyr/internal/tgtest"
	"github.com/kozyr-bot/kozyr/store"
)

// countingStore counts the transactions the bot opens.
type countingStore struct {
	store.Store
	txs atomic.Int64
}

func (s *countingStore) Update(ctx context.Context, fn func(store.Tx) error) error {
	s.txs.Add(1)
	return s.Store.Update(ctx, fn)
}

func (s *countingStore) Batch(ctx context.Context, fn func(store.Tx) error) error {
	s.txs.Add(1)
	return s.Store.Batch(ctx, fn)
}

func (s *countingStore) View(ctx context.Context, fn func(store.Tx) error) error {
	s.txs.Add(1)
	return s.Store.View(ctx, fn)
}

// countingRules counts how often a game's states are decoded.
type countingRules struct {
	games.Rules
	unmarshals *atomic.Int64
}

func (r countingRules) Unmarshal(b []byte) (games.State, error) {
	r.unmarshals.Add(1)
	return r.Rules.Unmarshal(b)
}

func (r countingRules) Agent() games.Agent { return games.AgentFor(r.Rules) }

// TestOneRoundTripPerPress: a press costs at most two store transactions (in the steady state
// one: the move's, which also carries the bookkeeping of earlier sends) and at most one decoding
// of the game state (none while the bot holds the table).
func TestOneRoundTripPerPress(t *testing.T) {
	t.Parallel()
	var unmarshals atomic.Int64
	var rules []games.Rules
	for _, r := range all.Rules() {
		rules = append(rules, countingRules{r, &unmarshals})
	}
	path := filepath.Join(t.TempDir(), "kozyr.db")
	st, err := store.Open(path, store.WithNoSync())
	if err != nil {
		t.Fatal(err)
	}
	cs := &countingStore{Store: st}
	h := startWith(t, setup{games: rules}, cs, st)
	players := []tgtest.User{alice, bob, carol}
	h.openDMs(players...)
	h.shortGame(alice)
	h.say(group, bob, "/join")
	h.say(group, carol, "/join")
	h.seats(3)
	h.begin(alice)
	last, worst, presses := -1, int64(0), 0
	var txs int64
	for range 20 {
		cur := h.waitTurn(players, last)
		txs0, un0 := cs.txs.Load(), unmarshals.Load()
		h.press(cur.user.ID, cur.msg.ID, cur.user, cur.msg.Keyboard[0][0].Data)
		h.waitTurn(players, cur.version)
		dt, du := cs.txs.Load()-txs0, unmarshals.Load()-un0
		if dt > 2 || du > 1 {
			t.Errorf("press %d: %d store transactions and %d state decodings", presses, dt, du)
		}
		worst, txs = max(worst, dt), txs+dt
		last = cur.version
		presses++
	}
	t.Logf("%d presses: %d transactions in all, at most %d for one", presses, txs, worst)
	h.clean()
}

// TestLevels: the lobby's Options offer the computer players' level after the game's options;
// a table at normal level plays its agents by search to the end of the match.
func TestLevels(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	h.openDMs(alice)
	h.shortGame(alice)
	h.say(group, alice, "/addai")
	h.say(group, alice, "/addai")
	h.seats(3)
	if m := h.lobby(); !strings.Contains(m.Plain, "Computer players: easy") {
		t.Fatalf("the lobby does not show the level: %s", m.Plain)
	}
	h.pressLobby(alice, "opts")
	level := "o" + strconv.Itoa(len(wizard.Rules().Options()))
	h.pressLobby(alice, level)
	h.wait("the level to be normal", func() bool { tb, _ := h.table(); return tb.Level == "normal" })
	h.pressLobby(alice, level)
	h.wait("the level to be strong", func() bool { tb, _ := h.table(); return tb.Level == "strong" })
	h.pressLobby(alice, level)
	h.pressLobby(alice, level)
	h.wait("the level to be normal again", func() bool { tb, _ := h.table(); return tb.Level == "normal" })
	h.wait("the lobby to show the level", func() bool { return strings.Contains(h.lobby().Plain, "Computer players: normal") })
	h.pressLobby(alice, "back")
	h.begin(alice)
	h.play([]tgtest.User{alice}, first)
	h.ended()
	h.flush()
	h.clean()
}
