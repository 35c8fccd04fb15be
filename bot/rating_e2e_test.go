package bot

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/internal/tgtest"
	"github.com/kozyr-bot/kozyr/store"
)

// handPlaces is the finishing order of a final sheet as README "Ratings" says it: the winners
// first, the others by their totals, highest first; equal seats share a place.
func handPlaces(sh games.Sheet) []int {
	n := len(sh.Totals)
	places := make([]int, n)
	for i := range n {
		places[i] = 1
		for j := range n {
			iw, jw := slices.Contains(sh.Winners, games.Seat(i)), slices.Contains(sh.Winners, games.Seat(j))
			if jw && !iw || !jw && !iw && sh.Totals[j] > sh.Totals[i] {
				places[i]++
			}
		}
	}
	return places
}

// playRated opens a three-round Wizard table with seed, seats the players (the first opens it)
// and computer players for the AI entries (nil), plays it to the end with the first button and
// returns the archived match.
func (h *harness) playRated(seed uint64, seats ...*tgtest.User) store.Match {
	h.t.Helper()
	creator := *seats[0]
	h.shortGame(creator)
	var humans []tgtest.User
	for i, u := range seats {
		switch {
		case u == nil:
			h.say(group, creator, "/addai")
		case i > 0:
			h.say(group, *u, "/join")
		}
		h.seats(i + 1)
		if u != nil {
			humans = append(humans, *u)
		}
	}
	h.updateTable(func(t *store.Table) { t.Seed = seed })
	h.begin(creator)
	h.play(humans, first)
	h.flush()
	m, err := h.lastMatchErr()
	if err != nil || m.Sheet == nil || m.Seed != seed {
		h.t.Fatalf("the match of seed %d: %+v, %v", seed, m, err)
	}
	return m
}

// ask sends text to chat as from and waits for the bot's next new message there: its answer when
// nothing else is going on in that chat.
func (h *harness) ask(chat int64, from tgtest.User, text string) tgtest.Message {
	h.t.Helper()
	id := h.fake.SendText(chat, from, text)
	var m tgtest.Message
	h.wait("the answer to "+text, func() bool {
		for _, msg := range h.fake.Messages(chat) {
			if msg.ID > id {
				m = msg
				return true
			}
		}
		return false
	})
	return m
}

// closeTo compares ratings to the three decimals the expected values are written with.
func closeTo(a, b float64) bool { return math.Abs(a-b) < 5e-4 }

