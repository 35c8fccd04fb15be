package games

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/kozyr-bot/kozyr/games/cards"
)

// taggedArg is one Msg argument in JSON: exactly one field is set, naming the argument's type, so
// a Msg read back renders exactly as the one written (a Seat stays a Seat, not a number).
type taggedArg struct {
	Int   *int             `json:"int,omitempty"`
	Str   *string          `json:"str,omitempty"`
	Bool  *bool            `json:"bool,omitempty"`
	Card  *cards.Card      `json:"card,omitempty"`
	Cards *[]cards.Card    `json:"cards,omitempty"`
	Set   *cards.Set       `json:"set,omitempty"`
	Suit  *cards.Suit      `json:"suit,omitempty"`
	Seat  *Seat            `json:"seat,omitempty"`
	Seats *[]Seat          `json:"seats,omitempty"`
	Msg   *Msg             `json:"msg,omitempty"`
	Msgs  *[]Msg           `json:"msgs,omitempty"`
	Nil   *json.RawMessage `json:"nil,omitempty"`
}

type msgJSON struct {
	ID   string               `json:"id"`
	Args map[string]taggedArg `json:"args,omitempty"`
}

// MarshalJSON writes m with every argument tagged by its type. The archive keeps finished
// matches' sheets this way, so they render later in any language.
func (m Msg) MarshalJSON() ([]byte, error) {
	out := msgJSON{ID: m.ID}
	if len(m.Args) > 0 {
		out.Args = make(map[string]taggedArg, len(m.Args))
	}
	for _, k := range slices.Sorted(maps.Keys(m.Args)) {
		a, err := tagArg(m.Args[k])
		if err != nil {
			return nil, fmt.Errorf("msg %s argument %s: %w", m.ID, k, err)
		}
		out.Args[k] = a
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (m *Msg) UnmarshalJSON(b []byte) error {
	var in msgJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*m = Msg{ID: in.ID}
	if len(in.Args) > 0 {
		m.Args = make(map[string]any, len(in.Args))
	}
	for k, a := range in.Args {
		v, err := a.value()
		if err != nil {
			return fmt.Errorf("msg %s argument %s: %w", in.ID, k, err)
		}
		m.Args[k] = v
	}
	return nil
}

func tagArg(v any) (taggedArg, error) {
	var a taggedArg
	switch x := v.(type) {
	case int:
		a.Int = &x
	case int8:
		n := int(x)
		a.Int = &n
	case int16:
		n := int(x)
		a.Int = &n
	case int32:
		n := int(x)
		a.Int = &n
	case int64:
		n := int(x)
		a.Int = &n
	case string:
		a.Str = &x
	case bool:
		a.Bool = &x
	case cards.Card:
		a.Card = &x
	case []cards.Card:
		a.Cards = &x
	case cards.Set:
		a.Set = &x
	case cards.Suit:
		a.Suit = &x
	case Seat:
		a.Seat = &x
	case []Seat:
		a.Seats = &x
	case Msg:
		a.Msg = &x
	case []Msg:
		a.Msgs = &x
	case nil:
		raw := json.RawMessage("null")
		a.Nil = &raw
	default:
		return a, fmt.Errorf("unsupported type %T", v)
	}
	return a, nil
}

var errUntagged = errors.New("argument without exactly one type")

func (a taggedArg) value() (any, error) {
	var out []any
	if a.Int != nil {
		out = append(out, *a.Int)
	}
	if a.Str != nil {
		out = append(out, *a.Str)
	}
	if a.Bool != nil {
		out = append(out, *a.Bool)
	}
	if a.Card != nil {
		out = append(out, *a.Card)
	}
	if a.Cards != nil {
		out = append(out, *a.Cards)
	}
	if a.Set != nil {
		out = append(out, *a.Set)
	}
	if a.Suit != nil {
		out = append(out, *a.Suit)
	}
	if a.Seat != nil {
		out = append(out, *a.Seat)
	}
	if a.Seats != nil {
		out = append(out, *a.Seats)
	}
	if a.Msg != nil {
		out = append(out, *a.Msg)
	}
	if a.Msgs != nil {
		out = append(out, *a.Msgs)
	}
	if a.Nil != nil {
		out = append(out, nil)
	}
	if len(out) != 1 {
		return nil, errUntagged
	}
	return out[0], nil
}
