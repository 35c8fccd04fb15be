package bot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/kozyr-bot/kozyr/bot/outbox"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/store"
)

// pageSize is the most action buttons one hand keyboard shows. Longer lists (Skat's first bid
// offers 89 calls) are paged with "‹" / "›" buttons; a page press only redraws the keyboard.
const pageSize = 24

// pagePrefix starts the callback data of a page button, "p1|<chat>|<version>|<page>": the table
// and the record version the keyboard was drawn for, so a page button of an old keyboard is stale.
const pagePrefix = "p1|"

// pageData is the callback data of a page button.
type pageData struct {
	Chat    int64
	Version int
	Page    int
}

func (d pageData) String() string {
	return fmt.Sprintf("%s%d|%d|%d", pagePrefix, d.Chat, d.Version, d.Page)
}

// parsePageData accepts exactly what pageData.String writes.
func parsePageData(s string) (pageData, error) {
	parts := strings.Split(s, "|")
	if len(s) > maxData || len(parts) != 4 || parts[0]+"|" != pagePrefix {
		return pageData{}, errForged
	}
	chat, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || chat == 0 || strconv.FormatInt(chat, 10) != parts[1] {
		return pageData{}, errForged
	}
	var n [2]int
	for i, p := range parts[2:] {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || strconv.Itoa(v) != p {
			return pageData{}, errForged
		}
		n[i] = v
	}
	return pageData{Chat: chat, Version: n[0], Page: n[1]}, nil
}

// rung reports whether a is a step of a numeric ladder: a number and no card ("bid/18").
func rung(a games.Action) bool { return a.HasN && a.Card == cards.NoCard }

// ordered returns legal with every ladder (the rungs of one kind) in ascending order, each rung
// taking the place of one of its kind, so the lowest call — the next legal bid — comes first and
// the other actions keep their places.
func ordered(legal []games.Action) []games.Action {
	out := slices.Clone(legal)
	at := map[string][]int{}
	for i, a := range out {
		if rung(a) {
			at[a.Kind] = append(at[a.Kind], i)
		}
	}
	for _, pos := range at {
		rungs := make([]games.Action, len(pos))
		for j, p := range pos {
			rungs[j] = out[p]
		}
		slices.SortStableFunc(rungs, func(x, y games.Action) int { return cmp.Compare(x.N, y.N) })
		for j, p := range pos {
			out[p] = rungs[j]
		}
	}
	return out
}

// paginate picks the actions shown on page page (clamped) of a keyboard and says which page that
// is and how many there are. Lists of at most pageSize actions have one page. Otherwise the rungs
// are paged and the few other actions ("pass", "hold") are shown on every page, in their places;
// when those are too many to repeat, everything is paged alike.
func paginate(legal []games.Action, page int) (shown []games.Action, cur, pages int) {
	if len(legal) <= pageSize {
		return legal, 0, 1
	}
	pinned := 0
	for _, a := range legal {
		if !rung(a) {
			pinned++
		}
	}
	paged := func(a games.Action) bool { return rung(a) }
	if pinned > pageSize/2 || pinned == len(legal) {
		pinned = 0
		paged = func(games.Action) bool { return true }
	}
	per := pageSize - pinned
	pages = (len(legal) - pinned + per - 1) / per
	cur = min(max(page, 0), pages-1)
	lo, hi := cur*per, (cur+1)*per
	k := 0
	for _, a := range legal {
		if !paged(a) {
			shown = append(shown, a)
			continue
		}
		if k >= lo && k < hi {
			shown = append(shown, a)
		}
		k++
	}
	return shown, cur, pages
}

