package bot

import (
	"html"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/bot/callback"
	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/skat"
	"github.com/kozyr-bot/kozyr/internal/tgtest"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// Helpers shared by the Skat and Magister end-to-end tests: lobby options set by buttons, and a
// loop in which the humans press the buttons a policy picks from what they see.

// setOptions opens the lobby's options keyboard as its creator, cycles each option of want to its
// value with the option's button, and goes back to the main keyboard.
func (h *harness) setOptions(creator tgtest.User, r games.Rules, want map[string]string) {
	h.t.Helper()
	h.pressLobby(creator, "opts")
	opts := r.Options()
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range want {
			if !yield(k) {
				return
			}
		}
	}) {
		i := slices.IndexFunc(opts, func(o games.Option) bool { return o.Key == k })
		if i < 0 {
			h.t.Fatalf("%s has no option %q", r.Name(), k)
		}
		for range len(opts[i].Values) {
			t, _ := h.table()
			if t.Config.Get(opts, k) == want[k] {
				break
			}
			h.pressLobby(creator, "o"+strconv.Itoa(i))
			h.wait("option "+k+" to change", func() bool {
				u, _ := h.table()
				return u.Config.Get(opts, k) != t.Config.Get(opts, k)
			})
		}
		if t, _ := h.table(); t.Config.Get(opts, k) != want[k] {
			h.t.Fatalf("option %s is %q, want %q", k, t.Config.Get(opts, k), want[k])
		}
	}
	h.pressLobby(creator, "back")
	h.wait("the main lobby keyboard", func() bool {
		return strings.HasSuffix(h.lobby().Keyboard[0][0].Data, "|join")
	})
}

// acting is a human to act: their keyboard, seat and View, from the committed record the
// keyboard was drawn for.
type acting struct {
	turn
	seat  games.Seat
	view  games.View
	legal []games.Action
	tb    store.Table
}

// pressThrough presses buttons for the human players until the match ends: pick returns the button to
// press (it may turn pages first, see seek). It returns the number of actions pressed.
func (h *harness) pressThrough(r games.Rules, players []tgtest.User, pick func(a acting) tgtest.Button) int {
	h.t.Helper()
	last, presses := -1, 0
	if t, ok := h.table(); ok {
		last = t.Version - 1
	}
	for {
		var a acting
		h.wait("a player's turn or the end", func() bool {
			if h.finished() {
				return true
			}
			cur, ok := h.currentTurn(players)
			if !ok || cur.version <= last {
				return false
			}
			tb, ok := h.table()
			if !ok || tb.Version != cur.version {
				return false
			}
			a = acting{turn: cur, tb: tb}
			return true
		})
		if h.finished() {
			return presses
		}
		st, err := h.state(a.tb)
		if err != nil {
			h.t.Fatal(err)
		}
		a.seat = a.tb.SeatOf(a.user.ID)
		a.view, a.legal = st.View(a.seat), st.Legal(a.seat)
		btn := pick(a)
		ans := h.press(a.user.ID, a.msg.ID, a.user, btn.Data)
		if !strings.HasPrefix(ans.Text, "Played") {
			h.t.Fatalf("press %s by %s: answer %q", btn.Data, a.user.FirstName, ans.Text)
		}
		last = a.version
		presses++
	}
}

// actionOf reads the action of a game button; ok is false for page buttons.
func actionOf(b tgtest.Button) (games.Action, bool) {
	d, err := callback.ParsePlay(b.Data)
	return d.Action, err == nil
}

// actionButtons are the game buttons of a keyboard, without the page row.
func actionButtons(m tgtest.Message) []tgtest.Button {
	var out []tgtest.Button
	for _, b := range slices.Concat(m.Keyboard...) {
		if _, ok := actionOf(b); ok {
			out = append(out, b)
		}
	}
	return out
}

