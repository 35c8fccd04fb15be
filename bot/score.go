package bot

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// Layout of the monospace score sheet: a phone shows about 32 columns without wrapping, so wider
// sheets are split into blocks of seats, each repeating the row labels.
const (
	maxSheet   = 3000 // the <pre> block's share of a 4096-character message
	sheetWidth = 32
	labelWidth = 8
	cellWidth  = 10
)

// scoreContentTx answers /score: the sheet of the match running at place, else of the chat's
// last finished one.
func (b *Bot) scoreContentTx(tx store.Tx, place store.Place, lang string) content {
	if rec, err := tx.TableAt(place); err == nil && rec.Started {
		st, err := b.stateOf(tx, b.mem(rec.ID), rec)
		if err != nil {
			b.log.Error().Err(err).Msg("score")
			return content{Text: b.text(lang, "bot.score.none")}
		}
		return b.sheetContent(rec, st.Score(), lang)
	}
	m, err := tx.LastMatch(place.Chat)
	if err != nil {
		return content{Text: b.text(lang, "bot.score.none")}
	}
	sh, err := b.matchSheet(m)
	if err != nil {
		b.log.Error().Err(err).Msg("score of a finished match")
		return content{Text: b.text(lang, "bot.score.none")}
	}
	return b.sheetContent(matchTable(m), sh, lang)
}

func (b *Bot) sheetContent(t store.Table, sh games.Sheet, lang string) content {
	return content{Text: "<b>" + b.gameName(lang, t.Game) + "</b>\n" + b.sheetText(t, sh, lang)}
}

// matchSheet is the final sheet of an archived match: as kept, or (for a match archived before
// sheets were kept) by replaying its log with the rules it was played by.
func (b *Bot) matchSheet(m store.Match) (games.Sheet, error) {
	if m.Sheet != nil {
		return *m.Sheet, nil
	}
	r, ok := b.rules[m.Game]
	if !ok || r.Version() != m.Rules {
		return games.Sheet{}, fmt.Errorf("match %d: no rules %s v%d to replay it", m.Table, m.Game, m.Rules)
	}
	log := make([]store.Entry, 0, len(m.Log))
	for _, s := range m.Log {
		e, err := store.ParseEntry(s)
		if err != nil {
			return games.Sheet{}, err
		}
		log = append(log, e)
	}
	st, _, err := replay(r, m.Config, m.Seed, log)
	if err != nil {
		return games.Sheet{}, err
	}
	return st.Score(), nil
}

// matchTable is a record that names an archived match's seats, for rendering its sheet.
func matchTable(m store.Match) store.Table {
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

// sheetText renders a score sheet as a monospace <pre> table that fits a phone (names
// abbreviated), followed by the winners and the sheet's notes.
func (b *Bot) sheetText(t store.Table, sh games.Sheet, lang string) string {
	names := b.namer(t, lang)
	var lines []string
	if len(sh.Winners) > 0 {
		lines = append(lines, b.text(lang, "bot.score.final"))
	} else {
		lines = append(lines, b.text(lang, "bot.score.running"))
	}
	name := func(s games.Seat) string { return b.seatName(t, lang, s) }
	label := func(m games.Msg) string { return locales.Plain(b.loc.Render(lang, m, names)) }
	// A long match (Nasilie plays until someone reaches 100) may not fit one message: the oldest
	// rows give way, the totals stay.
	shown := sh
	pre := locales.Escape(sheetTable(t, shown, name, label))
	for dropped := 0; utf16Len(pre) > maxSheet && len(shown.Rows) > 1; {
		cut := max(1, len(shown.Rows)/8)
		dropped += cut
		shown.Rows = shown.Rows[cut:]
		pre = b.text(lang, "bot.score.earlier", "Count", dropped) + "\n" +
			locales.Escape(sheetTable(t, shown, name, label))
	}
	sh = shown
	lines = append(lines, "<pre>"+pre+"</pre>")
	// Row labels too long for the table's label column are listed in full under it, the newest
	// first to go in while the message stays within Telegram's limit.
	var legend []string
	room := maxText - 500 - utf16Len(strings.Join(lines, "\n"))
	for i := len(sh.Rows) - 1; i >= 0; i-- {
		l := b.loc.Render(lang, sh.Rows[i].Label, names)
		if !mustList(locales.Plain(l)) {
			continue
		}
		if room -= utf16Len(l) + 1; room < 0 {
			break
		}
		legend = append([]string{l}, legend...)
	}
	lines = append(lines, legend...)
	for _, m := range sh.Notes {
		lines = append(lines, b.loc.Render(lang, m, names))
	}
	return strings.Join(lines, "\n")
}

// sheetTable lays the sheet out as plain monospace text.
func sheetTable(t store.Table, sh games.Sheet, name func(games.Seat) string, label func(games.Msg) string) string {
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
	var blocks [][]int
	var cur []int
	w := lw
	for s := range n {
		if len(cur) > 0 && w+1+widths[s] > sheetWidth {
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
		out = append(out, line("", func(s int) string { return name(games.Seat(s)) }))
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
	return strings.Join(out, "\n")
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

// statsContentTx answers /stats: the user's record per game.
func (b *Bot) statsContentTx(tx store.Tx, user int64, name, lang string) content {
	u, err := tx.User(user)
	lines := []string{b.text(lang, "bot.stats.title", "Name", name)}
	found := false
	for _, r := range b.cfg.Games {
		s, ok := u.Stats[r.Name()]
		if err != nil || !ok || s.Played == 0 {
			continue
		}
		found = true
		line := "<b>" + b.gameName(lang, r.Name()) + "</b>: " + b.text(lang, "bot.stats.line", "Count", s.Played, "Won", s.Won, "Points", s.Points)
		if rt, ok := r.(games.Rater); ok {
			line += " " + b.loc.Render(lang, rt.OverallRating(s.Points, s.Played), nil)
		}
		lines = append(lines, line)
	}
	if !found {
		lines = append(lines, b.text(lang, "bot.stats.none"))
	}
	return content{Text: strings.Join(lines, "\n")}
}
