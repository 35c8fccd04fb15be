package bot

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/kozyr-bot/kozyr/bot/callback"

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
// during it, the result after it, and why it closed if it closed without one.
func (b *Bot) groupContent(snap *snapshot) content {
	switch {
	case snap.rec.Closed != "":
		return b.closedContent(snap.rec.Game, snap.lang, snap.rec.Closed)
	case !snap.rec.Started:
		return b.lobbyContent(snap.rec, snap.lang)
	}
	return b.tableContent(snap)
}

// tableContent is the group's table message: the game, View(Nobody).Table, whose turn it is, and
// what the last action did.
func (b *Bot) tableContent(snap *snapshot) content {
	t, st, lang := snap.rec, snap.st, snap.lang
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
	if t.TimedOut > 0 {
		lines = append(lines, b.text(lang, "bot.table.timeout", "Name", b.seatName(t, lang, games.Seat(t.TimedOut-1))))
	}
	for _, e := range snap.events {
		if e.Kind == games.EventInfo && e.To == games.Nobody {
			lines = append(lines, b.loc.Render(lang, e.Msg, names))
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
// turn, the table, the prompt and one button per legal action (page page of a long list).
func (b *Bot) handContent(snap *snapshot, seat games.Seat, page int) (c content, toAct bool) {
	t, st := snap.rec, snap.st
	lang := b.seatLang(t.Seats[seat])
	if t.Closed != "" {
		return b.closedContent(t.Game, lang, t.Closed), false
	}
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
	for _, e := range snap.events {
		if e.Kind == games.EventInfo && e.To == seat {
			lines = append(lines, b.loc.Render(lang, e.Msg, names))
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
		data := callback.Play{Table: t.ID, Version: t.Version, Action: a}.String()
		if len(data) > callback.MaxData {
			b.log.Error().Str("data", data).Msg("callback data over 64 bytes")
			continue
		}
		label := locales.Plain(b.loc.Action(lang, t.Game, a))
		widest = max(widest, utf8.RuneCountInString(label))
		btns = append(btns, button{Text: label, Data: data})
	}
	rows := grid(btns, min(8, max(1, 28/(widest+2))))
	if pages > 1 {
		rows = append(rows, pageRow(t.ID, t.Version, cur, pages))
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
	if t.CreatorName != "" {
		lines = append(lines, "", b.text(lang, "bot.lobby.creator", "Name", t.CreatorName))
	}
	lines = append(lines, b.text(lang, "bot.lobby.hint"))
	btn := func(id, op string) button {
		return button{Text: locales.Plain(b.text(lang, id)), Data: callback.Lobby{Table: t.ID, Op: op}.String()}
	}
	var rows [][]button
	if t.Mode == modeOptions && len(opts) > 0 {
		for i, o := range opts {
			label := locales.Plain(b.optLabel(lang, t.Game, o.Key) + ": " + b.optValue(lang, t.Game, o.Key, t.Config.Get(opts, o.Key)))
			rows = append(rows, []button{{Text: truncateRunes(label, 60), Data: callback.Lobby{Table: t.ID, Op: callback.OptionOp(i)}.String()}})
		}
		last := []button{btn("bot.btn.back", callback.OpBack)}
		if hasAI(t) {
			last = append(last, btn("bot.btn.rmai", callback.OpRemove))
		}
		rows = append(rows, last)
	} else {
		rows = append(rows, []button{btn("bot.btn.join", callback.OpJoin), btn("bot.btn.leave", callback.OpLeave), btn("bot.btn.ai", callback.OpAddAI)})
		second := []button{btn("bot.btn.begin", callback.OpBegin)}
		if len(opts) > 0 {
			second = []button{btn("bot.btn.options", callback.OpOptions), btn("bot.btn.begin", callback.OpBegin)}
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
func (b *Bot) eventsText(snap *snapshot, lang string, evs []games.Event) string {
	t, st := snap.rec, snap.st
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

// pickRows is the game picker keyboard of /new without an argument.
func (b *Bot) pickRows(lang string) [][]button {
	var btns []button
	for _, r := range b.cfg.Games {
		btns = append(btns, button{Text: locales.Plain(b.gameName(lang, r.Name())), Data: callback.Pick{Game: r.Name()}.String()})
	}
	return grid(btns, 2)
}
