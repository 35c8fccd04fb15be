package bot

import (
	"html"
	"slices"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/bot/callback"
	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/internal/tgtest"
)

// TestThreeHumansPlayWizard: three users play a complete Wizard match with the default options
// (20 rounds for three players) by pressing buttons (issue 3). The windows are scaled further than
// elsewhere so 700 moves take seconds.
func TestThreeHumansPlayWizard(t *testing.T) {
	t.Parallel()
	h := start(t, setup{rateScale: 1000})
	h.openDMs(alice, bob, carol)
	h.say(group, alice, "/new wizard")
	h.lobby()
	h.seats(1)
	if a := h.pressLobby(bob, "join"); a.Text != "You're seated." {
		t.Errorf("join answer %q", a.Text)
	}
	h.say(group, carol, "/join")
	h.seats(3)
	if a := h.pressLobby(bob, "begin"); !strings.Contains(a.Text, "Only the creator") {
		t.Errorf("begin by a non-creator: %q", a.Text)
	}
	h.pressLobby(alice, "begin")
	presses := h.play([]tgtest.User{alice, bob, carol}, first)
	// Twenty rounds for three players: 3×20 bids, 3×(1+…+20) cards, and a trump to name for each
	// round but the last in which a Wizard was turned.
	if presses < 60+630 || presses > 60+630+19 {
		t.Errorf("%d presses, want 690 to 709", presses)
	}
	final, err := h.lastMatchErr()
	if err != nil || len(final.Log) != presses {
		t.Errorf("archived %d actions for %d presses: %v", len(final.Log), presses, err)
	}
	end := h.ended()
	if !strings.Contains(end.Text, "<pre>") {
		t.Errorf("match end without the sheet: %s", end.Text)
	}
	h.flush()
	for _, u := range []tgtest.User{alice, bob, carol} {
		for _, m := range h.fake.Messages(u.ID) {
			if len(m.Keyboard) > 0 {
				t.Errorf("%s still has buttons after the end: %q", u.FirstName, m.Plain)
			}
		}
		rec, err := h.userErr(u.ID)
		if err != nil || rec.Stats["wizard"].Played != 1 {
			t.Errorf("%s stats: %+v, %v", u.FirstName, rec.Stats, err)
		}
	}
	h.clean()
}

func TestOneHumanTwoAgents(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	h.openDMs(alice)
	h.shortGame(alice)
	h.say(group, alice, "/addai")
	h.seats(2)
	h.say(group, alice, "/addai")
	h.seats(3)
	h.begin(alice)
	if n := h.play([]tgtest.User{alice}, first); n < 9 {
		t.Errorf("alice pressed %d times, want at least 9 (her bids and cards)", n)
	}
	h.ended()
	h.flush()
	rec, _ := h.userErr(alice.ID)
	if rec.Stats["wizard"].Played != 1 {
		t.Errorf("alice's stats: %+v", rec.Stats)
	}
	h.clean()
}

func TestDeepLinkJoin(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	h.openDMs(alice)
	h.shortGame(alice)
	// Dave never opened the bot: the Join button answers with a deep link, /join replies with one.
	a := h.pressLobby(dave, "join")
	tb, _ := h.table()
	want := "https://t.me/kozyr_test_bot?start=" + callback.JoinPayload(tb.ID)
	if a.URL != want {
		t.Fatalf("Join without a DM answered %+v, want the URL %s", a, want)
	}
	h.say(group, dave, "/join")
	m := h.reply(group, "I can't send you your cards yet")
	if len(m.Keyboard) != 1 || m.Keyboard[0][0].URL != want {
		t.Errorf("/join without a DM: keyboard %+v", m.Keyboard)
	}
	if tb, _ := h.table(); len(tb.Seats) != 1 {
		t.Fatalf("dave seated without a DM: %+v", tb.Seats)
	}
	// Dave follows the link and presses START.
	payload := strings.TrimPrefix(a.URL, "https://t.me/kozyr_test_bot?start=")
	h.fake.StartDM(dave, payload)
	h.seats(2)
	h.reply(dave.ID, "You took a seat")
	h.pressLobby(alice, "ai")
	h.seats(3)
	h.begin(alice)
	h.play([]tgtest.User{alice, dave}, first)
	h.ended()
	h.flush()
	h.clean()
}

func TestCreatorWithoutDM(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	h.say(group, dave, "/new")
	pick := h.reply(group, "Which game?")
	a := h.press(group, pick.ID, dave, pick.Keyboard[0][0].Data)
	tb, _ := h.table()
	if !strings.Contains(a.URL, "?start="+callback.JoinPayload(tb.ID)) {
		t.Fatalf("picker by a user without a DM: %+v", a)
	}
	if lobby := h.lobby(); tb.Creator != dave.ID || len(tb.Seats) != 0 || lobby.ID != pick.ID {
		t.Errorf("lobby %+v in message %d: want dave's, empty, in the picker message %d", tb, lobby.ID, pick.ID)
	}
	h.fake.StartDM(dave, callback.JoinPayload(tb.ID))
	h.seats(1)
	h.flush()
	h.clean()
}

