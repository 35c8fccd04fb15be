package bot

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/kozyr-bot/kozyr/bot/callback"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/store"
)

// pageSize is the most action buttons one hand keyboard shows. Longer lists (Skat's first bid
// offers 89 calls) are paged with "‹" / "›" buttons; a page press only redraws the keyboard.
const pageSize = 24

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
func pageRow(id store.TableID, version, cur, pages int) []button {
	data := func(p int) string { return callback.Page{Table: id, Version: version, Page: p}.String() }
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
