package bot

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// maxText is Telegram's message length limit (UTF-16 code units after entity parsing); we keep
// the HTML source under it, which is stricter.
const maxText = 4000

// maxButtons is Telegram's limit on the buttons of one keyboard.
const maxButtons = 100

// groupContent is what the table's group message shows: the lobby before the match, the table
// during it, the result after it.
func (b *Bot) groupContent(t store.Table, st games.State, lang string) content {
	if !t.Started {
		return b.lobbyContent(t, lang)
	}
	return b.tableContent(t, st, lang)
}

// tableContent is the group's table message: the game, View(Nobody).Table, whose turn it is, and
// what the last action did.
func (b *Bot) tableContent(t store.Table, st games.State, lang string) content {
	names := b.namer(t, lang)
	v := st.View(games.Nobody)
	lines := []string{"<b>" + b.gameName(lang, t.Game) + "</b>"}
	for _, m := range v.Table {
		lines = append(lines, b.loc.Render(lang, m, names))
	}
	// At the end the engine's own table lines and match-end event announce the result.
	if toAct := st.ToAct(); len(toAct) > 0 {
		lines = append(lines, "", b.text(lang, "bot.table.turn", "Names", b.seatList(t, lang, toAct)))
	}
	if mv, ok := b.memo.move(t.Chat, t.Created, t.Version); ok {
		if mv.timeout != games.Nobody {
			lines = append(lines, b.text(lang, "bot.table.timeout", "Name", b.seatName(t, lang, mv.timeout)))
		}
		for _, e := range mv.events {
			if e.Kind == games.EventInfo && e.To == games.Nobody {
				lines = append(lines, b.loc.Render(lang, e.Msg, names))
			}
		}
	}
	return content{Text: fitLines(lines)}
}

// seatList names seats for a sentence, marking those the agent plays.
func (b *Bot) seatList(t store.Table, lang string, seats []games.Seat) string {
	out := make([]string, 0, len(seats))
	for _, s := range seats {
		n := b.seatName(t, lang, s)
		if int(s) < len(t.Seats) {
			switch p := t.Seats[s]; {
			case p.AI:
				n += " 🤖"
			case p.Away:
				n += " 💤"
			}
		}
		out = append(out, n)
	}
	return strings.Join(out, ", ")
}

// handContent is a player's DM hand message: their cards, what only they know, and, on their
// turn, the table, the prompt and one button per legal action.
func (b *Bot) handContent(t store.Table, st games.State, seat games.Seat, lang string) (c content, toAct bool) {
	names := b.namer(t, lang)
	v := st.View(seat)
	over := len(st.ToAct()) == 0
	toAct = !over && slices.Contains(st.ToAct(), seat)
	lines := []string{"<b>" + b.gameName(lang, t.Game) + "</b>"}
	if toAct || over {
		for _, m := range v.Table {
			lines = append(lines, b.loc.Render(lang, m, names))
		}
	}
	for _, m := range v.Private {
		lines = append(lines, b.loc.Render(lang, m, names))
	}
	if mv, ok := b.memo.move(t.Chat, t.Created, t.Version); ok {
		for _, e := range mv.events {
			if e.Kind == games.EventInfo && e.To == seat {
				lines = append(lines, b.loc.Render(lang, e.Msg, names))
			}
		}
	}
	if len(v.Hand) > 0 {
		lines = append(lines, "", b.text(lang, "bot.hand.cards")+" "+b.loc.Cards(lang, v.Hand))
	}
	switch {
	case over:
		lines = append(lines, "", b.text(lang, "bot.hand.over"))
	case toAct:
		if v.Prompt.ID != "" {
			lines = append(lines, "", "<b>"+b.loc.Render(lang, v.Prompt, names)+"</b>")
		}
		if t.Seats[seat].Away {
			lines = append(lines, b.text(lang, "bot.hand.away"))
		}
	default:
		lines = append(lines, "", b.text(lang, "bot.hand.wait"))
	}
	c.Text = fitLines(lines)
	if toAct {
		page := b.memo.page(t.Chat, t.Seats[seat].UserID, t.Created, t.Version)
		c.Rows = b.actionRows(t, st.Legal(seat), lang, page)
	}
	return c, toAct
}

// actionRows lays out one button per legal action, at most 8 a row and fewer for long labels.
// Ladders come in ascending order; a long list shows page page of it (paging.go) with a row of
// page buttons under it.
func (b *Bot) actionRows(t store.Table, legal []games.Action, lang string, page int) [][]button {
	legal, cur, pages := paginate(ordered(legal), page)
	if len(legal) > maxButtons-3 {
		b.log.Error().Str("game", t.Game).Int("actions", len(legal)).Msg("more legal actions than buttons")
		legal = legal[:maxButtons-3]
	}
	btns := make([]button, 0, len(legal))
	widest := 1
	for _, a := range legal {
		data := playData{Chat: t.Chat, Version: t.Version, Action: a}.String()
		if len(data) > maxData {
			b.log.Error().Str("data", data).Msg("callback data over 64 bytes")
			continue
		}
		label := locales.Plain(b.loc.Action(lang, t.Game, a))
		widest = max(widest, utf8.RuneCountInString(label))
		btns = append(btns, button{Text: label, Data: data})
	}
	rows := grid(btns, min(8, max(1, 28/(widest+2))))
	if pages > 1 {
		rows = append(rows, pageRow(t.Chat, t.Version, cur, pages))
	}
	return rows
}

