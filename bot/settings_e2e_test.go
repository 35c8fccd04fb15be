package bot

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kozyr-bot/kozyr/bot/callback"
	"github.com/kozyr-bot/kozyr/internal/tgtest"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// The end-to-end tests of issue #14 (C): options in /new, a group's /settings, tables in forum
// topics.

// tableAt is the open table at p, if any.
func (h *harness) tableAt(p store.Place) (store.Table, bool) {
	var t store.Table
	err := h.st.View(context.Background(), func(tx store.Tx) error {
		var err error
		t, err = tx.TableAt(p)
		return err
	})
	return t, err == nil
}

// chatRec is what the store keeps of a chat (the zero Chat when nothing).
func (h *harness) chatRec(id int64) store.Chat {
	h.t.Helper()
	var c store.Chat
	err := h.st.View(context.Background(), func(tx store.Tx) error {
		var err error
		c, err = tx.Chat(id)
		return err
	})
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		h.t.Fatal(err)
	}
	return c
}

// lastAt is the newest match archived at p.
func (h *harness) lastAt(p store.Place) (store.Match, bool) {
	var m store.Match
	err := h.st.View(context.Background(), func(tx store.Tx) error {
		var err error
		m, err = tx.LastMatchAt(p)
		return err
	})
	return m, err == nil
}

// answerTo waits for the bot's reply to message id of chat.
func (h *harness) answerTo(chat int64, id int) tgtest.Message {
	h.t.Helper()
	var m tgtest.Message
	h.wait("the bot's answer", func() bool {
		for _, msg := range h.fake.Messages(chat) {
			if msg.ReplyTo == id && msg.From == tgtest.BotID {
				m = msg
				return true
			}
		}
		return false
	})
	return m
}

// TestNewWithOptions: /new takes the lobby's options by id and by label, over the group's
// settings; the lobby shows them and the match is played with them.
func TestNewWithOptions(t *testing.T) {
	t.Parallel()
	h := start(t, setup{rateScale: 1000})
	players := []tgtest.User{alice, bob, carol}
	h.openDMs(players...)
	h.say(group, alice, `/new wizard short_game=3 "Hidden bids"=YES level=normal`)
	lobby := h.lobby()
	tb, _ := h.table()
	if tb.Config.Options["short_game"] != "3" || tb.Config.Options["hidden_bids"] != "on" || tb.Level != "normal" {
		t.Fatalf("table from /new with options: %+v level %q", tb.Config.Options, tb.Level)
	}
	for _, line := range []string{"Length: first 3 rounds", "Hidden bids: yes (secret, revealed together)", "Computer players: normal"} {
		if !strings.Contains(lobby.Plain, line) {
			t.Errorf("lobby without %q:\n%s", line, lobby.Plain)
		}
	}
	h.say(group, bob, "/join")
	h.say(group, carol, "/join")
	h.seats(3)
	h.begin(alice)
	// Three rounds: 1+2+3 cards and one bid a round from each of three players, and a trump to
	// name in the first two rounds if a Wizard is turned.
	if n := h.play(players, first); n < 3*(6+3) || n > 3*(6+3)+2 {
		t.Errorf("%d presses, want 27 to 29 for three rounds", n)
	}
	final, _ := h.lastMatch()
	if final.Config.Options["short_game"] != "3" || final.Config.Options["hidden_bids"] != "on" {
		t.Errorf("archived match config %+v", final.Config)
	}
	h.ended()
	h.flush()
	h.clean()
}

// TestNewBadOptions: every kind of wrong /new argument is answered with one line that names what
// is valid, and no table opens.
func TestNewBadOptions(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	h.openDMs(alice)
	for _, c := range []struct{ args, want string }{
		{"wizard colour=red", "Wizard has no option “colour”. Options: bids_cannot_match, hidden_bids, short_game, level."},
		{"wizard short_game=9", "short_game can't be “9”. Values: off, 3, 5, 7, 10, odd, even."},
		{"wizard level=genius", "level can't be “genius”. Values: easy, normal, strong."},
		{"wizard short_game", "“short_game” is not key=value. Options: bids_cannot_match, hidden_bids, short_game, level."},
		{"wizard short_game=3 Length=5", "short_game is set twice."},
		{"chess short_game=3", "I don't know that game. Games:"},
	} {
		id := h.fake.SendText(group, alice, "/new "+c.args)
		m := h.answerTo(group, id)
		if !strings.Contains(m.Plain, c.want) || strings.Contains(m.Plain, "\n") || len(m.Keyboard) > 0 {
			t.Errorf("/new %s: answered %q, want one line with %q", c.args, m.Plain, c.want)
		}
		if tb, ok := h.table(); ok {
			t.Fatalf("/new %s opened table %d", c.args, tb.ID)
		}
	}
	h.say(group, alice, "/lang ru")
	h.wait("the group in Russian", func() bool { return h.chatRec(group).Lang == "ru" })
	id := h.fake.SendText(group, alice, "/new wizard цвет=красный")
	if m := h.answerTo(group, id); !strings.Contains(m.Plain, "нет настройки «цвет». Настройки: bids_cannot_match") {
		t.Errorf("a bad option in Russian: %q", m.Plain)
	}
	if _, ok := h.table(); ok {
		t.Error("a bad option in Russian opened a table")
	}
	h.flush()
	h.clean()
}

