package bot

import (
	"html"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/magister"
	"github.com/kozyr-bot/kozyr/internal/tgtest"
	"github.com/kozyr-bot/kozyr/store"
)

// TestMagisterFullGame: a full 24-deal game of Magister with three seats, two humans and an
// agent, in variant 1 with each player picking their own trump by a DM button. The group table
// shows the bank as a stack, the DM marks the cards that would take the bank, /score renders the
// §9 sheet in a <pre> block that fits a phone, and /stats shows the overall rating of §10.
func TestMagisterFullGame(t *testing.T) {
	t.Parallel()
	h := start(t, setup{rateScale: 1000})
	humans := []tgtest.User{alice, bob}
	h.openDMs(humans...)
	h.say(group, alice, "/new magister")
	if lobby := h.lobby(); !strings.Contains(lobby.Plain, "each player his own") || !strings.Contains(lobby.Plain, "chosen in turn") {
		t.Errorf("lobby without variant 1 and chosen trumps: %s", lobby.Plain)
	}
	h.say(group, bob, "/join")
	h.say(group, alice, "/addai")
	h.seats(3)
	h.begin(alice)

	var picked, sawBank, sawTakes int
	n := h.pressThrough(magister.Rules(), humans, func(a acting) tgtest.Button {
		g := a.view.Game.(magister.View)
		if g.Choosing {
			// Variant 1: a button per free suit; the human takes the first.
			picked++
			for _, x := range a.legal {
				if x.Kind == "play" {
					t.Fatalf("a card offered while choosing trumps: %v", a.legal)
				}
			}
			return h.seek(a, a.legal[0])
		}
		if g.Bank != nil && sawBank < 2 {
			// The bank on the table: a stack of cards, each with who played it and what it did.
			sawBank++
			h.groupShows("the bank stack", "Bank — held by", "▸ ", ": leads")
			if !strings.Contains(a.msg.Plain, "Would take the bank now") && !strings.Contains(a.msg.Plain, "None of your cards takes the bank now") {
				t.Errorf("the DM does not say which cards take the bank: %s", a.msg.Plain)
			}
			sawTakes++
		}
		return h.seek(a, a.legal[0])
	})
	t.Logf("%d presses", n)
	if picked != 2 || sawBank == 0 || sawTakes == 0 {
		t.Errorf("trumps picked by %d humans, bank stack seen %d times", picked, sawBank)
	}
	end := h.ended()
	final, st := h.finalState()
	if g := st.View(games.Nobody).Game.(magister.View); g.Deal != 24 || len(st.ToAct()) != 0 {
		t.Fatalf("the game ended at deal %d", g.Deal)
	}
	sh := st.Score()

	// /score: the whole sheet of §9 in one <pre> block that fits a phone screen.
	h.say(group, bob, "/score")
	score := h.newMessage(group, end.ID, "Final score")
	if strings.Contains(score.Plain, "Game over") {
		t.Errorf("/score answered with the match end: %s", score.Plain)
	}
	pre := html.UnescapeString(between(score.Text, "<pre>", "</pre>"))
	if n := len(utf16.Encode([]rune(score.Plain))); n > 4096 {
		t.Errorf("/score is %d characters", n)
	}
	lines := strings.Split(pre, "\n")
	for _, l := range lines {
		if n := len([]rune(l)); n > 40 {
			t.Errorf("score line %q is %d wide", l, n)
		}
	}
	for _, want := range []string{"Σ 1–12", "Σ 13–24", "Result", "Place", "Rating", "Σ "} {
		if !strings.Contains(pre, "\n"+want) {
			t.Errorf("the sheet has no %q row:\n%s", want, pre)
		}
	}
	if got := len(lines); got < 1+24+2+3+1 {
		t.Errorf("the sheet has %d lines:\n%s", got, pre)
	}
	for s := range 3 {
		if !strings.Contains(pre, magister.RatingText(sh.Totals[s])) {
			t.Errorf("the sheet lacks seat %d's rating %s", s, magister.RatingText(sh.Totals[s]))
		}
	}
	if !strings.Contains(score.Plain, "Winner") {
		t.Errorf("/score names no winner: %s", score.Plain)
	}
	t.Logf("score:\n%s", score.Plain)

	// /stats: the overall rating over the games played, here the one game's rating.
	for _, u := range humans {
		s := final.SeatOf(u.ID)
		rec, err := h.userErr(u.ID)
		if err != nil || rec.Stats["magister"].Played != 1 || rec.Stats["magister"].Points != sh.Totals[s] {
			t.Errorf("%s's stats: %+v, %v", u.FirstName, rec.Stats, err)
		}
		h.say(u.ID, u, "/stats")
		want := "overall rating " + magister.OverallRatingText(sh.Totals[s], 1)
		h.reply(u.ID, want)
	}
	h.flush()
	h.clean()
}

// TestStatsOverallRating: /stats adds the overall rating of §10 across games — the sum of the
// results over 488 × games — for a game whose rules rate (games.Rater), and nothing for others.
func TestStatsOverallRating(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	h.openDMs(alice)
	h.updateUser(alice.ID, func(u *store.User) {
		u.Stats = map[string]store.Stat{
			"magister": {Played: 2, Won: 1, Points: 56 - 20},
			"wizard":   {Played: 1, Points: 40},
		}
	})
	h.say(group, alice, "/stats")
	m := h.reply(group, "Results of Alice")
	if !strings.Contains(m.Plain, "Magister: 2 matches, 1 won, 36 points · overall rating 53.69%") {
		t.Errorf("/stats: %s", m.Plain)
	}
	if strings.Count(m.Plain, "rating") != 1 {
		t.Errorf("a rating for a game that has none: %s", m.Plain)
	}
	h.say(alice.ID, alice, "/lang ru")
	h.reply(alice.ID, "по-русски")
	h.say(alice.ID, alice, "/stats")
	if m := h.reply(alice.ID, "общий рейтинг"); !strings.Contains(m.Plain, "общий рейтинг 53.69%") {
		t.Errorf("/stats in Russian: %s", m.Plain)
	}
	h.flush()
	h.clean()
}