// pageButton is the page button labelled label ("‹", "›" or "k/n"), if the keyboard has it.
func pageButton(m tgtest.Message, label string) (tgtest.Button, bool) {
	if len(m.Keyboard) == 0 {
		return tgtest.Button{}, false
	}
	for _, b := range m.Keyboard[len(m.Keyboard)-1] {
		if b.Text == label && strings.HasPrefix(b.Data, callback.PagePrefix) {
			return b, true
		}
	}
	return tgtest.Button{}, false
}

// pageOf is the "k/n" label of a paged keyboard, "" for a keyboard of one page.
func pageOf(m tgtest.Message) string {
	if len(m.Keyboard) == 0 {
		return ""
	}
	for _, b := range m.Keyboard[len(m.Keyboard)-1] {
		if strings.HasPrefix(b.Data, callback.PagePrefix) && strings.Contains(b.Text, "/") {
			return b.Text
		}
	}
	return ""
}

// turnPage presses a page button of the hand message m and waits until it shows the page want
// ("2/4"); a page press is answered without a text and changes no state.
func (h *harness) turnPage(user tgtest.User, m tgtest.Message, label, want string) tgtest.Message {
	h.t.Helper()
	btn, ok := pageButton(m, label)
	if !ok {
		h.t.Fatalf("no page button %q under %q", label, pageOf(m))
	}
	before, _ := h.table()
	if ans := h.press(user.ID, m.ID, user, btn.Data); ans.Text != "" || ans.ShowAlert {
		h.t.Errorf("page press answered %+v", ans)
	}
	var out tgtest.Message
	h.wait("page "+want, func() bool {
		out, _ = h.fake.Message(user.ID, m.ID)
		return pageOf(out) == want
	})
	if after, _ := h.table(); after.Version != before.Version {
		h.t.Errorf("a page press changed the table: version %d → %d", before.Version, after.Version)
	}
	return out
}

// pageNums reads the "k/n" page label of a keyboard: 1, 1 for a keyboard of one page.
func pageNums(m tgtest.Message) (k, n int) {
	ks, ns, ok := strings.Cut(pageOf(m), "/")
	if !ok {
		return 1, 1
	}
	k, _ = strconv.Atoi(ks)
	n, _ = strconv.Atoi(ns)
	return k, n
}

// seek returns the button of action a, turning the pages of the player's keyboard (back towards
// the first page, then forward) until it shows.
func (h *harness) seek(cur acting, a games.Action) tgtest.Button {
	h.t.Helper()
	m := cur.msg
	find := func() (tgtest.Button, bool) {
		for _, b := range actionButtons(m) {
			if act, _ := actionOf(b); act == a {
				return b, true
			}
		}
		return tgtest.Button{}, false
	}
	k, n := pageNums(m)
	for ; ; k-- {
		if b, ok := find(); ok {
			return b
		}
		if k <= 1 {
			break
		}
		m = h.turnPage(cur.user, m, "‹", strconv.Itoa(k-1)+"/"+strconv.Itoa(n))
	}
	for ; k < n; k++ {
		m = h.turnPage(cur.user, m, "›", strconv.Itoa(k+1)+"/"+strconv.Itoa(n))
		if b, ok := find(); ok {
			return b
		}
	}
	h.t.Fatalf("%s has no button for %s (legal %v)", cur.user.FirstName, a, cur.legal)
	return tgtest.Button{}
}