// TestSettingsByAdmin: an administrator sets the group's defaults in one line; new tables start
// from them (an explicit /new option overrides), and the table's own timing is what the timers
// use: the bot is configured with no turn timer and an hour's pause for its agents, the group
// with a 30s timer and no pause, and a match against two agents plays to its end at once.
func TestSettingsByAdmin(t *testing.T) {
	t.Parallel()
	h := start(t, setup{turnTimeout: 0, aiDelay: time.Hour})
	h.openDMs(alice)
	h.fake.SetAdmin(group, carol.ID)
	id := h.fake.SendText(group, carol, "/settings timeout=30s delay=0 level=easy wizard.short_game=3 wizard.hidden_bids=on")
	if m := h.answerTo(group, id); !strings.HasPrefix(m.Plain, "Saved.") || !strings.Contains(m.Plain, "Time per move: 30 s") {
		t.Errorf("/settings with arguments answered %q", m.Plain)
	}
	c := h.chatRec(group)
	if c.Settings.TurnTimeout == nil || *c.Settings.TurnTimeout != 30*time.Second || c.Settings.AIDelay == nil ||
		*c.Settings.AIDelay != 0 || c.Settings.Level != "easy" || c.Settings.Options["wizard"]["short_game"] != "3" {
		t.Fatalf("stored settings %+v", c.Settings)
	}

	// An explicit option wins over the group's; the rest comes from the settings.
	h.say(group, alice, "/new wizard hidden_bids=off")
	lobby := h.lobby()
	tb, _ := h.table()
	if tb.Config.Options["short_game"] != "3" || tb.Config.Options["hidden_bids"] != "" || tb.Level != "easy" ||
		tb.TurnTimeout == nil || *tb.TurnTimeout != 30*time.Second || tb.AIDelay == nil || *tb.AIDelay != 0 {
		t.Fatalf("new table %+v level %q", tb.Config.Options, tb.Level)
	}
	if !strings.Contains(lobby.Plain, "Time per move: 30 s") || !strings.Contains(lobby.Plain, "Length: first 3 rounds") {
		t.Errorf("lobby:\n%s", lobby.Plain)
	}
	h.say(group, alice, "/addai")
	h.say(group, alice, "/addai")
	h.seats(3)
	h.begin(alice)
	cur := h.waitTurn([]tgtest.User{alice}, -1)
	tb, _ = h.table()
	if left := time.Until(tb.Deadline); left <= 20*time.Second || left > 30*time.Second {
		t.Errorf("alice's turn timer runs out in %v, want the group's 30s", left)
	}
	h.press(alice.ID, cur.msg.ID, alice, cur.msg.Keyboard[0][0].Data)
	h.play([]tgtest.User{alice}, first)
	h.ended()
	h.flush()
	h.clean()
}

// settingsButton is the data of the settings message's button for arg (a setting's key or a
// game's page).
func settingsButton(t *testing.T, m tgtest.Message, arg string) string {
	t.Helper()
	for _, row := range m.Keyboard {
		for _, btn := range row {
			if d, err := callback.ParseSettings(btn.Data); err == nil && d.Arg == arg {
				return btn.Data
			}
		}
	}
	t.Fatalf("settings message without a button for %q: %+v", arg, m.Keyboard)
	return ""
}

