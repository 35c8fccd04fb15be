package bot

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kozyr-bot/kozyr/bot/callback"
	"github.com/kozyr-bot/kozyr/internal/tgtest"
	"github.com/kozyr-bot/kozyr/store"
)

// TestTurnTimer: nobody presses; the agent plays each human turn when its timer runs out, and
// after three timeouts in a row the seat is away until its player presses a button.
func TestTurnTimer(t *testing.T) {
	t.Parallel()
	h := start(t, setup{turnTimeout: 60 * time.Millisecond, aiDelay: 10 * time.Millisecond})
	h.openDMs(alice, bob)
	h.aliceBobAndAgent()
	h.wait("alice away after three timeouts", func() bool {
		tb, ok := h.table()
		return ok && tb.Seats[0].Away && tb.Seats[0].Timeouts >= maxTimeouts
	})
	// Any press of hers brings her back, even on an old button.
	tb, _ := h.table()
	a := h.press(alice.ID, h.fake.Messages(alice.ID)[0].ID, alice, fmt.Sprintf("v2|%d|0|bid/0", tb.ID))
	if !strings.HasPrefix(a.Text, "This button is out of date") {
		t.Errorf("old press answered %q", a.Text)
	}
	h.wait("alice back", func() bool {
		tb, ok := h.table()
		return !ok || !tb.Seats[0].Away
	})
	h.wait("the agents to finish the match", h.finished)
	h.ended()
	h.flush()
	final, _ := h.lastMatch()
	if len(final.Log) < 27 {
		t.Errorf("finished after %d actions", len(final.Log))
	}
	h.clean()
}

// TestMigration: a group that becomes a supergroup keeps its table and the match goes on there.
func TestMigration(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	players := []tgtest.User{alice, bob}
	h.openDMs(players...)
	h.aliceBobAndAgent()
	cur := h.waitTurn(players, -1)
	h.press(cur.user.ID, cur.msg.ID, cur.user, cur.msg.Keyboard[0][0].Data)

	const super = int64(-1009876543210)
	h.fake.Migrate(group, super)
	h.chat = super
	h.wait("the table to move", func() bool { _, ok := h.table(); return ok })
	h.wait("a table message in the supergroup", func() bool {
		return len(h.fake.Messages(super)) > 0
	})
	h.play(players, first)
	h.ended()
	h.flush()
	h.chat = group
	if _, ok := h.table(); ok {
		t.Errorf("old chat still has a table")
	}
	h.clean()
}

// TestBotRemoved: removed from the group, the bot closes the table quietly.
func TestBotRemoved(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	players := []tgtest.User{alice, bob}
	h.openDMs(players...)
	h.aliceBobAndAgent()
	h.waitTurn(players, -1)
	h.flush()
	sent := len(h.fake.Messages(group))
	h.fake.BotRemoved(group, alice)
	h.wait("the table to close", func() bool { _, ok := h.table(); return !ok })
	h.wait("the hands to lose their buttons", func() bool { return !h.anyKeyboard(players) })
	h.flush()
	if n := len(h.fake.Messages(group)); n != sent {
		t.Errorf("the bot wrote %d messages to a group it was removed from", n-sent)
	}
	if _, ok := h.lastMatch(); ok {
		t.Errorf("a removed table was archived")
	}
	h.clean()
}

// TestCommandReplies: the informational commands, wrong-chat commands and /lang, in both languages.
func TestCommandReplies(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	h.openDMs(alice)
	for _, c := range []struct {
		chat       int64
		text, want string
	}{
		{group, "/help", "Card games at your table"},
		{group, "/rules wizard", "60 cards"},
		{group, "/rules", "Which game?"},
		{group, "/score", "No match has been played here yet"},
		{group, "/stats", "No finished matches yet"},
		{group, "/new chess", "I don't know that game"},
		{group, "/leave", "There is no table here"},
		{group, "/begin", "There is no table here"},
		{alice.ID, "/join", "works in a group chat"},
		{alice.ID, "/hand", "not playing at a table"},
		{alice.ID, "/help", "Here you get your cards"},
		{alice.ID, "/frobnicate", "I don't know that command"},
		{alice.ID, "/lang", "Language: en"},
		{alice.ID, "/lang ru", "по-русски"},
		{alice.ID, "/help", "Здесь вы получаете свои карты"},
		{group, "/lang ru", "по-русски"},
		{group, "/help", "Карточные игры"},
		{group, "/lang xx", "Язык: ru"},
		{group, "/rules wizard", "Волшебника"},
	} {
		h.say(c.chat, alice, c.text)
		h.reply(c.chat, c.want)
	}
	if cmds := h.fake.Commands("all_group_chats", "ru"); len(cmds) == 0 || !strings.Contains(cmds[0].Description, "стол") {
		t.Errorf("Russian group commands: %+v", cmds)
	}
	if cmds := h.fake.Commands("all_private_chats", ""); len(cmds) == 0 || cmds[0].Command != "start" {
		t.Errorf("default private commands: %+v", cmds)
	}
	h.flush()
	h.clean()
}

// TestClosedDMGetsDeepLink: a seated player the bot cannot write to (403) gets a deep link in the
// group; pressing START on it brings their hand.
func TestClosedDMGetsDeepLink(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	h.openDMs(alice)
	// The bot believes Dave's DM is open (he blocked it since, say); Telegram answers 403.
	h.updateUser(dave.ID, func(u *store.User) { u.DMOpen = true })
	h.shortGame(alice)
	h.say(group, dave, "/join")
	h.say(group, alice, "/addai")
	h.seats(3)
	h.begin(alice)
	link := h.reply(group, "I can't write to you")
	tb, _ := h.table()
	if len(link.Keyboard) != 1 || !strings.HasSuffix(link.Keyboard[0][0].URL, "?start="+callback.JoinPayload(tb.ID)) {
		t.Fatalf("deep link message: %+v", link)
	}
	h.fake.StartDM(dave, callback.JoinPayload(tb.ID))
	h.wait("dave's hand", func() bool {
		for _, m := range h.fake.Messages(dave.ID) {
			if strings.Contains(m.Plain, "Your cards") {
				return true
			}
		}
		return false
	})
	h.play([]tgtest.User{alice, dave}, first)
	h.ended()
	h.flush()
	h.clean()
}

// TestAdminAndHand: a chat admin may run someone else's table; /hand sends a fresh hand message.
func TestAdminAndHand(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	players := []tgtest.User{alice, bob}
	h.openDMs(alice, bob, carol)
	h.fake.SetAdmin(group, carol.ID)
	h.shortGame(alice)
	h.say(group, bob, "/join")
	h.say(group, bob, "/addai")
	h.seats(3)
	h.say(group, bob, "/begin")
	h.reply(group, "Only the creator of the table or an admin can start")
	h.say(group, carol, "/begin")
	h.wait("the match to start", func() bool { tb, ok := h.table(); return ok && tb.Started })
	h.waitTurn(players, -1)
	h.flush()
	n := len(h.fake.Messages(bob.ID))
	h.say(bob.ID, bob, "/hand")
	h.wait("a fresh hand message", func() bool { return len(h.fake.Messages(bob.ID)) > n })
	h.say(group, alice, "/hand")
	h.flush()
	h.say(group, bob, "/cancel")
	h.reply(group, "Only the creator of the table or an admin can close it")
	h.say(group, carol, "/cancel")
	h.wait("the table to close", func() bool { _, ok := h.table(); return !ok })
	h.wait("the hands to lose their buttons", func() bool { return !h.anyKeyboard(players) })
	h.reply(group, "The table was closed")
	h.clean()
}