// grid cuts buttons into rows of at most n.
func grid(btns []button, n int) [][]button {
	var rows [][]button
	for len(btns) > 0 {
		k := min(n, len(btns))
		rows = append(rows, btns[:k:k])
		btns = btns[k:]
	}
	return rows
}

// lobbyContent is the lobby message: the seats, the options, and the lobby buttons (or, in the
// creator's options mode, one button per option that cycles its value).
func (b *Bot) lobbyContent(t store.Table, lang string) content {
	r, ok := b.rules[t.Game]
	if !ok {
		return content{Text: locales.Escape(t.Game)}
	}
	lo, hi := r.Seats()
	lines := []string{"<b>" + b.gameName(lang, t.Game) + "</b> — " + b.text(lang, "bot.lobby.title"),
		b.text(lang, "bot.lobby.seats", "Count", len(t.Seats), "Min", lo, "Max", hi)}
	for i, p := range t.Seats {
		n := locales.Escape(b.seatName(t, lang, games.Seat(i)))
		if p.AI {
			n += " 🤖"
		}
		lines = append(lines, strconv.Itoa(i+1)+". "+n)
	}
	opts := r.Options()
	if len(opts) > 0 {
		lines = append(lines, "", b.text(lang, "bot.lobby.options"))
		for _, o := range opts {
			lines = append(lines, "• "+b.optLabel(lang, t.Game, o.Key)+": "+b.optValue(lang, t.Game, o.Key, t.Config.Get(opts, o.Key)))
		}
	}
	if name := t.Extra["creator"]; name != "" {
		lines = append(lines, "", b.text(lang, "bot.lobby.creator", "Name", name))
	}
	lines = append(lines, b.text(lang, "bot.lobby.hint"))
	tok := lobbyToken(t)
	btn := func(id, op string) button {
		return button{Text: locales.Plain(b.text(lang, id)), Data: lobbyPrefix + tok + "|" + op}
	}
	var rows [][]button
	if t.Extra["mode"] == "opts" && len(opts) > 0 {
		for i, o := range opts {
			label := locales.Plain(b.optLabel(lang, t.Game, o.Key) + ": " + b.optValue(lang, t.Game, o.Key, t.Config.Get(opts, o.Key)))
			rows = append(rows, []button{{Text: truncateRunes(label, 60), Data: lobbyPrefix + tok + "|o" + strconv.Itoa(i)}})
		}
		last := []button{btn("bot.btn.back", "back")}
		if hasAI(t) {
			last = append(last, btn("bot.btn.rmai", "rmai"))
		}
		rows = append(rows, last)
	} else {
		rows = append(rows, []button{btn("bot.btn.join", "join"), btn("bot.btn.leave", "leave"), btn("bot.btn.ai", "ai")})
		second := []button{btn("bot.btn.begin", "begin")}
		if len(opts) > 0 {
			second = []button{btn("bot.btn.options", "opts"), btn("bot.btn.begin", "begin")}
		}
		rows = append(rows, second)
	}
	return content{Text: fitLines(lines), Rows: rows}
}

func (b *Bot) optLabel(lang, game, key string) string {
	return b.text(lang, game+".opt."+key)
}

func (b *Bot) optValue(lang, game, key, value string) string {
	return b.text(lang, game+".opt."+key+"."+value)
}

func hasAI(t store.Table) bool {
	return slices.ContainsFunc(t.Seats, func(p store.Player) bool { return p.AI })
}

// closedContent is the group message or a hand message of a table that was cancelled or closed.
func (b *Bot) closedContent(game, lang, id string) content {
	return content{Text: "<b>" + b.gameName(lang, game) + "</b>\n" + b.text(lang, id)}
}

// eventsText renders the deal and match results of one action as one group (or DM) message; the
// final score sheet follows a match end.
func (b *Bot) eventsText(t store.Table, st games.State, lang string, evs []games.Event) string {
	names := b.namer(t, lang)
	lines := []string{"<b>" + b.gameName(lang, t.Game) + "</b>"}
	end := false
	for _, e := range evs {
		lines = append(lines, b.loc.Render(lang, e.Msg, names))
		end = end || e.Kind == games.EventMatchEnd
	}
	if end {
		lines = append(lines, "", b.sheetText(t, st.Score(), lang))
	}
	return fitLines(lines)
}

// fitLines joins lines and, should the text grow past Telegram's limit, drops whole lines from
// the end (never cutting a tag in two).
func fitLines(lines []string) string {
	s := strings.Join(lines, "\n")
	for k := len(lines) - 1; k > 0 && utf16Len(s) > maxText; k-- {
		s = strings.Join(lines[:k], "\n") + "\n…"
	}
	return strings.TrimSpace(s)
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// lobbyToken identifies one lobby in its buttons, so a press on an older lobby's message is stale.
func lobbyToken(t store.Table) string { return strconv.FormatInt(t.Created.UnixNano(), 36) }

// pickRows is the game picker keyboard of /new without an argument.
func (b *Bot) pickRows(lang string) [][]button {
	var btns []button
	for _, r := range b.cfg.Games {
		btns = append(btns, button{Text: locales.Plain(b.gameName(lang, r.Name())), Data: fmt.Sprintf("%s%s", pickPrefix, r.Name())})
	}
	return grid(btns, 2)
}