// TestSettingsButtons: /settings alone shows the settings with buttons; an administrator's press
// moves a setting on and redraws the message; a non-administrator's command or press, a stale
// press and a forged one change nothing; an anonymous administrator (posting as the group) may
// change them.
func TestSettingsButtons(t *testing.T) {
	t.Parallel()
	h := start(t, setup{turnTimeout: 2 * time.Minute})
	h.fake.SetAdmin(group, carol.ID)

	id := h.fake.SendText(group, bob, "/settings timeout=60s")
	if m := h.answerTo(group, id); m.Plain != "Only the group's administrators can change its settings." {
		t.Errorf("/settings by a non-admin: %q", m.Plain)
	}
	id = h.fake.SendText(group, bob, "/settings")
	if m := h.answerTo(group, id); len(m.Keyboard) > 0 || !strings.HasPrefix(m.Plain, "Only the group's administrators") {
		t.Errorf("/settings alone by a non-admin: %q %+v", m.Plain, m.Keyboard)
	}
	if c := h.chatRec(group); c.Settings.Version != 0 || c.Settings.TurnTimeout != nil {
		t.Fatalf("a non-admin changed the settings: %+v", c.Settings)
	}

	id = h.fake.SendText(group, carol, "/settings")
	msg := h.answerTo(group, id)
	if !strings.Contains(msg.Plain, "Time per move: 2 min (the bot's default)") {
		t.Errorf("settings message:\n%s", msg.Plain)
	}
	timeout := settingsButton(t, msg, "timeout")
	if a := h.press(group, msg.ID, bob, timeout); a.Text != "Only the group's administrators can change its settings." {
		t.Errorf("a non-admin's press answered %q", a.Text)
	}
	if a := h.press(group, msg.ID, carol, timeout); a.Text != "Saved." {
		t.Errorf("the admin's press answered %q", a.Text)
	}
	c := h.chatRec(group)
	if c.Settings.TurnTimeout == nil || *c.Settings.TurnTimeout != 0 || c.Settings.Version != 1 {
		t.Fatalf("after one press on the timeout: %+v", c.Settings)
	}
	h.wait("the settings message redrawn", func() bool {
		m, _ := h.fake.Message(group, msg.ID)
		return strings.Contains(m.Plain, "Time per move: no limit")
	})
	// The same button again is of the old version.
	if a := h.press(group, msg.ID, carol, timeout); !strings.HasPrefix(a.Text, "These settings have changed") {
		t.Errorf("a stale press answered %q", a.Text)
	}
	for _, forged := range []string{"s1|1|c|nothing", "s1|1|c|wizard.nothing", "s1|1|p|chess", "s1|x|c|lang"} {
		if a := h.press(group, msg.ID, carol, forged); a.Text != "This button is not from me." {
			t.Errorf("forged %q answered %q", forged, a.Text)
		}
	}
	if after := h.chatRec(group); !sameChat(after, c) || after.Settings.Version != 1 {
		t.Fatalf("stale or forged presses changed the settings: %+v", after.Settings)
	}
	// A game's page, and its option moved on from there.
	h.flush()
	cur, _ := h.fake.Message(group, msg.ID)
	if a := h.press(group, msg.ID, carol, settingsButton(t, cur, "wizard")); a.Text != "" {
		t.Errorf("the wizard page answered %q", a.Text)
	}
	h.wait("the wizard page", func() bool {
		m, _ := h.fake.Message(group, msg.ID)
		return strings.Contains(m.Plain, "Length: full game")
	})
	cur, _ = h.fake.Message(group, msg.ID)
	h.press(group, msg.ID, carol, settingsButton(t, cur, "wizard.short_game"))
	if c := h.chatRec(group); c.Settings.Options["wizard"]["short_game"] != "3" || c.Settings.Version != 2 {
		t.Errorf("after the short_game button: %+v", c.Settings)
	}

	// Back to the main page; its language button turns the group, and the message, to the next
	// language.
	h.flush()
	cur, _ = h.fake.Message(group, msg.ID)
	h.press(group, msg.ID, carol, settingsButton(t, cur, ""))
	h.wait("the main page again", func() bool {
		m, _ := h.fake.Message(group, msg.ID)
		return strings.Contains(m.Plain, "Language: English")
	})
	cur, _ = h.fake.Message(group, msg.ID)
	h.press(group, msg.ID, carol, settingsButton(t, cur, "lang"))
	h.wait("the settings in Russian", func() bool {
		m, _ := h.fake.Message(group, msg.ID)
		return h.chatRec(group).Lang == "ru" && strings.Contains(m.Plain, "Настройки этой группы") && strings.Contains(m.Plain, "Язык: Русский")
	})
	id = h.fake.SendText(group, carol, "/settings lang=en")
	if m := h.answerTo(group, id); !strings.HasPrefix(m.Plain, "Saved.") || h.chatRec(group).Lang != "en" {
		t.Errorf("/settings lang=en answered %q", m.Plain)
	}

	// An anonymous administrator posts as the group.
	id = h.fake.SendAsGroup(group, 0, "/settings delay=1s")
	if m := h.answerTo(group, id); !strings.HasPrefix(m.Plain, "Saved.") {
		t.Errorf("an anonymous admin's /settings answered %q", m.Plain)
	}
	if c := h.chatRec(group); c.Settings.AIDelay == nil || *c.Settings.AIDelay != time.Second {
		t.Errorf("after the anonymous admin: %+v", c.Settings)
	}
	h.flush()
	h.clean()
}

