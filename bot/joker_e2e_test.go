package bot

import (
	"errors"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kozyr-bot/kozyr/bot/callback"
	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/all"
	"github.com/kozyr-bot/kozyr/games/joker"
	"github.com/kozyr-bot/kozyr/games/jokerbank"
	"github.com/kozyr-bot/kozyr/games/search"
	"github.com/kozyr-bot/kozyr/internal/tgtest"
	"github.com/kozyr-bot/kozyr/store"
)

// openTable opens a lobby of r by /new and sets opts from the lobby's options keyboard, as the
// creator would: each option's button cycles its value until it shows the wanted one.
func (h *harness) openTable(creator tgtest.User, r games.Rules, opts map[string]string) {
	h.t.Helper()
	h.say(h.chat, creator, "/new "+r.Name())
	h.lobby()
	if len(opts) == 0 {
		return
	}
	h.pressLobby(creator, "opts")
	for i, o := range r.Options() {
		want, ok := opts[o.Key]
		if !ok {
			continue
		}
		for range o.Values {
			t, _ := h.table()
			cur := t.Config.Get(r.Options(), o.Key)
			if cur == want {
				break
			}
			h.pressLobby(creator, "o"+strconv.Itoa(i))
			h.wait("option "+o.Key+" to change", func() bool {
				u, _ := h.table()
				return u.Config.Get(r.Options(), o.Key) != cur
			})
		}
		if t, _ := h.table(); t.Config.Get(r.Options(), o.Key) != want {
			h.t.Fatalf("option %s never showed %q", o.Key, want)
		}
	}
	h.pressLobby(creator, "back")
	h.wait("the main lobby keyboard", func() bool {
		m := h.lobby()
		return strings.HasSuffix(m.Keyboard[0][0].Data, "|join")
	})
}

// fixSeed replaces the lobby's random seed (a test fixture), so the deals are the ones a search
// over the engine found to exercise what the test wants to see.
func (h *harness) fixSeed(seed uint64) {
	h.t.Helper()
	h.updateTable(func(t *store.Table) {
		if t.Started {
			h.t.Fatal("no lobby to fix the seed of")
		}
		t.Seed = seed
	})
}

// policy picks a human player's action from the state the keyboard was drawn for; the test plays
// with the same knowledge a player has (seed and version only feed a deterministic rng).
type policy func(st games.State, s games.Seat, version int, seed uint64) games.Action

// gameRules is the registered game of that name.
func gameRules(name string) games.Rules {
	for _, r := range all.Rules() {
		if r.Name() == name {
			return r
		}
	}
	return nil
}

// agentAction is what the bot's own agent would do for seat s at this version (the same rng).
func agentAction(game string, st games.State, s games.Seat, version int, seed uint64) games.Action {
	return agentChoice(gameRules(game), search.Easy, st, s, version, seed)
}

// simStep is one action of a simulated match.
type simStep struct {
	seat   games.Seat
	action games.Action
	human  bool
	before games.State
	events []games.Event
}

var errSimTooLong = errors.New("simulated match too long")

// simulate plays a match on the engine alone the way the bot will play it: agent seats with the
// bot's agent and rng, human seats with pol; patch (optional) changes the state before the first
// action, as a fixture of the test does.
func simulate(r games.Rules, cfg games.Config, seed uint64, human func(games.Seat) bool, pol policy,
	patch func(games.State) (games.State, error), limit int) ([]simStep, games.State, error) {
	st, err := r.New(cfg, seed)
	if err != nil {
		return nil, nil, err
	}
	if patch != nil {
		if st, err = patch(st); err != nil {
			return nil, nil, err
		}
	}
	var steps []simStep
	for v := 0; len(st.ToAct()) > 0; v++ {
		if v >= limit {
			return steps, st, errSimTooLong
		}
		s := st.ToAct()[0]
		var a games.Action
		if human(s) {
			a = pol(st, s, v, seed)
		} else {
			a = agentAction(r.Name(), st, s, v, seed)
		}
		ns, evs, err := st.Apply(s, a)
		if err != nil {
			return steps, st, err
		}
		steps = append(steps, simStep{seat: s, action: a, human: human(s), before: st, events: evs})
		st = ns
	}
	return steps, st, nil
}

