// Package render turns a table's committed moment — its record, its engine state, what the last
// action did, the reader's language — into the messages the bot shows: the lobby, the group's table
// message, each player's hand with its buttons, deal and match results, the score sheet. It is
// pure: nothing here reads the store or calls Telegram, so every text can be tested on its own.
package render

import (
	"cmp"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"github.com/kozyr-bot/kozyr/bot/callback"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/search"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// Snapshot is one committed moment of a table: everything a render of it needs. It is never
// changed once made, so the bot's outbox jobs carry it instead of reading the store again.
type Snapshot struct {
	Rec    store.Table
	State  games.State   // nil before the match begins
	Events []games.Event // what the action that made this version did
	Lang   string        // the group's language
}

// Button is an inline keyboard button. The bot passes its own markup type because the library's
// InlineKeyboardButton always serializes an empty copy_text object.
type Button struct {
	Text string `json:"text"`
	Data string `json:"callback_data,omitempty"`
	URL  string `json:"url,omitempty"`
}

// Markup is an inline keyboard; an empty one ({"inline_keyboard":[]}) removes the keyboard.
type Markup struct {
	Rows [][]Button `json:"inline_keyboard"`
}

// Content is one message as the bot wants it to look: HTML text and its keyboard.
type Content struct {
	Text    string     `json:"text"`
	Rows    [][]Button `json:"rows,omitempty"`
	ReplyTo int        `json:"reply_to,omitempty"` // for a new message: the message it answers (not part of its hash)
}

// Hash identifies what the message shows, so an edit that would change nothing is skipped, also
// after a restart (the hashes are kept with the table). It is never 0, which means "unknown".
func (c Content) Hash() uint64 {
	h := fnv.New64a()
	h.Write([]byte(c.Text))
	for _, row := range c.Rows {
		h.Write([]byte{0})
		for _, b := range row {
			h.Write([]byte{1})
			h.Write([]byte(b.Text))
			h.Write([]byte{2})
			h.Write([]byte(b.Data))
			h.Write([]byte{3})
			h.Write([]byte(b.URL))
		}
	}
	return max(h.Sum64(), 1)
}

// Markup is the keyboard to send with the message; an empty one removes a keyboard.
func (c Content) Markup() *Markup {
	rows := c.Rows
	if rows == nil {
		rows = [][]Button{}
	}
	return &Markup{Rows: rows}
}

// Renderer renders for one bot: its games, its translations and its username (for deep links).
type Renderer struct {
	Loc   *locales.Bundle
	Games []games.Rules // in the order the game picker shows them
	Rules map[string]games.Rules
	Bot   string
	Log   zerolog.Logger // where a render that had to leave something out says so
	Level search.Level   // the computer players' level of a table that chose none
}

// New is a Renderer for the games, by name.
func New(loc *locales.Bundle, gs []games.Rules, bot string, log zerolog.Logger) *Renderer {
	r := &Renderer{Loc: loc, Games: gs, Rules: map[string]games.Rules{}, Bot: bot, Log: log}
	for _, g := range gs {
		r.Rules[g.Name()] = g
	}
	return r
}

// GameIDs lists the games' ids for a sentence.
func (r *Renderer) GameIDs() string {
	ids := make([]string, 0, len(r.Games))
	for _, g := range r.Games {
		ids = append(ids, g.Name())
	}
	return strings.Join(ids, ", ")
}

// RulesText is the rules text of a game.
func (r *Renderer) RulesText(lang, game string) Content {
	return Content{Text: "<b>" + r.GameName(lang, game) + "</b>\n" + r.Text(lang, game+".rules") + "\n\n" + r.Text(lang, "record.rules")}
}

// Layout of the monospace score sheet: a phone shows about 32 columns without wrapping, so wider
// sheets are split into blocks of seats, each repeating the row labels.
const (
	maxSheet   = 3000 // the <pre> block's share of a 4096-character message
	SheetWidth = 32
	labelWidth = 8
	cellWidth  = 10
)

// maxText is Telegram's message length limit (UTF-16 code units after entity parsing); we keep
// the HTML source under it, which is stricter.
const maxText = 4000

// ModeOptions is the lobby keyboard that cycles the game's options.
const ModeOptions = "opts"

// maxButtons is Telegram's limit on the buttons of one keyboard.
const maxButtons = 100

// PageSize is the most action buttons one hand keyboard shows. Longer lists (Skat's first bid
// offers 89 calls) are paged with "‹" / "›" buttons; a page press only redraws the keyboard.
const PageSize = 24

// Group is what the table's group message shows: the lobby before the match, the table
// during it, the result after it, and why it closed if it closed without one.
func (r *Renderer) Group(snap *Snapshot) Content {
	switch {
	case snap.Rec.Closed != "":
		return r.Closed(snap.Rec.Game, snap.Lang, snap.Rec.Closed)
	case !snap.Rec.Started:
		return r.Lobby(snap.Rec, snap.Lang)
	}
	return r.table(snap)
}

// table is the group's table message: the game, View(Nobody).Table, whose turn it is, and
// what the last action did.
func (r *Renderer) table(snap *Snapshot) Content {
	t, st, lang := snap.Rec, snap.State, snap.Lang
	names := r.Namer(t, lang)
	v := st.View(games.Nobody)
	lines := []string{"<b>" + r.GameName(lang, t.Game) + "</b>"}
	for _, m := range v.Table {
		lines = append(lines, r.Loc.Render(lang, m, names))
	}
	// At the end the engine's own table lines and match-end event announce the result.
	if toAct := st.ToAct(); len(toAct) > 0 {
		lines = append(lines, "", r.Text(lang, "bot.table.turn", "Names", r.seatList(t, lang, toAct)))
	}
	if t.TimedOut > 0 {
		lines = append(lines, r.Text(lang, "bot.table.timeout", "Name", r.SeatName(t, lang, games.Seat(t.TimedOut-1))))
	}
	if c := r.commitLine(t, lang); c != "" {
		lines = append(lines, c)
	}
	for _, e := range snap.Events {
		if e.Kind == games.EventInfo && e.To == games.Nobody {
			lines = append(lines, r.Loc.Render(lang, e.Msg, names))
		}
	}
	return Content{Text: fitLines(lines)}
}

// seatList names seats for a sentence, marking those the agent plays.
func (r *Renderer) seatList(t store.Table, lang string, seats []games.Seat) string {
	out := make([]string, 0, len(seats))
	for _, s := range seats {
		n := r.SeatName(t, lang, s)
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

// Hand is a player's DM hand message: their cards, what only they know, and, on their
// turn, the table, the prompt and one Button per legal action (page page of a long list).
func (r *Renderer) Hand(snap *Snapshot, seat games.Seat, page int) (c Content, toAct bool) {
	t, st := snap.Rec, snap.State
	lang := r.SeatLang(t.Seats[seat])
	if t.Closed != "" {
		return r.Closed(t.Game, lang, t.Closed), false
	}
	names := r.Namer(t, lang)
	v := st.View(seat)
	over := len(st.ToAct()) == 0
	toAct = !over && slices.Contains(st.ToAct(), seat)
	lines := []string{"<b>" + r.GameName(lang, t.Game) + "</b>"}
	if toAct || over {
		for _, m := range v.Table {
			lines = append(lines, r.Loc.Render(lang, m, names))
		}
	}
	for _, m := range v.Private {
		lines = append(lines, r.Loc.Render(lang, m, names))
	}
	for _, e := range snap.Events {
		if e.Kind == games.EventInfo && e.To == seat {
			lines = append(lines, r.Loc.Render(lang, e.Msg, names))
		}
	}
	if len(v.Hand) > 0 {
		lines = append(lines, "", r.Text(lang, "bot.hand.cards")+" "+r.Loc.Cards(lang, v.Hand))
	}
	switch {
	case over:
		lines = append(lines, "", r.Text(lang, "bot.hand.over"))
	case toAct:
		if v.Prompt.ID != "" {
			lines = append(lines, "", "<b>"+r.Loc.Render(lang, v.Prompt, names)+"</b>")
		}
		if t.Seats[seat].Away {
			lines = append(lines, r.Text(lang, "bot.hand.away"))
		}
	default:
		lines = append(lines, "", r.Text(lang, "bot.hand.wait"))
	}
	c.Text = fitLines(lines)
	if toAct {
		c.Rows = r.actionRows(t, st.Legal(seat), lang, page)
	}
	return c, toAct
}

// actionRows lays out one Button per legal action, at most 8 a row and fewer for long labels.
// Ladders come in ascending order; a long list shows page page of it (paging.go) with a row of
// page buttons under it.
func (r *Renderer) actionRows(t store.Table, legal []games.Action, lang string, page int) [][]Button {
	legal, cur, pages := paginate(ordered(legal), page)
	if len(legal) > maxButtons-3 {
		r.Log.Error().Str("game", t.Game).Int("actions", len(legal)).Msg("more legal actions than buttons")
		legal = legal[:maxButtons-3]
	}
	btns := make([]Button, 0, len(legal))
	widest := 1
	for _, a := range legal {
		data := callback.Play{Table: t.ID, Version: t.Version, Action: a}.String()
		if len(data) > callback.MaxData {
			r.Log.Error().Str("data", data).Msg("callback data over 64 bytes")
			continue
		}
		label := locales.Plain(r.Loc.Action(lang, t.Game, a))
		widest = max(widest, utf8.RuneCountInString(label))
		btns = append(btns, Button{Text: label, Data: data})
	}
	rows := grid(btns, min(8, max(1, 28/(widest+2))))
	if pages > 1 {
		rows = append(rows, pageRow(t.ID, t.Version, cur, pages))
	}
	return rows
}

// grid cuts buttons into rows of at most n.
func grid(btns []Button, n int) [][]Button {
	var rows [][]Button
	for len(btns) > 0 {
		k := min(n, len(btns))
		rows = append(rows, btns[:k:k])
		btns = btns[k:]
	}
	return rows
}

// Lobby is the lobby message: the seats, the options, and the lobby buttons (or, in the
// creator's options mode, one Button per option that cycles its value).
func (r *Renderer) Lobby(t store.Table, lang string) Content {
	g, ok := r.Rules[t.Game]
	if !ok {
		return Content{Text: locales.Escape(t.Game)}
	}
	lo, hi := g.Seats()
	lines := []string{"<b>" + r.GameName(lang, t.Game) + "</b> — " + r.Text(lang, "bot.lobby.title"),
		r.Text(lang, "bot.lobby.seats", "Count", len(t.Seats), "Min", lo, "Max", hi)}
	for i, p := range t.Seats {
		n := locales.Escape(r.SeatName(t, lang, games.Seat(i)))
		if p.AI {
			n += " 🤖"
		}
		lines = append(lines, strconv.Itoa(i+1)+". "+n)
	}
	opts := g.Options()
	lines = append(lines, "", r.Text(lang, "bot.lobby.options"))
	for _, o := range opts {
		lines = append(lines, "• "+r.optLabel(lang, t.Game, o.Key)+": "+r.optValue(lang, t.Game, o.Key, t.Config.Get(opts, o.Key)))
	}
	lines = append(lines, "• "+r.levelLabel(lang, t))
	lines = append(lines, r.Timing(lang, t)...)
	if t.CreatorName != "" {
		lines = append(lines, "", r.Text(lang, "bot.lobby.creator", "Name", t.CreatorName))
	}
	lines = append(lines, r.Text(lang, "bot.lobby.hint"))
	btn := func(id, op string) Button {
		return Button{Text: locales.Plain(r.Text(lang, id)), Data: callback.Lobby{Table: t.ID, Op: op}.String()}
	}
	var rows [][]Button
	if t.Mode == ModeOptions {
		for i, o := range opts {
			label := locales.Plain(r.optLabel(lang, t.Game, o.Key) + ": " + r.optValue(lang, t.Game, o.Key, t.Config.Get(opts, o.Key)))
			rows = append(rows, []Button{{Text: Truncate(label, 60), Data: callback.Lobby{Table: t.ID, Op: callback.OptionOp(i)}.String()}})
		}
		// The computer players' level comes after the game's own options.
		rows = append(rows, []Button{{Text: Truncate(locales.Plain(r.levelLabel(lang, t)), 60),
			Data: callback.Lobby{Table: t.ID, Op: callback.OptionOp(len(opts))}.String()}})
		last := []Button{btn("bot.btn.back", callback.OpBack)}
		if hasAI(t) {
			last = append(last, btn("bot.btn.rmai", callback.OpRemove))
		}
		rows = append(rows, last)
	} else {
		rows = append(rows, []Button{btn("bot.btn.join", callback.OpJoin), btn("bot.btn.leave", callback.OpLeave), btn("bot.btn.ai", callback.OpAddAI)})
		rows = append(rows, []Button{btn("bot.btn.options", callback.OpOptions), btn("bot.btn.begin", callback.OpBegin)})
	}
	return Content{Text: fitLines(lines), Rows: rows}
}

// levelLabel is the lobby's line for the computer players' level.
func (r *Renderer) levelLabel(lang string, t store.Table) string {
	return r.Text(lang, "bot.opt.level") + ": " + r.Text(lang, "bot.opt.level."+TableLevel(t, r.Level).String())
}

// TableLevel is the level of a table's computer players: its own, else def.
func TableLevel(t store.Table, def search.Level) search.Level {
	if l, err := search.ParseLevel(t.Level); err == nil {
		return l
	}
	return def
}

func (r *Renderer) optLabel(lang, game, key string) string {
	return r.Text(lang, game+".opt."+key)
}

func (r *Renderer) optValue(lang, game, key, value string) string {
	return r.Text(lang, game+".opt."+key+"."+value)
}

func hasAI(t store.Table) bool {
	return slices.ContainsFunc(t.Seats, func(p store.Player) bool { return p.AI })
}

// Closed is the group message or a hand message of a table that was cancelled or closed.
func (r *Renderer) Closed(game, lang, id string) Content {
	return Content{Text: "<b>" + r.GameName(lang, game) + "</b>\n" + r.Text(lang, id)}
}

// Events renders the deal and match results of one action as one group (or DM) message; the
// final score sheet follows a match end.
func (r *Renderer) Events(snap *Snapshot, lang string, evs []games.Event) string {
	t, st := snap.Rec, snap.State
	names := r.Namer(t, lang)
	lines := []string{"<b>" + r.GameName(lang, t.Game) + "</b>"}
	end := false
	for _, e := range evs {
		lines = append(lines, r.Loc.Render(lang, e.Msg, names))
		end = end || e.Kind == games.EventMatchEnd
	}
	if end {
		lines = append(lines, r.seedLine(t, lang), "", r.Sheet(t, st.Score(), lang))
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

// PickRows is the game picker keyboard of /new without an argument.
func (r *Renderer) PickRows(lang string) [][]Button {
	var btns []Button
	for _, g := range r.Games {
		btns = append(btns, Button{Text: locales.Plain(r.GameName(lang, g.Name())), Data: callback.Pick{Game: g.Name()}.String()})
	}
	return grid(btns, 2)
}

func (r *Renderer) SheetContent(t store.Table, sh games.Sheet, lang string) Content {
	return Content{Text: "<b>" + r.GameName(lang, t.Game) + "</b>\n" + r.Sheet(t, sh, lang)}
}

// MatchTable is a record that names an archived match's seats, for rendering its sheet.
func MatchTable(m store.Match) store.Table {
	t := store.Table{ID: m.Table, Place: m.Place, Game: m.Game, Config: m.Config, Started: true, Finished: m.Finished}
	for _, s := range m.Seats {
		if s.AI {
			t.Seats = append(t.Seats, store.NewAgent())
		} else {
			t.Seats = append(t.Seats, store.NewPlayer(s.UserID, s.Name, ""))
		}
	}
	return t
}

// Sheet renders a score sheet as a monospace <pre> table that fits a phone (names
// abbreviated), followed by the winners and the sheet's notes.
func (r *Renderer) Sheet(t store.Table, sh games.Sheet, lang string) string {
	names := r.Namer(t, lang)
	var lines []string
	if len(sh.Winners) > 0 {
		lines = append(lines, r.Text(lang, "bot.score.final"))
	} else {
		lines = append(lines, r.Text(lang, "bot.score.running"))
	}
	full := make([]string, len(t.Seats))
	for s := range full {
		full[s] = r.SeatName(t, lang, games.Seat(s))
	}
	label := func(m games.Msg) string { return locales.Plain(r.Loc.Render(lang, m, names)) }
	// A long match (Nasilie plays until someone reaches 100) may not fit one message: the oldest
	// rows give way, the totals stay.
	shown := sh
	table, short := sheetTable(t, shown, full, label)
	pre := locales.Escape(table)
	for dropped := 0; utf16Len(pre) > maxSheet && len(shown.Rows) > 1; {
		cut := max(1, len(shown.Rows)/8)
		dropped += cut
		shown.Rows = shown.Rows[cut:]
		table, short = sheetTable(t, shown, full, label)
		pre = r.Text(lang, "bot.score.earlier", "Count", dropped) + "\n" + locales.Escape(table)
	}
	sh = shown
	lines = append(lines, "<pre>"+pre+"</pre>")
	// The columns carry short names; the legend says whose each is.
	legend := make([]string, len(full))
	for s := range full {
		legend[s] = r.Text(lang, "bot.score.who", "Short", short[s], "Name", full[s])
	}
	lines = append(lines, strings.Join(legend, " · "))
	// Row labels too long for the table's label column are listed in full under it, the newest
	// first to go in while the message stays within Telegram's limit.
	var rows []string
	room := maxText - 500 - utf16Len(strings.Join(lines, "\n"))
	for i := len(sh.Rows) - 1; i >= 0; i-- {
		l := r.Loc.Render(lang, sh.Rows[i].Label, names)
		if !mustList(locales.Plain(l)) {
			continue
		}
		if room -= utf16Len(l) + 1; room < 0 {
			break
		}
		rows = append([]string{l}, rows...)
	}
	lines = append(lines, rows...)
	for _, m := range sh.Notes {
		lines = append(lines, r.Loc.Render(lang, m, names))
	}
	return strings.Join(lines, "\n")
}

// sheetTable lays the sheet out as plain monospace text, each seat's column headed by a short form
// of its name (returned too, for the legend).
func sheetTable(t store.Table, sh games.Sheet, names []string, label func(games.Msg) string) (string, []string) {
	n := len(t.Seats)
	labels := make([]string, len(sh.Rows))
	lw := 1
	for i, r := range sh.Rows {
		l := shortLabel(label(r.Label))
		labels[i] = l
		lw = max(lw, utf8.RuneCountInString(l))
	}
	lw = min(lw, labelWidth)
	widths := make([]int, n)
	for s := range n {
		w := 3
		for _, r := range sh.Rows {
			if s < len(r.Cells) {
				w = max(w, utf8.RuneCountInString(r.Cells[s]))
			}
		}
		if s < len(sh.Totals) {
			w = max(w, len(strconv.Itoa(sh.Totals[s])))
		}
		widths[s] = min(w, cellWidth)
	}
	short := abbreviations(names, widths)
	var blocks [][]int
	var cur []int
	w := lw
	for s := range n {
		if len(cur) > 0 && w+1+widths[s] > SheetWidth {
			blocks = append(blocks, cur)
			cur, w = nil, lw
		}
		cur = append(cur, s)
		w += 1 + widths[s]
	}
	if len(cur) > 0 {
		blocks = append(blocks, cur)
	}
	var out []string
	for bi, block := range blocks {
		if bi > 0 {
			out = append(out, "")
		}
		line := func(first string, cell func(s int) string) string {
			var sb strings.Builder
			sb.WriteString(padRight(cut(first, lw), lw))
			for _, s := range block {
				sb.WriteByte(' ')
				sb.WriteString(padLeft(cut(cell(s), widths[s]), widths[s]))
			}
			return strings.TrimRight(sb.String(), " ")
		}
		out = append(out, line("", func(s int) string { return short[s] }))
		for i, r := range sh.Rows {
			out = append(out, line(labels[i], func(s int) string {
				if s < len(r.Cells) {
					return r.Cells[s]
				}
				return ""
			}))
		}
		if len(sh.Totals) > 0 {
			out = append(out, line("Σ", func(s int) string {
				if s < len(sh.Totals) {
					return strconv.Itoa(sh.Totals[s])
				}
				return ""
			}))
		}
	}
	return strings.Join(out, "\n"), short
}

// abbreviations shortens each name to its column's width so that no two are alike: the first
// letters and digits of the name (its spaces and signs left out), and where two would be the
// same, their last place holds a number instead, counted in seat order. A name that fits stays.
func abbreviations(names []string, widths []int) []string {
	out := make([]string, len(names))
	for i, n := range names {
		w := max(widths[i], 1)
		if utf8.RuneCountInString(n) <= w && !strings.ContainsAny(n, " \u00a0") {
			out[i] = n
			continue
		}
		var rs []rune
		for _, r := range n {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				rs = append(rs, r)
			}
		}
		if len(rs) == 0 {
			rs = []rune(strings.TrimSpace(n))
		}
		out[i] = string(rs[:min(len(rs), w)])
	}
	for i := range out {
		var same []int
		for j := range out {
			if out[j] == out[i] {
				same = append(same, j)
			}
		}
		if len(same) < 2 {
			continue
		}
		for k, j := range same {
			num := []rune(strconv.Itoa(k + 1))
			rs := []rune(out[j])
			keep := max(0, min(len(rs), max(widths[j], len(num)))-len(num))
			out[j] = string(rs[:keep]) + string(num)
		}
	}
	return out
}

// shortLabel fits a row label into the label column: a parenthesis is detail a narrow column
// drops first ("3 (3 cards)" → "3"); a label that still does not fit shows its first word
// ("7. Bob: 3 (130), 14/13" → "7.") and is listed in full under the table (mustList).
func shortLabel(l string) string {
	l = strings.TrimSpace(l)
	if utf8.RuneCountInString(l) <= labelWidth {
		return l
	}
	if head, _, ok := strings.Cut(l, "("); ok {
		if head = strings.TrimSpace(head); head != "" && utf8.RuneCountInString(head) <= labelWidth {
			return head
		}
	}
	if f := strings.Fields(l); len(f) > 0 {
		return f[0]
	}
	return l
}

// mustList reports whether shortLabel drops more of a label than a parenthesis.
func mustList(l string) bool {
	l = strings.TrimSpace(l)
	if utf8.RuneCountInString(l) <= labelWidth {
		return false
	}
	head, _, ok := strings.Cut(l, "(")
	head = strings.TrimSpace(head)
	return !ok || head == "" || utf8.RuneCountInString(head) > labelWidth
}

// cut shortens s to n runes; names are abbreviated with a final dot.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	if n <= 1 {
		return string(r[:n])
	}
	return string(r[:n-1]) + "."
}

func padLeft(s string, n int) string {
	return strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s))) + s
}