// browse pages through a paged keyboard once (forward to the last page, back to the first),
// checking that every page shows the next rungs of the ladder in ascending order, that the
// actions which are no rungs show on every page, and that no page has more than render.PageSize.
func (h *harness) browse(cur acting) tgtest.Message {
	h.t.Helper()
	m := cur.msg
	p := pageOf(m)
	_, n, _ := strings.Cut(p, "/")
	pages, _ := strconv.Atoi(n)
	if p != "1/"+n || pages < 2 {
		h.t.Fatalf("browse from page %q", p)
	}
	var rungs []games.Action
	var others []games.Action
	for k := 1; ; k++ {
		var pageRungs, pageOthers []games.Action
		for _, b := range actionButtons(m) {
			a, _ := actionOf(b)
			if render.Rung(a) {
				pageRungs = append(pageRungs, a)
			} else {
				pageOthers = append(pageOthers, a)
			}
		}
		if len(pageRungs)+len(pageOthers) > render.PageSize {
			h.t.Errorf("page %d/%d has %d action buttons", k, pages, len(pageRungs)+len(pageOthers))
		}
		if k == 1 {
			others = pageOthers
		} else if !slices.Equal(others, pageOthers) {
			h.t.Errorf("page %d shows %v besides the ladder, page 1 %v", k, pageOthers, others)
		}
		rungs = append(rungs, pageRungs...)
		if k == pages {
			break
		}
		m = h.turnPage(cur.user, m, "›", strconv.Itoa(k+1)+"/"+n)
	}
	if !slices.IsSortedFunc(rungs, func(x, y games.Action) int { return int(x.N - y.N) }) {
		h.t.Errorf("the ladder is not ascending: %v", rungs)
	}
	var want []games.Action
	for _, a := range cur.legal {
		if render.Rung(a) {
			want = append(want, a)
		}
	}
	slices.SortFunc(want, func(x, y games.Action) int { return int(x.N - y.N) })
	if !slices.Equal(rungs, want) {
		h.t.Errorf("the pages show the rungs %v, legal %v", rungs, want)
	}
	if _, ok := pageButton(m, "›"); ok {
		h.t.Errorf("the last page has a › button")
	}
	for k := pages - 1; k >= 1; k-- {
		m = h.turnPage(cur.user, m, "‹", strconv.Itoa(k)+"/"+n)
	}
	if _, ok := pageButton(m, "‹"); ok {
		h.t.Errorf("the first page has a ‹ button")
	}
	return m
}

// firstOfKinds is the first legal action whose kind comes first in kinds, else the first legal action.
func firstOfKinds(legal []games.Action, kinds ...string) games.Action {
	for _, k := range kinds {
		for _, a := range legal {
			if a.Kind == k {
				return a
			}
		}
	}
	return legal[0]
}

// skatPlayer is the button policy of the Skat tests. Each human bids and holds up to their
// limit, picks up the skat, lays away the first two cards offered, declares Grand when they can,
// announces nothing and plays the first legal card; the first time a human sees a paged keyboard
// they browse all its pages. It also checks the group table as the match goes.
type skatPlayer struct {
	h        *harness
	limit    map[int64]int
	browsed  map[int64]int
	sawBids  bool // the group table showed the auction's calls
	sawGame  map[int]bool
	sitsOut  bool // the group table said who sits out (4 players)
	fourSeat bool
}

func newSkatPlayer(h *harness, limits map[int64]int, four bool) *skatPlayer {
	return &skatPlayer{h: h, limit: limits, browsed: map[int64]int{}, sawGame: map[int]bool{}, fourSeat: four}
}

