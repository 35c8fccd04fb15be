package bot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/nasilie"
	"github.com/kozyr-bot/kozyr/internal/tgtest"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// patchScores is the fixture that brings a Nasilie match near its end: the state's running game
// points are replaced (the JSON field "scores"), everything else is kept, and the engine must
// accept the result.
func patchScores(data []byte, scores []int) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // the seed is a uint64
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if old, ok := m["scores"].([]any); !ok || len(old) != len(scores) {
		return nil, fmt.Errorf("state has no scores for %d seats: %v", len(scores), m["scores"])
	}
	m["scores"] = scores
	out, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	st, err := nasilie.Rules().Unmarshal(out)
	if err != nil {
		return nil, err
	}
	if got := st.Score().Totals; !slices.Equal(got, scores) {
		return nil, fmt.Errorf("patched state scores %v, want %v", got, scores)
	}
	return st.MarshalBinary()
}

// nasiliePolicy: a human bids 2 blind whenever an odd-numbered deal offers it, and otherwise plays
// as the agent would (which looks at the cards first).
func nasiliePolicy(st games.State, s games.Seat, version int, seed uint64) games.Action {
	legal := st.Legal(s)
	g := st.View(s).Game.(nasilie.View)
	if g.Deal%2 == 1 && slices.Contains(legal, games.Do("blind")) {
		return games.Do("blind")
	}
	return agentAction(nasilie.Name, st, s, version, seed)
}

// nearEnd are the running game points the fixture gives the four seats.
var nearEnd = []int{90, 80, 70, 60}

// winnerLine is the match end of a match won by reaching 100.
var winnerLine = regexp.MustCompile(`🏆 (.+) reaches (\d+) and wins!`)

// TestNasilieToHundred: a match of Nasilie played to 100 game points by two humans and two agents.
// The match starts through the bot; the test then gives the players running totals near 100 (a
// fixture in the stored state: random or agent play takes hundreds of deals to get there) and
// plays on by buttons: the DM offers look or blind first, both are pressed; everybody may pass
// and leave the nanny to choose. The table shows the auction, the declarer, trump and melds; the
// match ends when a total reaches 100; /score shows every deal's bid, result and running points.
func TestNasilieToHundred(t *testing.T) {
	t.Parallel()
	r := nasilie.Rules()
	humans := []tgtest.User{alice, bob}
	human := func(s games.Seat) bool { return s < 2 }
	patch := func(st games.State) (games.State, error) {
		b, err := st.MarshalBinary()
		if err == nil {
			b, err = patchScores(b, nearEnd)
		}
		if err != nil {
			return nil, err
		}
		return r.Unmarshal(b)
	}
	// A seed whose match (with the same agents and the same fixture) ends within a few deals and
	// shows the nanny's choice, a blind bid and a look by the humans, and declared melds.
	seed, simLog := findSeed(t, r, games.Config{Players: 4}, human, nasiliePolicy, patch, 400, func(steps []simStep, _ games.State) bool {
		seen := map[string]bool{}
		for _, s := range steps {
			k := s.action.Kind
			if s.human {
				k = "human " + k
			}
			seen[k] = true
			for _, e := range s.events {
				seen[e.Msg.ID] = true
			}
		}
		return (seen["playone"] || seen["decline"] || seen["human playone"] || seen["human decline"]) &&
			seen["human blind"] && seen["human look"] && seen["nasilie.e.meld"] && seen["nasilie.e.winner"]
	})

	h := start(t, setup{})
	h.openDMs(humans...)
	h.openTable(alice, r, nil)
	h.say(group, bob, "/join")
	h.seats(2)
	h.say(group, alice, "/addai")
	h.seats(3)
	h.pressLobby(bob, "ai")
	h.seats(4)
	h.fixSeed(seed)
	h.begin(alice)
	// The fixture: running totals near 100, written back in one transaction at the same Version.
	h.patchState(func(state []byte) ([]byte, error) { return patchScores(state, nearEnd) })
	// Before anyone acts the first DM offers look or blind and shows no cards.
	first := h.waitTurn(humans, -1)
	if labels := buttonTexts(first.msg); !slices.Equal(labels, []string{"👀 Look at my cards", "Blind 2"}) ||
		strings.Contains(first.msg.Plain, "Your cards:") {
		t.Errorf("first DM of %s: %q with buttons %q", first.user.FirstName, first.msg.Plain, labels)
	}

	w := &tableWatch{h: h}
	pressed := h.playBy(humans, nasiliePolicy, w)
	end := h.ended()
	h.flush()

	kinds := map[string]int{}
	for _, a := range pressed {
		kinds[a.Kind]++
	}
	t.Logf("the humans pressed %v", kinds)
	if kinds["look"] == 0 || kinds["blind"] == 0 || kinds["play"] == 0 {
		t.Errorf("the humans pressed %v: want look, blind and cards", kinds)
	}
	for _, want := range [][]string{{"Bidding: ", "Declarer: ", "Trump: ", "Melds (", "Game points (to 100)"}, {"Trick: "}, {"Last trick: "}} {
		if !w.showed(want...) {
			t.Errorf("the table never showed %q; %d texts", want, len(w.texts))
		}
	}
	rec, st := h.finalState()
	sameLog(t, h.finalLog(), simLog)
	log := strings.Join(h.finalLog(), " ")
	if strings.Contains(log, "playone") || strings.Contains(log, "decline") {
		if len(h.groupTexts("the nanny")) == 0 && !w.showed("the nanny") {
			t.Errorf("the nanny chose without the group seeing it")
		}
	} else {
		t.Errorf("no nanny's choice in %s", log)
	}

	// The end names the winner, who has reached 100.
	sh := st.Score()
	m := winnerLine.FindStringSubmatch(end.Plain)
	if m == nil || len(sh.Winners) != 1 {
		t.Fatalf("match end %q, winners %v", end.Plain, sh.Winners)
	}
	win := sh.Winners[0]
	if n, _ := strconv.Atoi(m[2]); m[1] != h.bot.render.SeatName(rec, "en", win) || n != sh.Totals[win] || n < 100 {
		t.Errorf("match end %q: want %s with %d ≥ 100", m[0], h.bot.render.SeatName(rec, "en", win), sh.Totals[win])
	}
	if !strings.Contains(end.Text, "<pre>") {
		t.Errorf("match end without the sheet: %s", end.Text)
	}
	h.checkNasilieScore(rec, st)
	h.checkStats(nasilie.Name, rec, sh, humans...)
	h.clean()
}

