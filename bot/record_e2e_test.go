package bot

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/joker"
	"github.com/kozyr-bot/kozyr/games/jokerbank"
	"github.com/kozyr-bot/kozyr/games/magister"
	"github.com/kozyr-bot/kozyr/games/nasilie"
	"github.com/kozyr-bot/kozyr/games/record"
	"github.com/kozyr-bot/kozyr/games/skat"
	"github.com/kozyr-bot/kozyr/games/wizard"
	"github.com/kozyr-bot/kozyr/internal/tgtest"
	"github.com/kozyr-bot/kozyr/store"
)

// recordGames are the six games with the options that keep a match short, and the seats of the
// test's table (Alice and computer players).
var recordGames = []struct {
	rules   games.Rules
	opts    map[string]string
	players int
}{
	{skat.Rules(), map[string]string{skat.OptDeals: "3"}, 3},
	{wizard.Rules(), map[string]string{wizard.OptShortGame: "3"}, 3},
	{magister.Rules(), nil, 2},
	{joker.Rules(), nil, 2},
	{jokerbank.Rules(), map[string]string{jokerbank.OptRounds: "10"}, 2},
	{nasilie.Rules(), map[string]string{nasilie.OptRounds: "3"}, 4},
}

// agentMatch plays a match of r with opts at players seats: Alice opens the table, seats computer
// players, begins and leaves it to the agent; it returns when the match-end post is in the group.
func (h *harness) agentMatch(r games.Rules, opts map[string]string, players int) tgtest.Message {
	h.t.Helper()
	h.openDMs(alice)
	h.openTable(alice, r, opts)
	for n := 2; n <= players; n++ {
		h.say(group, alice, "/addai")
		h.seats(n)
	}
	h.begin(alice)
	if t, ok := h.table(); ok {
		h.playing = t.ID
	}
	h.say(group, alice, "/leave")
	h.wait("the match to end", h.finished)
	return h.ended()
}

// document waits for the n-th document the bot sent to chat.
func (h *harness) document(chat int64, n int) tgtest.Document {
	h.t.Helper()
	var d tgtest.Document
	h.wait("a document", func() bool {
		docs := h.fake.Documents(chat)
		if len(docs) < n {
			return false
		}
		d = docs[n-1]
		return true
	})
	return d
}

// TestRecordEveryGame: a match of each game, then /record in the group and in Alice's DM; both
// send the same record, which replays exactly with the engine (what kozyr replay does), and a
// record tampered with is refused at the first difference.
func TestRecordEveryGame(t *testing.T) {
	t.Parallel()
	for _, g := range recordGames {
		t.Run(g.rules.Name(), func(t *testing.T) {
			t.Parallel()
			h := start(t, setup{rateScale: 1000, aiDelay: time.Millisecond})
			h.agentMatch(g.rules, g.opts, g.players)
			h.say(group, alice, "/record")
			inGroup := h.document(group, 1)
			h.say(alice.ID, alice, "/record")
			inDM := h.document(alice.ID, 1)
			if string(inGroup.Data) != string(inDM.Data) {
				t.Errorf("the group's and the DM's records differ")
			}
			if !strings.HasSuffix(inGroup.FileName, ".json") || !strings.Contains(inGroup.Plain, "kozyr replay") {
				t.Errorf("document %q with caption %q", inGroup.FileName, inGroup.Plain)
			}
			rec, err := record.Unmarshal(inGroup.Data)
			if err != nil {
				t.Fatalf("the record does not read: %v\n%s", err, inGroup.Data)
			}
			m, _ := h.lastMatch()
			if rec.Game != g.rules.Name() || uint64(rec.Seed) != m.Seed || len(rec.Actions) != len(m.Log) || rec.Seats[0].Name != "Alice" {
				t.Errorf("record %s seed %s with %d actions, seat 0 %q; archived seed %x, %d actions",
					rec.Game, rec.Seed, len(rec.Actions), rec.Seats[0].Name, m.Seed, len(m.Log))
			}
			sum, err := record.Replay(g.rules, rec)
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			if sum.Actions != len(m.Log) || sum.Deals != len(rec.Deals) || sum.Deals == 0 {
				t.Errorf("replay summary %+v for %d actions", sum, len(m.Log))
			}
			checkTampered(t, g.rules, rec)
			h.flush()
			h.clean()
		})
	}
}