// TestRulesListsOptions: /rules <game> lists every option of the game and the level by the ids
// /new takes, with their names in the group's language, in messages Telegram accepts.
func TestRulesListsOptions(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	for _, lang := range []string{"en", "ru"} {
		h.say(group, alice, "/lang "+lang)
		h.wait("the group's language", func() bool { return h.chatRec(group).Lang == lang })
		for _, r := range h.bot.cfg.Games {
			id := h.fake.SendText(group, alice, "/rules "+r.Name())
			var text string
			h.wait("the rules of "+r.Name(), func() bool {
				text = ""
				for _, m := range h.fake.Messages(group) {
					if m.ReplyTo == id {
						text += m.Plain + "\n"
					}
				}
				return strings.Contains(text, "/new "+r.Name()+" key=value")
			})
			for _, o := range r.Options() {
				name := locales.Plain(h.bot.render.Text(lang, r.Name()+".opt."+o.Key))
				if !strings.Contains(text, o.Key+" "+name+":") {
					t.Errorf("/rules %s in %s: no %q with its name %q", r.Name(), lang, o.Key, name)
				}
				for _, v := range o.Values {
					if !strings.Contains(text, v) {
						t.Errorf("/rules %s in %s: no value %q of %s", r.Name(), lang, v, o.Key)
					}
				}
			}
			if !strings.Contains(text, "level "+locales.Plain(h.bot.render.Text(lang, "bot.opt.level"))+": easy") {
				t.Errorf("/rules %s in %s without the level", r.Name(), lang)
			}
		}
	}
	h.flush()
	h.clean()
}

// forumTable is one table of TestForumTopics: where it is, who plays it.
type forumTable struct {
	topic   int
	players []tgtest.User
	id      store.TableID
	last    int // the version of the last press
	done    bool
}