// findSeed is the first seed from 1 whose simulated match passes accept, and the match's log as
// the bot records it ("<seat>:<action>").
func findSeed(t testing.TB, r games.Rules, cfg games.Config, human func(games.Seat) bool, pol policy,
	patch func(games.State) (games.State, error), limit int, accept func([]simStep, games.State) bool) (uint64, []string) {
	t.Helper()
	for seed := uint64(1); seed <= 500; seed++ {
		steps, final, err := simulate(r, cfg, seed, human, pol, patch, limit)
		if errors.Is(err, errSimTooLong) {
			continue
		}
		if err != nil {
			t.Fatalf("simulate %s seed %d: %v", r.Name(), seed, err)
		}
		if accept(steps, final) {
			log := make([]string, len(steps))
			for i, s := range steps {
				log[i] = fmt.Sprintf("%d:%s", s.seat, s.action)
			}
			return seed, log
		}
	}
	t.Fatalf("no seed of %s in 1..500 shows what the test needs", r.Name())
	return 0, nil
}

// sameLog checks that the bot played the match the simulation found: same seed, same agents and
// policy, so the same actions.
func sameLog(t testing.TB, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		t.Errorf("the bot's match (%d actions) left the simulated one (%d) at action %d: the bot's "+
			"agents no longer choose as agentAction does, or a press went astray", len(got), len(want), i)
	}
}

// tableWatch remembers every text the group's table message showed while the test waited: the
// ones it saw when it looked, and every text the bot sent or edited into it (a state may last a
// moment only, between two looks).
type tableWatch struct {
	h     *harness
	mu    sync.Mutex
	msg   int // the table message, once looked at
	texts []string
	sent  map[int][]string // the texts of the group's messages by id, as the fake received them
	dms   []string         // the texts sent or edited into private chats
}