// TestRatingsAfterMatches: three people play five short Wizard matches, then Alice and Dave one
// with an easy computer player, and each match moves their ratings exactly as README "Ratings"
// says: the expected values below were computed by hand from the finishing orders (K = 32 split
// over the two opponents, the easy computer at a fixed 1300). A player is on the leaderboard from
// the fifth rated match on; ties share a place and score a draw; /stats shows the rating beside
// the results, and /top answers a bad game, a DM, a chat without any match and one without enough
// matches in one line.
func TestRatingsAfterMatches(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	h.openDMs(alice, bob, carol, dave)
	// No table here and no match finished yet: /top asks which game.
	if m := h.ask(group, alice, "/top"); m.Plain != "Which game? /top followed by one of: wizard, skat, joker, jokerbank, magister, nasilie." {
		t.Errorf("/top in a chat without matches: %q", m.Plain)
	}
	abc := []*tgtest.User{&alice, &bob, &carol}
	steps := []struct {
		seed   uint64
		seats  []*tgtest.User // nil: a computer player
		places []int
		after  map[int64]float64
	}{
		// Alice and Bob share first: a draw between them, each beats Carol, 16 × ½ = 8.
		{3, abc, []int{1, 1, 3}, map[int64]float64{alice.ID: 1508, bob.ID: 1508, carol.ID: 1484}},
		{4, abc, []int{3, 2, 1}, map[int64]float64{alice.ID: 1491.448, bob.ID: 1507.448, carol.ID: 1501.103}},
		{6, abc, []int{3, 1, 2}, map[int64]float64{alice.ID: 1476.039, bob.ID: 1522.934, carol.ID: 1501.027}},
		{1, abc, []int{1, 3, 2}, map[int64]float64{alice.ID: 1493.686, bob.ID: 1505.357, carol.ID: 1500.957}},
		// Everybody scored 0: three draws; the stronger lose a little to the weaker.
		{12, abc, []int{1, 1, 1}, map[int64]float64{alice.ID: 1494.122, bob.ID: 1504.987, carol.ID: 1500.891}},
		// Alice and the computer share first; the computer's 1300 stays as it is.
		{7, []*tgtest.User{&alice, &dave, nil}, []int{1, 3, 1}, map[int64]float64{alice.ID: 1498.201, dave.ID: 1479.709, bob.ID: 1504.987}},
	}
	want := map[int64]store.Stat{}
	for k, step := range steps {
		m := h.playRated(step.seed, step.seats...)
		if got := handPlaces(*m.Sheet); !slices.Equal(got, step.places) {
			t.Fatalf("match %d (seed %d) finished %v with totals %v, winners %v; want places %v: Wizard deals differently now, pick seeds with these orders again",
				k+1, step.seed, got, m.Sheet.Totals, m.Sheet.Winners, step.places)
		}
		for i, p := range m.Seats {
			if p.AI {
				continue
			}
			s := want[p.UserID]
			s.Played++
			s.Rated++
			s.Points += m.Sheet.Totals[i]
			if slices.Contains(m.Sheet.Winners, games.Seat(i)) {
				s.Won++
			}
			want[p.UserID] = s
		}
		for id, rating := range step.after {
			s := h.user(id).Stats["wizard"]
			w := want[id]
			if !closeTo(s.Rating, rating) || s.Rated != w.Rated || s.Played != w.Played || s.Won != w.Won || s.Points != w.Points {
				t.Errorf("after match %d user %d: %+v, want rating %.3f and %+v", k+1, id, s, rating, w)
			}
		}
		if k == 3 {
			// Four matches each: nobody is on the leaderboard yet. Without an argument /top is
			// about the game the chat finished last.
			if m := h.ask(group, carol, "/top"); m.Plain != "Nobody here has played 5 rated matches of Wizard yet: that is what it takes to be on the leaderboard." {
				t.Errorf("/top before five matches: %q", m.Plain)
			}
		}
	}

	// Bob 1505 and Carol 1501 after five matches, Alice 1498 after six; Dave (one match) is not
	// listed yet, and the computer player never is.
	board := func(lang string) []string {
		var lines []string
		for _, u := range []tgtest.User{bob, carol, alice} {
			s := want[u.ID]
			avg := strconv.FormatFloat(float64(s.Points)/float64(s.Played), 'f', 1, 64)
			r := strconv.Itoa(int(math.Round(h.user(u.ID).Stats["wizard"].Rating)))
			if lang == "ru" {
				lines = append(lines, fmt.Sprintf("%s — %s · %d партий, побед: %d, в среднем %s очка за партию", u.FirstName, r, s.Played, s.Won, avg))
			} else {
				lines = append(lines, fmt.Sprintf("%s — %s · %d matches, %d won, %s points a match", u.FirstName, r, s.Played, s.Won, avg))
			}
		}
		return lines
	}
	check := func(m tgtest.Message, lang string) {
		t.Helper()
		lines := strings.Split(m.Plain, "\n")
		if len(lines) != 4 {
			t.Fatalf("/top in %s: %q", lang, m.Plain)
		}
		for i, l := range board(lang) {
			if want := strconv.Itoa(i+1) + ". " + l; lines[i+1] != want {
				t.Errorf("/top line %d in %s: %q, want %q", i+1, lang, lines[i+1], want)
			}
		}
	}
	m := h.ask(group, dave, "/top wizard")
	if !strings.HasPrefix(m.Plain, "Wizard: leaderboard (Elo rating; players with 5 or more rated matches)") {
		t.Errorf("/top title: %q", m.Plain)
	}
	check(m, "en")
	if lines := board("en"); !strings.Contains(lines[0], "Bob — 1505 · 5 matches, 3 won") || !strings.Contains(lines[2], "Alice — 1498 · 6 matches") {
		t.Errorf("the leaderboard computed by hand: %q", lines)
	}

	// /stats in the group and in a DM: the rating beside the results.
	if m := h.ask(group, bob, "/stats"); !strings.Contains(m.Plain, "Wizard: 5 matches, 3 won, 30 points · Elo 1505") {
		t.Errorf("Bob's /stats: %q", m.Plain)
	}
	if m := h.ask(dave.ID, dave, "/stats"); !strings.Contains(m.Plain, "Wizard: 1 match, 0 won, -10 points · Elo 1480") {
		t.Errorf("Dave's /stats: %q", m.Plain)
	}

	// Bad input, each one line: an unknown game, a game nobody has five matches of, a DM.
	for _, c := range []struct {
		chat       int64
		text, want string
	}{
		{group, "/top chess", "I don't know the game “chess”. /top followed by one of: wizard, skat, joker, jokerbank, magister, nasilie."},
		{group, "/top skat", "Nobody here has played 5 rated matches of Skat yet: that is what it takes to be on the leaderboard."},
		{alice.ID, "/top wizard", "The leaderboard belongs to a group: send /top in the group you play in."},
	} {
		if m := h.ask(c.chat, alice, c.text); m.Plain != c.want {
			t.Errorf("%s: %q, want %q", c.text, m.Plain, c.want)
		}
	}
	// A table open here: /top is about its game.
	h.say(group, alice, "/new skat")
	h.lobby()
	if m := h.ask(group, bob, "/top"); !strings.HasPrefix(m.Plain, "Nobody here has played 5 rated matches of Skat yet") {
		t.Errorf("/top at a Skat table: %q", m.Plain)
	}
	h.say(group, alice, "/cancel")

	// In Russian.
	h.say(group, alice, "/lang ru")
	h.reply(group, "по-русски")
	check(h.ask(group, alice, "/top wizard"), "ru")
	h.flush()
	h.clean()
}