// TestForumTopics: two tables in two topics of one forum group are played at the same time to
// their ends without crossing: every message of a table is in its topic, each player's hands are
// of their own table, each topic's result and /score are its own match's, and the General topic
// answers as a group without topics.
func TestForumTopics(t *testing.T) {
	t.Parallel()
	const forum = int64(-1001234567890)
	h := start(t, setup{})
	h.chat = forum
	h.fake.AddForum(forum, "Card club")
	one := h.fake.CreateTopic(forum, alice, "Table one")
	two := h.fake.CreateTopic(forum, carol, "Table two")
	h.openDMs(alice, bob, carol)
	tables := []*forumTable{{topic: one, players: []tgtest.User{alice, bob}}, {topic: two, players: []tgtest.User{carol, dave}}}
	for _, ft := range tables {
		h.fake.SendTopicText(forum, ft.topic, ft.players[0], "/new wizard short_game=3")
		h.wait("the table in its topic", func() bool {
			tb, ok := h.tableAt(store.Place{Chat: forum, Topic: ft.topic})
			ft.id = tb.ID
			return ok
		})
	}
	// Dave has no DM yet: /join in topic two answers there with a link to table two.
	id := h.fake.SendTopicText(forum, two, dave, "/join")
	prompt := h.answerTo(forum, id)
	link := "https://t.me/kozyr_test_bot?start=" + callback.JoinPayload(tables[1].id)
	if prompt.Thread != two || len(prompt.Keyboard) != 1 || prompt.Keyboard[0][0].URL != link {
		t.Fatalf("deep-link prompt in thread %d: %q %+v", prompt.Thread, prompt.Plain, prompt.Keyboard)
	}
	h.fake.StartDM(dave, callback.JoinPayload(tables[1].id))
	h.fake.SendTopicText(forum, one, bob, "/join")
	for _, ft := range tables {
		h.fake.SendTopicText(forum, ft.topic, ft.players[0], "/addai")
	}
	for _, ft := range tables {
		p := store.Place{Chat: forum, Topic: ft.topic}
		h.wait("three seats", func() bool { tb, ok := h.tableAt(p); return ok && len(tb.Seats) == 3 })
		h.fake.SendTopicText(forum, ft.topic, ft.players[0], "/begin")
		h.wait("the match to start", func() bool { tb, ok := h.tableAt(p); return ok && tb.Started })
		tb, _ := h.tableAt(p)
		ft.last = tb.Version - 1
	}
	// Both matches at once: whichever table has a turn gets its press.
	type move struct {
		ft  *forumTable
		cur turn
	}
	for !tables[0].done || !tables[1].done {
		var moves []move
		h.wait("a turn at either table", func() bool {
			moves = moves[:0]
			for _, ft := range tables {
				if _, ok := h.lastAt(store.Place{Chat: forum, Topic: ft.topic}); ok {
					ft.done = true
				}
				if cur, ok := h.turnAt(ft); ok && !ft.done {
					moves = append(moves, move{ft, cur})
				}
			}
			return len(moves) > 0 || (tables[0].done && tables[1].done)
		})
		for _, mv := range moves {
			u, m := mv.cur.user, mv.cur.msg
			if a := h.press(u.ID, m.ID, u, m.Keyboard[0][0].Data); !strings.HasPrefix(a.Text, "Played") {
				t.Fatalf("press by %s: %q", u.FirstName, a.Text)
			}
			mv.ft.last = mv.cur.version
		}
	}
	h.flush()

	// Every message of the bot in the forum is in a topic, and a table's in its own.
	for _, m := range h.fake.Messages(forum) {
		if m.From != tgtest.BotID {
			continue
		}
		if m.Thread != one && m.Thread != two {
			t.Errorf("message %d in thread %d: %q", m.ID, m.Thread, m.Plain)
		}
		if d, err := callback.ParseLobby(firstData(m)); err == nil && m.Thread != tables[slices.IndexFunc(tables, func(ft *forumTable) bool { return ft.id == d.Table })].topic {
			t.Errorf("table %d's message %d in thread %d", d.Table, m.ID, m.Thread)
		}
	}
	for i, ft := range tables {
		other := tables[1-i]
		m, _ := h.lastAt(store.Place{Chat: forum, Topic: ft.topic})
		if m.Table != ft.id || len(m.Seats) != 3 || m.Seats[0].UserID != ft.players[0].ID || m.Seats[1].UserID != ft.players[1].ID {
			t.Errorf("topic %d archived %+v", ft.topic, m.Seats)
		}
		if st, err := h.matchState(m); err != nil || len(st.ToAct()) != 0 {
			t.Errorf("topic %d's match does not replay to its end: %v", ft.topic, err)
		}
		results := 0
		for _, msg := range h.fake.Topic(forum, ft.topic) {
			if strings.Contains(msg.Plain, "Final score") {
				results++
				if !strings.Contains(msg.Plain, ft.players[1].FirstName) || strings.Contains(msg.Plain, other.players[1].FirstName) {
					t.Errorf("topic %d's result: %q", ft.topic, msg.Plain)
				}
			}
		}
		if results != 1 {
			t.Errorf("%d final results in topic %d", results, ft.topic)
		}
		for _, u := range ft.players {
			for _, msg := range h.fake.Messages(u.ID) {
				if d, err := callback.ParsePlay(firstData(msg)); err == nil && d.Table != ft.id {
					t.Errorf("%s got a hand of table %d", u.FirstName, d.Table)
				}
			}
		}
		id := h.fake.SendTopicText(forum, ft.topic, ft.players[0], "/score")
		if s := h.answerTo(forum, id); s.Thread != ft.topic || !strings.Contains(s.Plain, ft.players[1].FirstName) ||
			strings.Contains(s.Plain, other.players[1].FirstName) {
			t.Errorf("/score in topic %d (thread %d): %q", ft.topic, s.Thread, s.Plain)
		}
	}
	id = h.fake.SendTopicText(forum, 0, alice, "/score")
	if s := h.answerTo(forum, id); s.Thread != 0 || s.Plain != "No match has been played here yet." {
		t.Errorf("/score in General (thread %d): %q", s.Thread, s.Plain)
	}
	h.clean()
}

// turnAt is the newest keyboard of table ft that its players may press, newer than its last press.
func (h *harness) turnAt(ft *forumTable) (turn, bool) {
	var best turn
	found := false
	for _, p := range ft.players {
		for _, m := range h.fake.Messages(p.ID) {
			d, err := callback.ParsePlay(firstData(m))
			if err != nil || d.Table != ft.id || d.Version <= ft.last {
				continue
			}
			if !found || d.Version > best.version {
				best, found = turn{user: p, msg: m, version: d.Version}, true
			}
		}
	}
	return best, found
}
