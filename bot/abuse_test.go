package bot

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/internal/tgtest"
)

// TestAbuse: every bad press gets its own answer and changes nothing; the match still finishes.
func TestAbuse(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	players := []tgtest.User{alice, bob, carol}
	h.openDMs(players...)
	h.shortGame(alice)

	lobby := h.lobby()
	tok := strings.Split(firstData(lobby), "|")[1]
	for _, c := range []struct {
		from       tgtest.User
		data, want string
	}{
		{bob, "l2|" + tok + "|drop", "This button is not from me."},
		{bob, "l2|99999|join", "out of date"},
		{bob, "l2|" + tok + "|opts", "Only the creator"},
		{bob, "n1|chess", "This button is not from me."},
	} {
		if a := h.press(group, lobby.ID, c.from, c.data); !strings.Contains(a.Text, c.want) {
			t.Errorf("lobby press %q: answer %q, want %q", c.data, a.Text, c.want)
		}
	}
	h.flush()
	if m, _ := h.fake.Message(group, lobby.ID); len(m.Keyboard) == 0 {
		t.Errorf("bad lobby presses removed the lobby's buttons")
	}
	h.say(group, bob, "/join")
	h.say(group, carol, "/join")
	h.seats(3)
	h.begin(alice)

	// One real move, so an older version exists.
	first := h.waitTurn(players, -1)
	oldData := first.msg.Keyboard[0][0].Data
	h.press(first.user.ID, first.msg.ID, first.user, oldData)
	cur := h.waitTurn(players, first.version)
	before, _ := h.table()
	beforeLog := h.log()
	curData := cur.msg.Keyboard[0][0].Data
	other := players[(slices.Index(players, cur.user)+1)%3]
	otherMsgs := h.fake.Messages(other.ID)

	h.say(alice.ID, alice, "/join")
	h.reply(alice.ID, "works in a group chat")
	h.say(bob.ID, bob, "/begin")
	h.reply(bob.ID, "works in a group chat")

	cases := []struct {
		name string
		chat int64
		msg  int
		from tgtest.User
		data string
		want string
	}{
		{"forged", cur.user.ID, cur.msg.ID, cur.user, fmt.Sprintf("v2|%d|x|bid/0", before.ID), "This button is not from me."},
		{"garbage", cur.user.ID, cur.msg.ID, cur.user, "hello", "This button is not from me."},
		{"no table", cur.user.ID, cur.msg.ID, cur.user, fmt.Sprintf("v2|999|%d|bid/0", cur.version), "This table is closed."},
		{"stale", first.user.ID, first.msg.ID, first.user, oldData, "This button is out of date"},
		{"non-player", group, lobby.ID, dave, curData, "You're not playing at this table."},
		{"out of turn", other.ID, otherMsgs[len(otherMsgs)-1].ID, other, curData, "It's not your turn."},
		{"illegal", cur.user.ID, cur.msg.ID, cur.user, fmt.Sprintf("v2|%d|%d|bid/99", before.ID, cur.version), "You can't do that now."},
	}
	answers := map[string]string{}
	for _, c := range cases {
		a := h.press(c.chat, c.msg, c.from, c.data)
		if !strings.HasPrefix(a.Text, c.want) {
			t.Errorf("%s: answer %q, want %q", c.name, a.Text, c.want)
		}
		if prev, dup := answers[a.Text]; dup && a.Text != "This button is not from me." {
			t.Errorf("%s and %s got the same answer %q", c.name, prev, a.Text)
		}
		answers[a.Text] = c.name
	}
	after, _ := h.table()
	if after.Version != before.Version || !slices.Equal(h.log(), beforeLog) {
		t.Fatalf("abuse changed the table: version %d -> %d", before.Version, after.Version)
	}

	// A double press: one is played, the other is out of date.
	id1 := h.fake.Press(cur.user.ID, cur.msg.ID, cur.user, curData)
	id2 := h.fake.Press(cur.user.ID, cur.msg.ID, cur.user, curData)
	var a1, a2 tgtest.CallbackAnswer
	h.wait("both answers", func() bool {
		var ok1, ok2 bool
		a1, ok1 = h.fake.Answer(id1)
		a2, ok2 = h.fake.Answer(id2)
		return ok1 && ok2
	})
	if !strings.HasPrefix(a1.Text, "Played") || !strings.HasPrefix(a2.Text, "This button is out of date") {
		t.Errorf("double press answered %q and %q", a1.Text, a2.Text)
	}
	if t2, _ := h.table(); t2.Version != before.Version+1 {
		t.Errorf("double press: version %d, want %d", t2.Version, before.Version+1)
	}

	h.play(players, func(n int) int { return n - 1 })
	h.ended()
	h.flush()
	if m, ok := h.fake.Message(first.user.ID, first.msg.ID); ok && len(m.Keyboard) > 0 {
		t.Errorf("the stale message kept its keyboard")
	}
	h.clean()
}