func padRight(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s)))
}

// Stats answers /stats: the user's record per game, with the game's overall rating (a games.Rater)
// and the user's Elo rating.
func (r *Renderer) Stats(u store.User, name, lang string) Content {
	lines := []string{r.Text(lang, "bot.stats.title", "Name", name)}
	found := false
	for _, g := range r.Games {
		s, ok := u.Stats[g.Name()]
		if !ok || s.Played == 0 {
			continue
		}
		found = true
		line := "<b>" + r.GameName(lang, g.Name()) + "</b>: " + r.Text(lang, "bot.stats.line", "Count", s.Played, "Won", s.Won, "Points", s.Points)
		if rt, ok := g.(games.Rater); ok {
			line += " " + r.Loc.Render(lang, rt.OverallRating(s.Points, s.Played), nil)
		}
		line += r.eloNote(lang, s)
		lines = append(lines, line)
	}
	if !found {
		lines = append(lines, r.Text(lang, "bot.stats.none"))
	}
	return Content{Text: strings.Join(lines, "\n")}
}

// Rung reports whether a is a step of a numeric ladder: a number and no card ("bid/18"). Long
// keyboards page ladders and pin the other actions on every page.
func Rung(a games.Action) bool { return a.HasN && a.Card == cards.NoCard }

// ordered returns legal with every ladder (the rungs of one kind) in ascending order, each rung
// taking the place of one of its kind, so the lowest call — the next legal bid — comes first and
// the other actions keep their places.
func ordered(legal []games.Action) []games.Action {
	out := slices.Clone(legal)
	at := map[string][]int{}
	for i, a := range out {
		if Rung(a) {
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
// is and how many there are. Lists of at most PageSize actions have one page. Otherwise the rungs
// are paged and the few other actions ("pass", "hold") are shown on every page, in their places;
// when those are too many to repeat, everything is paged alike.
func paginate(legal []games.Action, page int) (shown []games.Action, cur, pages int) {
	if len(legal) <= PageSize {
		return legal, 0, 1
	}
	pinned := 0
	for _, a := range legal {
		if !Rung(a) {
			pinned++
		}
	}
	paged := func(a games.Action) bool { return Rung(a) }
	if pinned > PageSize/2 || pinned == len(legal) {
		pinned = 0
		paged = func(games.Action) bool { return true }
	}
	per := PageSize - pinned
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

// pageRow is the navigation row of a paged keyboard: "‹", the page, "›". The middle Button names
// the current page (pressing it changes nothing).
func pageRow(id store.TableID, version, cur, pages int) []Button {
	data := func(p int) string { return callback.Page{Table: id, Version: version, Page: p}.String() }
	var row []Button
	if cur > 0 {
		row = append(row, Button{Text: "‹", Data: data(cur - 1)})
	}
	row = append(row, Button{Text: strconv.Itoa(cur+1) + "/" + strconv.Itoa(pages), Data: data(cur)})
	if cur < pages-1 {
		row = append(row, Button{Text: "›", Data: data(cur + 1)})
	}
	return row
}

// SeatLang is the language of a seated player's DMs: their /lang, which the bot copies into
// every seat they hold, else their client's language when they sat down.
func (r *Renderer) SeatLang(p store.Player) string {
	if p.Lang != "" {
		return p.Lang
	}
	return r.Loc.Match("")
}

// Text is a UI string of the bot (HTML).
func (r *Renderer) Text(lang, id string, kv ...any) string { return r.Loc.Text(lang, id, kv...) }

// GameName is a game's display name (HTML).
func (r *Renderer) GameName(lang, game string) string { return r.Loc.Text(lang, game+".name") }

// Namer returns the names of a table's seats as people chose them (not escaped: locales escapes
// names when it renders a Seat argument).
func (r *Renderer) Namer(t store.Table, lang string) func(games.Seat) string {
	return func(s games.Seat) string { return r.SeatName(t, lang, s) }
}

func (r *Renderer) SeatName(t store.Table, lang string, s games.Seat) string {
	if s < 0 || int(s) >= len(t.Seats) {
		return "?"
	}
	p := t.Seats[s]
	if p.AI {
		n := 0
		for _, q := range t.Seats[:s+1] {
			if q.AI {
				n++
			}
		}
		return locales.Plain(r.Text(lang, "bot.ai.name", "N", n))
	}
	if p.Name == "" {
		return "?"
	}
	return p.Name
}

// Truncate cuts s to at most n runes, marking the cut with an ellipsis.
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// StartLink is the t.me deep link that opens the bot's DM and, on START, seats the user at table
// id.
func (r *Renderer) StartLink(id store.TableID) string {
	return "https://t.me/" + r.Bot + "?start=" + callback.JoinPayload(id)
}

// DeepLink is a group message asking a user to open the bot, with the link as a Button.
func (r *Renderer) DeepLink(lang, msgID string, id store.TableID, name string) Content {
	return Content{
		Text: r.Text(lang, msgID, "Name", name),
		Rows: [][]Button{{{Text: locales.Plain(r.Text(lang, "bot.btn.open")), URL: r.StartLink(id)}}},
	}
}

// Help is the command list of a group or a DM.
func (r *Renderer) Help(lang, id string) Content {
	return Content{Text: r.Text(lang, id, "Games", r.GameIDs(), "Bot", r.Bot)}
}