func (p *skatPlayer) pick(a acting) tgtest.Button {
	h := p.h
	g := a.view.Game.(skat.View)
	if pageOf(a.msg) != "" && p.browsed[a.user.ID] == 0 {
		p.browsed[a.user.ID]++
		a.msg = h.browse(a)
	}
	limit := p.limit[a.user.ID]
	var want games.Action
	switch g.Phase {
	case "auction":
		want = games.Do("pass")
		if slices.Contains(a.legal, games.Do("hold")) && g.Auction.Highest <= limit {
			want = games.Do("hold")
		}
		for _, x := range a.legal { // the lowest bid
			if x.Kind == "bid" && int(x.N) <= limit && (want.Kind != "bid" || x.N < want.N) {
				want = x
			}
		}
		if len(g.Bidding) > 0 && !p.sawBids {
			p.sawBids = true
			h.groupShows("the auction's calls", "Bidding:")
		}
	case "choice":
		want = firstOfKinds(a.legal, "ramsch", "playat", "throwin")
	case "skat":
		want = firstOfKinds(a.legal, "skat")
	case "game":
		want = firstOfKinds(a.legal, "grand", "clubs")
	case "announce":
		want = firstOfKinds(a.legal, "simple")
	default:
		want = a.legal[0]
		if g.Phase == "play" && !p.sawGame[g.Deal] && g.Contract.Kind != skat.Ramsch {
			// The group table names the declarer, the bid and the game.
			p.sawGame[g.Deal] = true
			game := locPlain(h, "skat.game."+g.Contract.Kind.String())
			h.groupShows("the declarer and the game", "Declarer "+h.bot.render.SeatName(a.tb, "en", g.Declarer)+" at "+strconv.Itoa(g.Bid), game)
		}
	}
	if p.fourSeat && !p.sitsOut {
		p.sitsOut = true
		h.groupShows("who sits out", h.bot.render.SeatName(a.tb, "en", a.view.Dealer)+" deals and sits out")
	}
	return h.seek(a, want)
}

// newMessage waits for a message of the bot in chat newer than message after whose HTML text
// contains substr.
func (h *harness) newMessage(chat int64, after int, substr string) tgtest.Message {
	h.t.Helper()
	var out tgtest.Message
	h.wait("a new message containing "+substr, func() bool {
		for _, m := range h.fake.Messages(chat) {
			if m.ID > after && strings.Contains(m.Text, substr) {
				out = m
				return true
			}
		}
		return false
	})
	return out
}

// locPlain is an English UI text without its HTML.
func locPlain(h *harness, id string) string { return locales.Plain(h.bot.loc.Text("en", id)) }

// groupShows waits until the group's table message contains every one of parts.
func (h *harness) groupShows(what string, parts ...string) tgtest.Message {
	h.t.Helper()
	var m tgtest.Message
	h.wait("the table message to show "+what, func() bool {
		t, ok := h.table()
		if !ok {
			return false
		}
		m, _ = h.fake.Message(h.chat, h.groupMsg(t))
		for _, s := range parts {
			if !strings.Contains(m.Plain, s) {
				return false
			}
		}
		return true
	})
	return m
}

// checkSkatEnd checks the end of a Skat match: a result line in Skat list style posted as a new
// group message for every deal, the final list with the match end, /score showing the list in a
// <pre> block, and every seated human's stats.
func (h *harness) checkSkatEnd(deals int, humans []tgtest.User) {
	h.t.Helper()
	tb, _ := h.table()
	tableMsg := h.groupMsg(tb)
	end := h.ended()
	if _, err := h.lastMatchErr(); err != nil {
		h.t.Fatal(err)
	}
	h.flush()
	results := 0
	for _, m := range h.fake.Messages(h.chat) {
		if m.ID == tableMsg {
			continue
		}
		for d := 1; d <= deals; d++ {
			if strings.Contains(m.Plain, "№"+strconv.Itoa(d)+" ") {
				results++
				if !strings.Contains(m.Plain, "Score: ") {
					h.t.Errorf("deal %d's result without the totals: %q", d, m.Plain)
				}
			}
		}
	}
	if results != deals {
		h.t.Errorf("%d deal results posted in the group, want %d", results, deals)
	}
	if !strings.Contains(end.Text, "<pre>") {
		h.t.Errorf("the match end without the list: %s", end.Text)
	}
	h.say(h.chat, humans[0], "/score")
	score := h.newMessage(h.chat, end.ID, "<pre>")
	pre := html.UnescapeString(between(score.Text, "<pre>", "</pre>"))
	lines := strings.Split(pre, "\n")
	if len(lines) < deals+2 || !strings.HasPrefix(lines[len(lines)-1], "Σ") {
		h.t.Errorf("/score list:\n%s", pre)
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > render.SheetWidth {
			h.t.Errorf("score line %q is %d wide", l, n)
		}
	}
	final, st := h.finalState()
	sh := st.Score()
	if len(sh.Rows) != deals || len(sh.Winners) == 0 {
		h.t.Errorf("sheet: %d rows, winners %v", len(sh.Rows), sh.Winners)
	}
	for _, u := range humans {
		rec, err := h.userErr(u.ID)
		s := final.Seats[final.SeatOf(u.ID)]
		if err != nil || rec.Stats["skat"].Played != 1 || rec.Stats["skat"].Points != sh.Totals[final.SeatOf(u.ID)] {
			h.t.Errorf("%s (%s) stats %+v, %v", u.FirstName, s.Name, rec.Stats, err)
		}
	}
	h.t.Logf("score:\n%s", pre)
}