// pageRow is the navigation row of a paged keyboard: "‹", the page, "›". The middle button names
// the current page (pressing it changes nothing).
func pageRow(chat int64, version, cur, pages int) []button {
	data := func(p int) string { return pageData{Chat: chat, Version: version, Page: p}.String() }
	var row []button
	if cur > 0 {
		row = append(row, button{Text: "‹", Data: data(cur - 1)})
	}
	row = append(row, button{Text: strconv.Itoa(cur+1) + "/" + strconv.Itoa(pages), Data: data(cur)})
	if cur < pages-1 {
		row = append(row, button{Text: "›", Data: data(cur + 1)})
	}
	return row
}

// pageRef is the page a player turned their keyboard to, for one version of one table.
type pageRef struct {
	created time.Time
	version int
	page    int
}

// setPage remembers the page user turned to at chat's table (created at created) at version.
func (m *memo) setPage(chat, user int64, created time.Time, version, page int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pages == nil {
		m.pages = map[seatRef]pageRef{}
	}
	m.pages[seatRef{chat, user}] = pageRef{created: created, version: version, page: page}
}

// page is the page user's keyboard shows at version; 0 once the version moved on.
func (m *memo) page(chat, user int64, created time.Time, version int) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.pages[seatRef{chat, user}]
	if !ok || !p.created.Equal(created) || p.version != version {
		return 0
	}
	return p.page
}

// onPage turns the pages of a hand keyboard. It changes no game state: after the checks of a
// game button (parse, table, version, player) it remembers the page and redraws the pressed
// message, and the press is answered without a text.
func (b *Bot) onPage(ctx context.Context, q *models.CallbackQuery) {
	lang := b.userLang(ctx, &q.From)
	d, err := parsePageData(q.Data)
	m := q.Message.Message
	if err != nil || m == nil {
		b.answer(ctx, q.ID, b.text(lang, "bot.cb.forged"), "", false)
		return
	}
	t, err := b.st.Table(ctx, d.Chat)
	if err != nil || !t.Started || !t.Finished.IsZero() {
		b.answer(ctx, q.ID, b.text(lang, "bot.cb.notable"), "", false)
		b.stripPressed(q)
		return
	}
	s := seatOf(t, q.From.ID)
	if s < 0 {
		b.answer(ctx, q.ID, b.text(lang, "bot.cb.notplayer"), "", false)
		return
	}
	if t.Version != d.Version {
		b.answer(ctx, q.ID, b.text(lang, "bot.cb.stale"), "", false)
		b.refreshPressed(ctx, q, d.Chat)
		return
	}
	if m.Chat.ID != q.From.ID {
		b.answer(ctx, q.ID, b.text(lang, "bot.cb.forged"), "", false) // hand keyboards live in DMs
		return
	}
	b.memo.setPage(d.Chat, q.From.ID, t.Created, t.Version, d.Page)
	b.answer(ctx, q.ID, "", "", false)
	b.pageLater(t, s, m.ID)
}

// pageLater queues the redraw of the hand message whose page button was pressed, rendered from
// the record as it is when the job runs. It runs after the DM's earlier jobs, so the bot knows
// its newest hand message by then: an older message (its keyboard is being removed) and a
// version that moved on (the hand's own render, syncHand, redraws it) are left alone.
func (b *Bot) pageLater(t store.Table, seat games.Seat, msg int) {
	chat, created, version, user := t.Chat, t.Created, t.Version, t.Seats[seat].UserID
	b.out.Submit(outbox.Job{
		Chat:     user,
		Coalesce: fmt.Sprintf("page:%d:%d", user, msg),
		Call: func(ctx context.Context) error {
			t, st, err := b.loadTable(ctx, chat, created)
			if errors.Is(err, errGone) {
				return nil
			}
			if err != nil {
				return err
			}
			s := seatOf(t, user)
			if t.Version != version || s < 0 || !t.Finished.IsZero() || msg != b.memo.hand(chat, user, t.Seats[s].HandMsg) {
				return nil
			}
			c, _ := b.handContent(t, st, s, b.seatLang(ctx, t.Seats[s]))
			return b.edit(ctx, user, msg, c)
		},
		Done: func(err error) { b.sendFailed(user, err) },
	})
}