// TestNasilieCappedMatch: the lobby sets the longest match to three rounds (twelve deals with four
// players); nobody can reach 100 from zero in that time, so the highest total wins at the cap.
func TestNasilieCappedMatch(t *testing.T) {
	t.Parallel()
	r := nasilie.Rules()
	humans := []tgtest.User{carol, dave}
	h := start(t, setup{})
	h.openDMs(humans...)
	h.openTable(carol, r, map[string]string{nasilie.OptRounds: "3"})
	h.say(group, dave, "/join")
	h.say(group, carol, "/addai")
	h.seats(3)
	h.say(group, carol, "/addai")
	h.seats(4)
	if tb, _ := h.table(); tb.Seats[1].UserID != dave.ID {
		t.Fatalf("seats %+v", tb.Seats)
	}
	h.begin(carol)
	w := &tableWatch{h: h}
	pressed := h.playBy(humans, nasiliePolicy, w)
	end := h.ended()
	h.flush()
	t.Logf("%d presses", len(pressed))

	rec, st := h.finalState()
	sh := st.Score()
	if g := st.View(games.Nobody).Game.(nasilie.View); g.Deal != 12 {
		t.Errorf("the match ended after deal %d, want 12", g.Deal)
	}
	if !strings.Contains(end.Plain, "After 12 deals nobody reached 100.") {
		t.Errorf("match end: %s", end.Plain)
	}
	best := slices.Max(sh.Totals)
	for _, s := range sh.Winners {
		if sh.Totals[s] != best || !strings.Contains(end.Plain, h.bot.render.SeatName(rec, "en", s)) {
			t.Errorf("winner %d with %d (best %d) in %q", s, sh.Totals[s], best, end.Plain)
		}
	}
	if len(h.groupTexts("Deal ")) < 12 {
		t.Errorf("%d deal results in the group, want 12", len(h.groupTexts("Deal ")))
	}
	if !w.showed("Bidding: ", "Declarer: ", "Trump: ") {
		t.Errorf("the table never showed the auction, declarer and trump")
	}
	h.checkNasilieScore(rec, st)
	h.checkStats(nasilie.Name, rec, sh, humans...)
	h.clean()
}

// checkNasilieScore asks /score after the end and checks it against the final state: a row per
// deal naming the declarer, the bid and reached/needed (listed under the table, the label column
// being narrow), the running game points of everybody with the declarer's change, and the totals.
func (h *harness) checkNasilieScore(rec store.Table, st games.State) {
	h.t.Helper()
	id := h.fake.SendText(group, alice, "/score")
	score := h.replyAfter(group, id, "Final score")
	pre := html.UnescapeString(between(score.Text, "<pre>", "</pre>"))
	h.t.Logf("/score:\n%s", score.Plain)
	sh := st.Score()
	if len(sh.Rows) == 0 {
		h.t.Fatalf("no deals on the sheet")
	}
	for i, row := range sh.Rows {
		label := locales.Plain(h.bot.loc.Render("en", row.Label, h.bot.render.Namer(rec, "en")))
		if !strings.Contains(score.Plain, label) {
			h.t.Errorf("/score lacks deal row %d %q", i+1, label)
		}
		for _, c := range row.Cells {
			if !strings.Contains(pre, c) {
				h.t.Errorf("/score lacks the cell %q of row %d", c, i+1)
			}
		}
	}
	for s, tot := range sh.Totals {
		if !strings.Contains(pre, strconv.Itoa(tot)) {
			h.t.Errorf("/score lacks the total %d of seat %d", tot, s)
		}
	}
}

// buttonTexts are the labels of a message's buttons.
func buttonTexts(m tgtest.Message) []string {
	var out []string
	for _, b := range slices.Concat(m.Keyboard...) {
		out = append(out, b.Text)
	}
	return out
}