// TestSkatThreePlayers: a full 3-player Skat match under the ISkO preset (3 deals) with two
// humans and an agent, the humans pressing the buttons of their DMs.
func TestSkatThreePlayers(t *testing.T) {
	t.Parallel()
	h := start(t, setup{rateScale: 200})
	humans := []tgtest.User{alice, bob}
	h.openDMs(humans...)
	h.say(group, alice, "/new skat")
	h.lobby()
	h.setOptions(alice, skat.Rules(), map[string]string{"preset": "isko", "match_deals": "3"})
	lobby := h.lobby()
	if !strings.Contains(lobby.Plain, "Rules: International Skat Order (ISkO)") || !strings.Contains(lobby.Plain, "Match length: 3 deals") {
		t.Errorf("lobby options: %s", lobby.Plain)
	}
	h.say(group, bob, "/join")
	h.say(group, alice, "/addai")
	h.seats(3)
	h.begin(alice)
	p := newSkatPlayer(h, map[int64]int{alice.ID: 30, bob.ID: 20}, false)
	n := h.pressThrough(skat.Rules(), humans, p.pick)
	t.Logf("%d presses", n)
	h.checkSkatEnd(3, humans)
	for _, u := range humans {
		if p.browsed[u.ID] == 0 {
			t.Errorf("%s never saw a paged auction keyboard", u.FirstName)
		}
	}
	if !p.sawBids || len(p.sawGame) == 0 {
		t.Errorf("the table was checked for the calls: %v, for declarer and game in deals %v", p.sawBids, p.sawGame)
	}
	h.clean()
}

// TestSkatFourPlayers: a full 4-player Skat match with the seed rules (4 deals, each player deals
// once and sits out), three humans and an agent.
func TestSkatFourPlayers(t *testing.T) {
	t.Parallel()
	h := start(t, setup{rateScale: 200})
	humans := []tgtest.User{alice, bob, carol}
	h.openDMs(humans...)
	h.say(group, carol, "/new skat")
	h.lobby()
	h.setOptions(carol, skat.Rules(), map[string]string{"preset": "seed", "match_deals": "4"})
	if lobby := h.lobby(); !strings.Contains(lobby.Plain, "Rules: Robber Skat (as written)") {
		t.Errorf("lobby options: %s", lobby.Plain)
	}
	h.say(group, alice, "/join")
	h.say(group, bob, "/join")
	h.seats(3)
	h.say(group, carol, "/addai")
	h.seats(4)
	h.begin(carol)
	p := newSkatPlayer(h, map[int64]int{alice.ID: 23, bob.ID: 18, carol.ID: 27}, true)
	n := h.pressThrough(skat.Rules(), humans, p.pick)
	t.Logf("%d presses", n)
	h.checkSkatEnd(4, humans)
	browsed := 0
	for _, u := range humans {
		browsed += p.browsed[u.ID]
	}
	if browsed == 0 || !p.sitsOut || !p.sawBids || len(p.sawGame) == 0 {
		t.Errorf("paged keyboards browsed %d times; the table showed who sits out %v, the calls %v, declarer and game in deals %v",
			browsed, p.sitsOut, p.sawBids, p.sawGame)
	}
	h.clean()
}