// watchTable starts watching the group's messages of h (it takes the fake's one Watch).
func watchTable(h *harness) *tableWatch {
	w := &tableWatch{h: h, sent: map[int][]string{}}
	h.fake.Watch(func(ev tgtest.Event) {
		if ev.Status != http.StatusOK || (ev.Method != "sendMessage" && ev.Method != "editMessageText") {
			return
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		switch {
		case ev.Chat == h.chat:
			w.sent[ev.MessageID] = append(w.sent[ev.MessageID], ev.Message.Plain)
		case ev.Chat > 0:
			w.dms = append(w.dms, ev.Message.Plain)
		}
	})
	return w
}

func (w *tableWatch) look() {
	t, ok := w.h.table()
	if !ok || w.h.groupMsg(t) == 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msg = w.h.groupMsg(t)
	if m, ok := w.h.fake.Message(w.h.chat, w.msg); ok && (len(w.texts) == 0 || w.texts[len(w.texts)-1] != m.Plain) {
		w.texts = append(w.texts, m.Plain)
	}
}

// showed reports whether the table message ever showed all of substrs at once.
func (w *tableWatch) showed(substrs ...string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return containsAll(slices.Concat(w.texts, w.sent[w.msg]), substrs)
}

// shown reports whether the table message or a hand message ever showed all of substrs at once:
// a moment of the trick the group's message skipped (its edits coalesce) a player's hand shows.
func (w *tableWatch) shown(substrs ...string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return containsAll(slices.Concat(w.texts, w.sent[w.msg], w.dms), substrs)
}

func containsAll(texts, substrs []string) bool {
	return slices.ContainsFunc(texts, func(s string) bool {
		for _, sub := range substrs {
			if !strings.Contains(s, sub) {
				return false
			}
		}
		return true
	})
}

// playBy presses, for the human players, the button of the action pol picks on each of their
// turns until the match ends, checking each press was accepted. It returns the actions pressed.
func (h *harness) playBy(players []tgtest.User, pol policy, w *tableWatch) []games.Action {
	h.t.Helper()
	last := -1
	if t, ok := h.table(); ok {
		last = t.Version - 1
	}
	var pressed []games.Action
	for {
		var cur turn
		var rec store.Table
		h.wait("a player's turn or the end", func() bool {
			if w != nil {
				w.look()
			}
			if h.finished() {
				return true
			}
			var ok bool
			if cur, ok = h.currentTurn(players); !ok || cur.version <= last {
				return false
			}
			rec, ok = h.table()
			return ok && rec.Version == cur.version
		})
		if h.finished() {
			if w != nil {
				w.look()
			}
			return pressed
		}
		st, err := h.state(rec)
		if err != nil {
			h.t.Fatal(err)
		}
		seat := rec.SeatOf(cur.user.ID)
		a := pol(st, seat, rec.Version, rec.Seed)
		data := callback.Play{Table: rec.ID, Version: rec.Version, Action: a}.String()
		if !slices.ContainsFunc(slices.Concat(cur.msg.Keyboard...), func(b tgtest.Button) bool { return b.Data == data }) {
			h.t.Fatalf("%s has no button for %s: %+v", cur.user.FirstName, a, cur.msg.Keyboard)
		}
		if ans := h.press(cur.user.ID, cur.msg.ID, cur.user, data); !strings.HasPrefix(ans.Text, "Played") {
			h.t.Fatalf("press %s by %s: answer %q", data, cur.user.FirstName, ans.Text)
		}
		pressed = append(pressed, a)
		last = cur.version
	}
}

// replyAfter waits for the bot's first message in chat after message id after that contains substr.
func (h *harness) replyAfter(chat int64, after int, substr string) tgtest.Message {
	h.t.Helper()
	var m tgtest.Message
	h.wait("a reply containing "+substr, func() bool {
		for _, x := range h.fake.Messages(chat) {
			if x.ID > after && x.From == tgtest.BotID && strings.Contains(x.Plain, substr) {
				m = x
				return true
			}
		}
		return false
	})
	return m
}

// groupTexts are the plain texts of the bot's group messages containing substr, in order.
func (h *harness) groupTexts(substr string) []string {
	var out []string
	for _, m := range h.fake.Messages(h.chat) {
		if m.From == tgtest.BotID && strings.Contains(m.Plain, substr) {
			out = append(out, m.Plain)
		}
	}
	return out
}

// finalState is the archived match (a record naming its seats) and its last state.
func (h *harness) finalState() (store.Table, games.State) {
	h.t.Helper()
	m, err := h.lastMatchErr()
	if err != nil {
		h.t.Fatal(err)
	}
	st, err := h.matchState(m)
	if err != nil {
		h.t.Fatal(err)
	}
	if m.Sheet == nil {
		h.t.Fatal("the archive kept no sheet")
	}
	return render.MatchTable(m), archivedState{st, *m.Sheet}
}

// archivedState is a replayed final state whose sheet is the one the archive kept (a test that
// patched the scores mid-match cannot replay them).
type archivedState struct {
	games.State
	sheet games.Sheet
}

func (s archivedState) Score() games.Sheet { return s.sheet }

// finalLog is the archived match's log.
func (h *harness) finalLog() []string {
	h.t.Helper()
	m, err := h.lastMatchErr()
	if err != nil {
		h.t.Fatal(err)
	}
	return m.Log
}

// checkStats checks each human's stats for game after one finished match against the final sheet.
func (h *harness) checkStats(game string, t store.Table, sh games.Sheet, users ...tgtest.User) {
	h.t.Helper()
	for _, u := range users {
		s := t.SeatOf(u.ID)
		rec, err := h.userErr(u.ID)
		st := rec.Stats[game]
		won := 0
		if slices.Contains(sh.Winners, s) {
			won = 1
		}
		if err != nil || st.Played != 1 || st.Won != won || st.Points != sh.Totals[s] {
			h.t.Errorf("%s's %s stats %+v (%v), want played 1, won %d, points %d", u.FirstName, game, st, err, won, sh.Totals[s])
		}
	}
}

// jokerPolicy plays a joker whenever it may, high on even versions and low on odd ones (so both
// calls are pressed), and otherwise does what the agent would.
func jokerPolicy(st games.State, s games.Seat, version int, seed uint64) games.Action {
	legal := st.Legal(s)
	want := "high"
	if version%2 == 1 {
		want = "low"
	}
	if i := slices.IndexFunc(legal, func(a games.Action) bool { return a.Kind == want }); i >= 0 {
		return legal[i]
	}
	return agentAction("joker", st, s, version, seed)
}

var (
	jokerCell = regexp.MustCompile(`^\d+/\d+ [+-]\d+([+-]\d+)?$`)
	dealOver  = regexp.MustCompile(`Deal (\d+) \((\d+) cards?\) is over`)
)

// TestJokerParty: a full party of joker (13 deals) with two humans and two agents. The humans press
// their DM buttons, jokers called high and low among them; bids and tricks show on the table, each
// deal's result is a new group message, /score shows bids and results per deal, stats are kept.
func TestJokerParty(t *testing.T) {
	t.Parallel()
	r := joker.Rules()
	humans := []tgtest.User{alice, bob}
	human := func(s games.Seat) bool { return s < 2 }
	seed, simLog := findSeed(t, r, games.Config{Players: 4}, human, jokerPolicy, nil, 2000, func(steps []simStep, _ games.State) bool {
		kinds := map[string]bool{}
		for _, s := range steps {
			if s.human {
				kinds[s.action.Kind] = true
			}
		}
		return kinds["high"] && kinds["low"] && kinds["pass"]
	})

	h := start(t, setup{})
	h.openDMs(humans...)
	h.openTable(alice, r, nil)
	h.say(group, bob, "/join")
	h.seats(2)
	h.say(group, alice, "/addai")
	h.seats(3)
	h.say(group, alice, "/addai")
	h.seats(4)
	h.fixSeed(seed)
	w := watchTable(h)
	h.begin(alice)
	pressed := h.playBy(humans, jokerPolicy, w)
	end := h.ended()
	h.flush()

	kinds := map[string]int{}
	for _, a := range pressed {
		kinds[a.Kind]++
	}
	if kinds["high"] == 0 || kinds["low"] == 0 || kinds["bid"]+kinds["pass"] != 2*13 {
		t.Errorf("the humans pressed %v", kinds)
	}
	if !w.showed("Trump", "Alice: bid", ", took", "Bob: bid") || !w.shown("🃏 high") || !w.showed("Last trick") {
		t.Errorf("the table never showed bids, tricks and a joker called high; %d texts, last:\n%s", len(w.texts), w.texts[len(w.texts)-1])
	}

	rec, st := h.finalState()
	sameLog(t, h.finalLog(), simLog)
	sh := st.Score()
	if len(sh.Winners) == 0 && !strings.Contains(end.Plain, "drawn") {
		t.Errorf("match end without winner: %s", end.Plain)
	}
	for _, s := range sh.Winners {
		if name := h.bot.render.SeatName(rec, "en", s); !strings.Contains(end.Plain, name) {
			t.Errorf("match end does not name the winner %s: %s", name, end.Plain)
		}
	}
	// Each deal's result is a group message of its own, in order.
	var deals []int
	for _, m := range h.groupTexts(" is over") {
		for _, g := range dealOver.FindAllStringSubmatch(m, -1) {
			n, _ := strconv.Atoi(g[1])
			deals = append(deals, n)
			if g[2] != strconv.Itoa(joker.HandSize(n)) {
				t.Errorf("deal %d announced with %s cards", n, g[2])
			}
		}
		if !strings.Contains(m, "Alice: ") || !strings.Contains(m, "total") {
			t.Errorf("deal result without the players' results: %s", m)
		}
	}
	if want := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}; !slices.Equal(deals, want) {
		t.Errorf("deal results posted for deals %v", deals)
	}
	if !strings.Contains(end.Text, "<pre>") || !strings.Contains(end.Plain, "Final score") {
		t.Errorf("match end without the sheet: %s", end.Text)
	}

	// /score: a row per deal with bid/tricks and points per player, the totals last.
	id := h.fake.SendText(group, bob, "/score")
	score := h.replyAfter(group, id, "Final score")
	pre := html.UnescapeString(between(score.Text, "<pre>", "</pre>"))
	if pre == "" {
		t.Fatalf("/score without the sheet: %s", score.Text)
	}
	t.Logf("/score:\n%s", score.Plain)
	for d := 1; d <= 13; d++ {
		if !strings.Contains(pre, fmt.Sprintf("Deal %d ", d)) && !strings.Contains(pre, fmt.Sprintf("Deal %d\n", d)) {
			t.Errorf("/score has no row for deal %d", d)
		}
	}
	cells := 0
	for _, row := range sh.Rows {
		for _, c := range row.Cells {
			if !jokerCell.MatchString(c) {
				t.Errorf("sheet cell %q is not bid/tricks points", c)
			}
			if !strings.Contains(pre, c) {
				t.Errorf("/score does not show the cell %q", c)
			}
			cells++
		}
	}
	if cells != 13*4 {
		t.Errorf("%d cells in the final sheet, want 52", cells)
	}
	for _, tot := range sh.Totals {
		if !strings.Contains(pre, strconv.Itoa(tot)) {
			t.Errorf("/score does not show the total %d", tot)
		}
	}
	h.checkStats("joker", rec, sh, humans...)
	h.clean()
}

