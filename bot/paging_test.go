package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/internal/tgtest"
)

// TestPagedAuction: the first Skat call offers 88 bids and pass; the DM shows them in pages of at most
// render.PageSize with "‹" / "›" buttons. A page press edits the keyboard only (no new message, no state
// change) and is answered; page buttons of an old keyboard are stale, forged ones refused, a
// non-player's refused; a bid from a later page is played.
func TestPagedAuction(t *testing.T) {
	t.Parallel()
	h := start(t, setup{rateScale: 200})
	players := []tgtest.User{alice, bob, carol}
	h.openDMs(players...)
	h.say(group, alice, "/new skat")
	h.lobby()
	h.say(group, bob, "/join")
	h.say(group, carol, "/join")
	h.seats(3)
	h.begin(alice)
	cur := h.waitTurn(players, -1)
	tb, _ := h.table()
	st, err := h.state(tb)
	if err != nil {
		t.Fatal(err)
	}
	seat := tb.SeatOf(cur.user.ID)
	legal := st.Legal(seat)
	if len(legal) != 89 || legal[len(legal)-1] != games.Do("pass") {
		t.Fatalf("middlehand's first call offers %d actions, want 88 bids and pass", len(legal))
	}
	first := cur.msg
	if got := pageOf(first); got != "1/4" {
		t.Fatalf("first keyboard on page %q, want 1/4", got)
	}
	btns := actionButtons(first)
	if a, _ := actionOf(btns[0]); a != games.Num("bid", 18) || len(btns) != render.PageSize {
		t.Errorf("page 1 starts with %v and has %d actions", a, len(btns))
	}
	if a, _ := actionOf(btns[len(btns)-1]); a != games.Do("pass") {
		t.Errorf("page 1 ends with %v, want pass", a)
	}
	sent := len(h.fake.Messages(cur.user.ID))
	a := acting{turn: cur, seat: seat, view: st.View(seat), legal: legal, tb: tb}

	// Through all pages and back: browse checks the ladder, the pinned pass and the buttons.
	m := h.browse(a)
	m = h.turnPage(cur.user, m, "›", "2/4")
	page2 := m
	// The page label is a button too: pressing it changes nothing.
	if ans := h.press(cur.user.ID, m.ID, cur.user, mustPageButton(t, m, "2/4").Data); ans.Text != "" {
		t.Errorf("the page label answered %q", ans.Text)
	}
	// Someone else's press on a page button, and forged page data.
	h.openDMs(dave)
	welcome := h.reply(dave.ID, "")
	if ans := h.press(dave.ID, welcome.ID, dave, mustPageButton(t, m, "›").Data); !strings.Contains(ans.Text, "not playing") {
		t.Errorf("a non-player's page press answered %q", ans.Text)
	}
	if ans := h.press(cur.user.ID, m.ID, cur.user, fmt.Sprintf("p1|%d|x|1", group)); !strings.Contains(ans.Text, "not from me") {
		t.Errorf("forged page data answered %q", ans.Text)
	}
	if n := len(h.fake.Messages(cur.user.ID)); n != sent {
		t.Errorf("page presses sent %d new messages", n-sent)
	}
	// A bid from page 2 is played like any other.
	bid := actionButtons(page2)[0]
	if act, _ := actionOf(bid); act.N <= 18 {
		t.Errorf("page 2 starts with %v", act)
	}
	if ans := h.press(cur.user.ID, m.ID, cur.user, bid.Data); !strings.HasPrefix(ans.Text, "Played") {
		t.Fatalf("bid from page 2 answered %q", ans.Text)
	}
	h.wait("the bid to be committed", func() bool { u, _ := h.table(); return u.Version == tb.Version+1 })
	// The old keyboard's page buttons are stale now.
	if ans := h.press(cur.user.ID, m.ID, cur.user, mustPageButton(t, page2, "‹").Data); !strings.Contains(ans.Text, "out of date") {
		t.Errorf("an old page button answered %q", ans.Text)
	}
	h.say(group, alice, "/cancel")
	h.wait("the table to close", func() bool { _, ok := h.table(); return !ok })
	h.flush()
	h.clean()
}

func mustPageButton(t *testing.T, m tgtest.Message, label string) tgtest.Button {
	t.Helper()
	b, ok := pageButton(m, label)
	if !ok {
		t.Fatalf("no page button %q in %+v", label, m.Keyboard)
	}
	return b
}
