package jokerbank

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// edit changes the fields of the wire w points to: each three bytes of edits pick a value
// (number, flag, card, card set, name, or list) and how to change it, so the result is still the
// canonical encoding of something, only perhaps not of a state the engine can reach.
func edit(w any, edits []byte, names []string) {
	var leaves []reflect.Value
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice:
			leaves = append(leaves, v)
			for i := range v.Len() {
				walk(v.Index(i))
			}
		default:
			leaves = append(leaves, v)
		}
	}
	walk(reflect.ValueOf(w).Elem())
	for ; len(edits) >= 3; edits = edits[3:] {
		v, op, b := leaves[int(edits[0])%len(leaves)], edits[1], edits[2]
		switch {
		case v.Kind() == reflect.Bool:
			v.SetBool(!v.Bool())
		case v.Type() == reflect.TypeFor[cards.Set]():
			v.Set(reflect.ValueOf(v.Interface().(cards.Set) ^ 1<<(b%62)))
		case v.Type() == reflect.TypeFor[cards.Card]():
			v.SetUint(uint64(1 + b%62))
		case v.CanInt():
			v.SetInt(v.Int() + int64(int8(b)%4))
		case v.CanUint():
			v.SetUint(v.Uint() ^ uint64(b))
		case v.Kind() == reflect.String:
			v.SetString(names[int(b)%len(names)])
		case v.Kind() == reflect.Slice && v.Len() > 0 && op%3 == 0:
			v.Set(v.Slice(0, v.Len()-1))
		case v.Kind() == reflect.Slice && v.Len() > 0 && op%3 == 1:
			v.Set(reflect.Append(v, v.Index(int(b)%v.Len())))
		case v.Kind() == reflect.Slice && v.Len() > 1:
			i, j := int(b)%v.Len(), int(op)%v.Len()
			x, y := v.Index(i).Interface(), v.Index(j).Interface()
			v.Index(i).Set(reflect.ValueOf(y))
			v.Index(j).Set(reflect.ValueOf(x))
		}
	}
}

// FuzzUnmarshalEdits edits the fields of real states' encodings, which byte-level fuzzing
// rarely keeps valid JSON: what Unmarshal accepts must obey CheckUnmarshalStrict, and so must the
// state that playing on from it reaches.
func FuzzUnmarshalEdits(f *testing.F) {
	for i := range uint8(8) {
		f.Add(uint64(i), i, 3*i, uint16(5*i), []byte{i, i, i, 3 * i, 2 * i, i})
	}
	f.Fuzz(func(t *testing.T, seed uint64, players, opts uint8, steps uint16, edits []byte) {
		b, err := fuzzState(t, seed, players, opts, int(steps%200)).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var w wire
		if err := json.Unmarshal(b, &w); err != nil {
			t.Fatal(err)
		}
		edit(&w, edits, nil)
		if b, err = json.Marshal(w); err != nil {
			t.Fatal(err)
		}
		gametest.CheckUnmarshalStrict(t, Rules(), b)
		st, err := Rules().Unmarshal(b)
		if err != nil {
			return
		}
		// Play on for a while: whatever the engine makes of an accepted state it accepts again.
		if st, err = gametest.RandomSteps(st, rand.New(rand.NewPCG(seed, 9)), 100); err != nil {
			t.Fatalf("playing on from an accepted state: %v", err)
		}
		if b, err = st.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
		gametest.CheckUnmarshalStrict(t, Rules(), b)
	})
}