// checkTampered changes a record in two ways and checks that Replay names the first difference:
// a deal's result, and an action given to another seat.
func checkTampered(t *testing.T, r games.Rules, rec record.Record) {
	t.Helper()
	data, err := record.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	fresh := func() record.Record {
		c, err := record.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	bad := fresh()
	last := bad.Deals[0].Last
	bad.Deals[0].Result = append(bad.Deals[0].Result, games.Msg{ID: "bot.score.final"})
	var m *record.Mismatch
	if _, err := record.Replay(r, bad); !errors.As(err, &m) || m.Action != last || !strings.Contains(m.What, "deal 1's result") {
		t.Errorf("a changed result of deal 1 (ending at action %d): %v", last, err)
	}
	bad = fresh()
	i := len(bad.Actions) / 2
	bad.Actions[i].Seat = (bad.Actions[i].Seat + 1) % bad.Players
	if _, err := record.Replay(r, bad); !errors.As(err, &m) || m.Action > i {
		t.Errorf("action %d given to another seat: %v", i, err)
	}
}

var (
	commitRE = regexp.MustCompile(`Deals committed: ([0-9a-f]{16})`)
	seedRE   = regexp.MustCompile(`Seed: ([0-9a-f]{16}) \(commitment ([0-9a-f]{16})\)`)
)

// TestDealsCheckable: three players play a short Wizard match; the table shows the commitment
// from /begin on, the match-end post reveals the seed, and dealing again from that seed (as kozyr
// verify does) gives exactly the hands each player was sent in their DM, deal by deal.
func TestDealsCheckable(t *testing.T) {
	t.Parallel()
	h := start(t, setup{rateScale: 1000, aiDelay: time.Millisecond})
	players := []tgtest.User{alice, bob, carol}
	var mu sync.Mutex
	dms := map[int64][]string{} // every text a player's DM showed
	var commits []string        // every commitment the group's messages showed
	h.fake.Watch(func(ev tgtest.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case ev.Chat > 0:
			dms[ev.Chat] = append(dms[ev.Chat], ev.Message.Text)
		case ev.Chat == group:
			if c := commitRE.FindStringSubmatch(ev.Message.Plain); c != nil {
				commits = append(commits, c[1])
			}
		}
	})
	h.openDMs(players...)
	h.shortGame(alice)
	h.say(group, bob, "/join")
	h.say(group, carol, "/join")
	h.seats(3)
	h.begin(alice)
	h.wait("the commitment on the table", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(commits) > 0
	})
	h.play(players, first)
	end := h.ended()
	h.flush()

	revealed := seedRE.FindStringSubmatch(end.Plain)
	if revealed == nil {
		t.Fatalf("the match-end post reveals no seed: %s", end.Plain)
	}
	seed, err := record.ParseSeed(revealed[1])
	if err != nil {
		t.Fatal(err)
	}
	r := wizard.Rules()
	cfg := games.Config{Players: 3, Options: map[string]string{wizard.OptShortGame: "3"}}
	want := record.Commit(r.Name(), r.Version(), cfg, r.Options(), uint64(seed))
	mu.Lock()
	shown := append([]string(nil), commits...)
	texts := dms
	mu.Unlock()
	for _, c := range append(shown, revealed[2]) {
		if c != want {
			t.Errorf("the group showed commitment %s; the revealed seed, game, rules and options give %s", c, want)
		}
	}
	deals, err := record.Redeal(r, cfg, uint64(seed), 0, nil)
	if err != nil || len(deals) != 3 {
		t.Fatalf("redeal: %d deals, %v", len(deals), err)
	}
	prefix := h.bot.render.Text("en", "bot.hand.cards") + " "
	for k, d := range deals {
		for s, u := range players {
			want := strings.Fields(h.bot.render.Loc.Cards("en", d.Hands[s].Cards()))
			slices.Sort(want)
			shown := slices.ContainsFunc(texts[u.ID], func(txt string) bool {
				_, line, ok := strings.Cut(txt, "\n"+prefix)
				line, _, _ = strings.Cut(line, "\n")
				got := strings.Fields(line)
				slices.Sort(got)
				return ok && slices.Equal(got, want)
			})
			if !shown {
				t.Errorf("deal %d: %s was never shown the hand %v the seed deals", k+1, u.FirstName, want)
			}
		}
	}
	h.clean()
}