func TestCommandAddressing(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	h.openDMs(alice, bob)
	h.say(group, alice, "/new@kozyr_test_bot wizard")
	h.lobby()
	h.say(group, bob, "/join@OtherBot")
	h.say(group, bob, "/help@OtherBot")
	h.say(group, bob, "/join@KOZYR_TEST_BOT")
	h.seats(2)
	h.flush()
	for _, m := range h.fake.Messages(group) {
		if strings.Contains(m.Plain, "Card games at your table") {
			t.Errorf("/help@OtherBot was answered")
		}
	}
	if tb, _ := h.table(); tb.Seats[1].UserID != bob.ID {
		t.Errorf("seats %+v", tb.Seats)
	}
	h.clean()
}

func TestNamesEscapedAndScore(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	eve := tgtest.User{ID: 201, FirstName: "Eve <3", LanguageCode: "en"}
	tom := tgtest.User{ID: 202, FirstName: "Tom & Jerry", LastName: "<b>Bartholomew</b>", LanguageCode: "en"}
	h.openDMs(eve, tom)
	h.shortGame(eve)
	h.say(group, tom, "/join")
	h.say(group, eve, "/addai")
	h.seats(3)
	var lobby tgtest.Message
	h.wait("the lobby to show three seats", func() bool {
		lobby = h.lobby()
		return strings.Contains(lobby.Plain, "3. ")
	})
	if !strings.Contains(lobby.Text, "Eve &lt;3") || !strings.Contains(lobby.Text, "Tom &amp; Jerry &lt;b&gt;Bartholomew&lt;/b&gt;") {
		t.Errorf("lobby text not escaped: %s", lobby.Text)
	}
	if !strings.Contains(lobby.Plain, "Tom & Jerry <b>Bartholomew</b>") {
		t.Errorf("lobby shows %q", lobby.Plain)
	}
	h.begin(eve)
	h.play([]tgtest.User{eve, tom}, first)
	h.ended()
	h.say(group, tom, "/score")
	score := h.reply(group, "Final score")
	pre := between(score.Text, "<pre>", "</pre>")
	if pre == "" {
		t.Fatalf("/score without <pre>: %s", score.Text)
	}
	for _, line := range strings.Split(pre, "\n") {
		if n := len([]rune(html.UnescapeString(line))); n > render.SheetWidth {
			t.Errorf("score line %q is %d wide", line, n)
		}
	}
	// Narrow columns of short names, and under them a legend with everybody's full name.
	if head := strings.Fields(strings.Split(pre, "\n")[0]); !slices.Equal(head, []string{"Eve3", "TomJerr", "Bot1"}) {
		t.Errorf("column heads %q", head)
	}
	for _, want := range []string{"<code>Eve3</code> Eve &lt;3", "<code>TomJerr</code> Tom &amp; Jerry &lt;b&gt;Bartholomew&lt;/b&gt;", "<code>Bot1</code> Bot 1"} {
		if !strings.Contains(score.Text, want) {
			t.Errorf("the legend lacks %q: %s", want, score.Text)
		}
	}
	h.flush()
	h.clean()
}

func between(s, from, to string) string {
	_, rest, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	in, _, _ := strings.Cut(rest, to)
	return in
}

func TestFaultsLoseNothing(t *testing.T) {
	t.Parallel()
	h := start(t, setup{faults: 0.2})
	h.openDMs(alice, bob)
	h.aliceBobAndAgent()
	tb, _ := h.table()
	tableMsg := h.groupMsg(tb)
	presses := h.play([]tgtest.User{alice, bob}, first)
	h.ended()
	h.flush()
	t.Logf("injected faults: %d", countInjected(h.fake.Calls()))
	final, err := h.lastMatchErr()
	if err != nil || len(final.Log) < presses {
		t.Fatalf("archived %d actions for %d presses: %v", len(final.Log), presses, err)
	}
	tm, _ := h.fake.Message(group, tableMsg)
	if strings.Contains(tm.Plain, "Turn:") || tm.Plain == "" {
		t.Errorf("table message is not final: %s", tm.Plain)
	}
	for _, u := range []tgtest.User{alice, bob} {
		ms := h.fake.Messages(u.ID)
		if last := ms[len(ms)-1]; !strings.Contains(last.Plain, "The match is over") || len(last.Keyboard) > 0 {
			t.Errorf("%s's last hand message: %q %+v", u.FirstName, last.Plain, last.Keyboard)
		}
	}
	h.clean()
}

func countInjected(calls []tgtest.Call) int {
	n := 0
	for _, c := range calls {
		if c.Injected {
			n++
		}
	}
	return n
}