// keyboardOf is a player's newest DM message with game buttons for the test group, and the
// version its buttons were drawn for.
func (h *harness) keyboardOf(u tgtest.User) (tgtest.Message, int, bool) {
	ms := h.fake.Messages(u.ID)
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		if len(m.Keyboard) == 0 || len(m.Keyboard[0]) == 0 {
			continue
		}
		if t, ok := h.table(); ok {
			if d, err := callback.ParsePlay(m.Keyboard[0][0].Data); err == nil && d.Table == t.ID {
				return m, d.Version, true
			}
		}
	}
	return tgtest.Message{}, 0, false
}

// bankStake is the stake a human punter presses: varied, so the revealed stakes differ.
func bankStake(st games.State, s games.Seat) games.Action {
	g := st.View(s).Game.(jokerbank.View)
	return games.Num(jokerbank.KindStake, 1+(int(s)*3+g.Round)%g.Ceiling)
}

// TestJokerBankSession: a banker session of ten rounds (the shortest the lobby offers) with three
// humans and an agent. Punters stake privately and at the same time by buttons; a banker misses
// fourteen times and the bank passes left; /score shows the money and the banker.
func TestJokerBankSession(t *testing.T) {
	t.Parallel()
	r := jokerbank.Rules()
	humans := []tgtest.User{alice, bob, carol}
	cfg := games.Config{Players: 4, Options: map[string]string{jokerbank.OptRounds: "10"}}
	// The cards a banker turns depend on the seed and the round only: pick a session in which the
	// bank passes early and a banker also hits.
	seed, _ := findSeed(t, r, cfg, func(games.Seat) bool { return false }, nil, nil, 100, func(steps []simStep, _ games.State) bool {
		round, passAt, hit := 0, 0, false
		for _, s := range steps {
			for _, e := range s.events {
				switch e.Msg.ID {
				case "jokerbank.ev.stakes":
					round++
				case "jokerbank.ev.pass":
					if passAt == 0 {
						passAt = round
					}
				case "jokerbank.ev.won", "jokerbank.ev.double":
					hit = true
				}
			}
		}
		return passAt > 0 && passAt <= 3 && hit
	})

	h := start(t, setup{})
	h.openDMs(humans...)
	h.openTable(alice, r, map[string]string{jokerbank.OptRounds: "10"})
	h.say(group, bob, "/join")
	h.seats(2)
	h.say(group, carol, "/join")
	h.seats(3)
	h.pressLobby(carol, "ai")
	h.seats(4)
	h.fixSeed(seed)
	w := watchTable(h)
	h.begin(alice)

	// Round 1: Alice stakes first and alone; her stake is hers to see, the group only learns that
	// she has staked.
	var rec store.Table
	var st games.State
	for {
		var msg tgtest.Message
		h.wait("alice's stake buttons", func() bool {
			var v int
			var ok bool
			if msg, v, ok = h.keyboardOf(alice); !ok {
				return false
			}
			rec, ok = h.table()
			return ok && rec.Version == v
		})
		st, _ = h.state(rec)
		a := bankStake(st, rec.SeatOf(alice.ID))
		ans := h.press(alice.ID, msg.ID, alice, callback.Play{Table: rec.ID, Version: rec.Version, Action: a}.String())
		if strings.HasPrefix(ans.Text, "This button is out of date") {
			continue // the agent staked first
		}
		if !strings.HasPrefix(ans.Text, "Played") {
			t.Fatalf("alice's stake: %q", ans.Text)
		}
		h.reply(alice.ID, fmt.Sprintf("Your stake: %d", a.N))
		h.wait("the group to see that alice staked", func() bool {
			w.look()
			return w.showed("Staked: Alice")
		})
		break
	}

	// Then every human punter whose buttons are current presses at once. Each press counts even
	// when another punter's stake raised the table's version first (pressStillValid).
	together, stale, presses := 0, 0, 0
	passSeen := false
	for {
		var ready []tgtest.User
		var msgs []tgtest.Message
		h.wait("punters to stake or the end", func() bool {
			w.look()
			if h.finished() {
				return true
			}
			var ok bool
			if rec, ok = h.table(); !ok {
				return false
			}
			cur, err := h.state(rec)
			if err != nil {
				return false
			}
			// Every human punter still to stake has buttons for this version.
			ready, msgs = ready[:0], msgs[:0]
			for _, u := range humans {
				if !slices.Contains(cur.ToAct(), rec.SeatOf(u.ID)) {
					continue
				}
				m, v, ok := h.keyboardOf(u)
				if !ok || v != rec.Version {
					return false
				}
				ready, msgs = append(ready, u), append(msgs, m)
			}
			return len(ready) > 0
		})
		if h.finished() {
			break
		}
		if !passSeen && len(h.groupTexts("The bank passes to")) > 0 {
			passSeen = true
			h.say(group, alice, "/score") // mid-session: the new banker
		}
		if st, _ = h.state(rec); st == nil {
			t.Fatal("no state")
		}
		if len(ready) > 1 {
			together++
		}
		ids := make([]string, len(ready))
		for i, u := range ready {
			a := bankStake(st, rec.SeatOf(u.ID))
			ids[i] = h.fake.Press(u.ID, msgs[i].ID, u, callback.Play{Table: rec.ID, Version: rec.Version, Action: a}.String())
		}
		for i, id := range ids {
			var ans tgtest.CallbackAnswer
			h.wait("the answer to "+ready[i].FirstName, func() bool {
				var ok bool
				ans, ok = h.fake.Answer(id)
				return ok
			})
			switch {
			case strings.HasPrefix(ans.Text, "Played"):
				presses++
			case strings.HasPrefix(ans.Text, "This button is out of date"):
				stale++
			default:
				t.Fatalf("%s's stake answered %q", ready[i].FirstName, ans.Text)
			}
		}
	}
	end := h.ended()
	h.flush()
	t.Logf("%d stakes pressed, %d times several punters at once, %d presses lost the race", presses, together, stale)
	if together == 0 {
		t.Errorf("never had two human punters staking at once")
	}
	if stale > 0 {
		t.Errorf("%d simultaneous stakes were refused as out of date", stale)
	}
	if presses < 10 {
		t.Errorf("only %d stakes pressed in ten rounds", presses)
	}
	for _, s := range w.texts {
		if strings.Contains(s, "Staked:") && strings.Contains(s, "Stakes against") {
			t.Errorf("the table showed the stakes before all were in: %s", s)
		}
	}
	if !w.showed(" of 10", "Banker: ", "Staked: ") {
		t.Errorf("the table never showed the round, the banker and who has staked")
	}

	rec, st = h.finalState()
	g := st.View(games.Nobody).Game.(jokerbank.View)
	sh := st.Score()
	// The rounds are new group messages; fourteen misses pass the bank to the left.
	rounds := h.groupTexts("Round ")
	missed := h.groupTexts("Fourteen misses")
	if len(missed) == 0 {
		t.Fatalf("no banker missed fourteen times; group messages:\n%s", strings.Join(h.groupTexts(""), "\n---\n"))
	}
	for _, m := range missed {
		_, after, _ := strings.Cut(m, "Fourteen misses: ")
		banker := -1
		for s := range rec.Seats {
			if strings.HasPrefix(after, h.bot.render.SeatName(rec, "en", games.Seat(s))+" pays every stake") {
				banker = s
			}
		}
		next := h.bot.render.SeatName(rec, "en", games.Seat((banker+1)%len(rec.Seats)))
		if banker < 0 || !strings.Contains(m, "The bank passes to "+next+".") {
			t.Errorf("fourteen misses without the bank passing left: %s", m)
		}
	}
	if len(h.groupTexts("takes the pot"))+len(h.groupTexts("A joker first")) == 0 {
		t.Errorf("no banker hit: %d round messages", len(rounds))
	}
	if !strings.Contains(end.Plain, "Session over after 10 rounds.") {
		t.Errorf("session end: %s", end.Plain)
	}
	for s, m := range g.Money {
		if line := h.bot.render.SeatName(rec, "en", games.Seat(s)) + ": " + strconv.Itoa(m); !strings.Contains(end.Plain, line) {
			t.Errorf("session end lacks %q: %s", line, end.Plain)
		}
	}

	// /score mid-session named the banker after the bank passed; at the end it shows the money.
	mid := h.reply(group, "Banker now: ")
	if !strings.Contains(mid.Text, "<pre>") || !strings.Contains(mid.Plain, "* the banker of the round") {
		t.Errorf("mid-session /score: %s", mid.Text)
	}
	id := h.fake.SendText(group, carol, "/score")
	score := h.replyAfter(group, id, "Final score")
	pre := html.UnescapeString(between(score.Text, "<pre>", "</pre>"))
	t.Logf("/score:\n%s", score.Plain)
	for i := 1; i <= 10; i++ {
		if !strings.Contains(pre, fmt.Sprintf("Round %d", i)) {
			t.Errorf("/score has no row for round %d", i)
		}
	}
	if strings.Count(pre, "*") != 10 {
		t.Errorf("/score marks %d bankers, want one per round", strings.Count(pre, "*"))
	}
	for s, m := range g.Money {
		if m != sh.Totals[s] || !strings.Contains(pre, strconv.Itoa(m)) {
			t.Errorf("/score does not show %d for seat %d", m, s)
		}
	}
	h.checkStats("jokerbank", rec, sh, humans...)
	h.clean()
}