// TestRecordNone: /record without a finished match answers one line in the chat's language and
// sends no document; an argument is refused the same way. /rules explains how to check the deals.
func TestRecordNone(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	h.openDMs(alice)
	h.say(group, alice, "/record")
	h.reply(group, "No match has finished in this chat yet")
	h.say(alice.ID, alice, "/record")
	h.reply(alice.ID, "You have not finished a match yet")
	h.say(group, alice, "/record last")
	h.reply(group, "/record takes no argument")
	h.say(group, alice, "/rules skat")
	h.reply(group, "Checking the deals. When the match begins the table shows a commitment")
	h.say(group, alice, "/lang ru")
	h.reply(group, "по-русски")
	h.say(group, alice, "/record")
	h.reply(group, "ещё не закончилась ни одна партия")
	h.say(group, alice, "/rules joker")
	h.reply(group, "Проверка раздач. В начале партии стол показывает отпечаток")
	h.flush()
	if n := len(h.fake.Documents(group)) + len(h.fake.Documents(alice.ID)); n != 0 {
		t.Errorf("%d documents sent without a match", n)
	}
	h.clean()
}

// TestRecordSurvivesRestart: what /record's transaction commits is all the document needs. The
// transaction runs against the database of a stopped bot; the next bot on that file sends the
// file from its outbox row once, and deletes the row.
func TestRecordSurvivesRestart(t *testing.T) {
	t.Parallel()
	fake := tgtest.New(tgtest.Options{RateScale: 1000, WaitTimeout: 60 * time.Second})
	t.Cleanup(fake.Close)
	fake.AddGroup(group, "Card night")
	path := filepath.Join(t.TempDir(), "kozyr.db")
	h := start(t, setup{fake: fake, path: path, aiDelay: time.Millisecond})
	h.agentMatch(wizard.Rules(), map[string]string{wizard.OptShortGame: "3"}, 3)
	h.flush()
	h.close()

	st, err := store.Open(path, store.WithNoSync())
	if err != nil {
		t.Fatal(err)
	}
	err = st.Update(context.Background(), func(tx store.Tx) error {
		return h.bot.cmdRecord(tx, &effects{upd: 1 << 40}, store.Place{Chat: group}, 0, "en", "", 0)
	})
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	if n := len(fake.Documents(group)); n != 0 {
		t.Fatalf("%d documents sent before the restart", n)
	}
	h = start(t, setup{fake: fake, path: path})
	doc := h.document(group, 1)
	h.flush()
	if _, err := record.Unmarshal(doc.Data); err != nil {
		t.Errorf("the document sent after the restart: %v", err)
	}
	h.close()
	st, err = store.Open(path, store.WithNoSync())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	err = st.View(context.Background(), func(tx store.Tx) error {
		rows, err := tx.Rows()
		if len(rows) != 0 {
			t.Errorf("%d outbox rows left after the document went out", len(rows))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(fake.Documents(group)); n != 1 {
		t.Errorf("%d documents sent, want 1", n)
	}
	h.clean()
}