// TestRatingOnceOnRedelivery: the updates of a finished match delivered again — the press that
// finished it among them — to the running bot and to a restarted one rate nobody twice: the
// finishing transaction is recognised (the press by its log entry, commands by their ids).
func TestRatingOnceOnRedelivery(t *testing.T) {
	t.Parallel()
	fake := tgtest.New(tgtest.Options{RateScale: rateScale, WaitTimeout: 60e9})
	t.Cleanup(fake.Close)
	fake.AddGroup(group, "Card night")
	path := filepath.Join(t.TempDir(), "kozyr.db")
	h := start(t, setup{fake: fake, path: path})
	h.openDMs(alice, bob, carol)
	h.playRated(3, &alice, &bob, &carol) // three people: the last action is a press
	records := func() map[int64]store.User {
		out := map[int64]store.User{}
		for _, u := range []tgtest.User{alice, bob, carol} {
			out[u.ID] = h.user(u.ID)
		}
		return out
	}
	players := func() []int64 {
		var ids []int64
		err := h.st.View(context.Background(), func(tx store.Tx) error {
			var err error
			ids, err = tx.ChatPlayers(group, "wizard")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	before, listed := records(), players()
	if s := before[alice.ID].Stats["wizard"]; s.Rated != 1 || !closeTo(s.Rating, 1508) || len(listed) != 3 {
		t.Fatalf("after the match: %+v, players %v", s, listed)
	}
	same := func(when string) {
		t.Helper()
		for id, u := range records() {
			if !reflect.DeepEqual(u.Stats, before[id].Stats) {
				t.Errorf("%s: user %d %+v, was %+v", when, id, u.Stats, before[id].Stats)
			}
		}
		if ids := players(); !slices.Equal(ids, listed) {
			t.Errorf("%s: players %v, were %v", when, ids, listed)
		}
	}

	calls := len(fake.Calls())
	fake.RedeliverAll()
	h.wait("every update taken again", func() bool { return fake.Pending() == 0 })
	h.flush()
	same("redelivered to the running bot")

	h.close()
	fake.RedeliverAll()
	h = start(t, setup{fake: fake, path: path})
	h.wait("every update taken again", func() bool { return fake.Pending() == 0 })
	h.flush()
	same("redelivered after a restart")
	// Nothing is posted again. (The presses of a table the store no longer holds are answered
	// again, which Telegram refuses for an old query; they change nothing.)
	for _, c := range fake.Calls()[calls:] {
		switch c.Method {
		case "getMe", "setMyCommands", "deleteWebhook", "getUpdates", "answerCallbackQuery":
		default:
			t.Errorf("a redelivered update made the bot call %s", c.Method)
		}
	}
}
