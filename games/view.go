package games

import "github.com/kozyr-bot/kozyr/games/cards"

// Msg is user-facing text without the text: a locale message ID (always prefixed with the game's
// Name, "wizard.trump") and its arguments. Engines hold no user text; locales renders a Msg in the
// reader's language.
//
// Argument values may be int, string (an id, never prose), bool, cards.Card, []cards.Card,
// cards.Set, cards.Suit, Seat (rendered as the player's name), []Seat, Msg or []Msg (rendered
// recursively). The argument "Count", when an int, selects the plural form.
type Msg struct {
	ID   string
	Args map[string]any
}

// M builds a Msg from an ID and alternating name/value argument pairs:
// M("wizard.bid", "Seat", s, "Count", 3).
func M(id string, kv ...any) Msg {
	m := Msg{ID: id}
	if len(kv) > 0 {
		m.Args = make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			m.Args[kv[i].(string)] = kv[i+1]
		}
	}
	return m
}

// View is what one seat (or the public) may know. The bot renders Table, Private and Prompt; agents
// read Hand and Game. Everything in it must be derivable from what Seat has seen.
type View struct {
	Seat    Seat         // whose view; Nobody for the group
	Players int          // number of seats
	ToAct   []Seat       // who must act now (public knowledge)
	Dealer  Seat         // the dealer of the current deal, or Nobody
	Hand    []cards.Card // Seat's cards in display order; nil for Nobody
	Table   []Msg        // the public table: phase, trump, bids, trick, last trick, running score
	Private []Msg        // what only Seat knows besides the hand (the skat picked up, a blind bid)
	Prompt  Msg          // what Seat is asked to do now; zero when Seat is not to act
	Game    any          // the engine's own structured view for agents; same knowledge as the rest
}

// EventKind says how the bot presents an Event.
type EventKind uint8

// Event kinds: Info updates the table message; DealEnd and MatchEnd are posted as new group
// messages because people want them in the chat history.
const (
	EventInfo EventKind = iota
	EventDealEnd
	EventMatchEnd
)

// Event is something that happened during Apply, for the people watching.
type Event struct {
	Kind EventKind
	To   Seat // Nobody: everyone; otherwise only that seat may see it
	Msg  Msg
}

// Sheet is the score sheet: a row per deal (or per sub-total), a column per seat.
type Sheet struct {
	Rows    []SheetRow
	Totals  []int  // per seat; equals the column sums of Points over Rows
	Winners []Seat // empty while the match runs
	Notes   []Msg  // lines under the table: places, ratings, the banker
}

// SheetRow is one line of the sheet. Cells are short language-neutral texts ("2/3", "+40", "—");
// Points are the numbers that add up to Totals, nil for a display-only row.
type SheetRow struct {
	Label  Msg
	Cells  []string
	Points []int
}
