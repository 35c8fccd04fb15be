package store

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

// TestLastMatchAt: each forum topic has its own last match; the General topic (0) too, and a
// place without one is ErrNotFound even when the chat has matches elsewhere.
func TestLastMatchAt(t *testing.T) {
	s, _ := openTemp(t)
	matches := []Match{
		{Table: 1, Place: Place{Chat: -5}, Finished: t0},
		{Table: 2, Place: Place{Chat: -5, Topic: 7}, Finished: t0.Add(time.Minute)},
		{Table: 3, Place: Place{Chat: -5, Topic: 9}, Finished: t0.Add(2 * time.Minute)},
		{Table: 4, Place: Place{Chat: -5, Topic: 7}, Finished: t0.Add(3 * time.Minute)},
		{Table: 5, Place: Place{Chat: -6, Topic: 7}, Finished: t0.Add(4 * time.Minute)},
	}
	update(t, s, func(tx Tx) error {
		for _, m := range matches {
			if _, err := tx.Archive(m); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, s, func(tx Tx) error {
		for _, c := range []struct {
			at   Place
			want TableID // 0: none
		}{
			{Place{Chat: -5}, 1},
			{Place{Chat: -5, Topic: 7}, 4},
			{Place{Chat: -5, Topic: 9}, 3},
			{Place{Chat: -5, Topic: 8}, 0},
			{Place{Chat: -6, Topic: 7}, 5},
			{Place{Chat: -6}, 0},
			{Place{Chat: -7}, 0},
		} {
			m, err := tx.LastMatchAt(c.at)
			switch {
			case c.want == 0 && !errors.Is(err, ErrNotFound):
				t.Errorf("LastMatchAt(%+v) = %d, %v; want ErrNotFound", c.at, m.Table, err)
			case c.want != 0 && (err != nil || m.Table != c.want || m.Place != c.at):
				t.Errorf("LastMatchAt(%+v) = %d at %+v, %v; want %d", c.at, m.Table, m.Place, err, c.want)
			}
		}
		return nil
	})
}

// TestChatSettings: a group's settings come back as stored, the zero value included, and move
// with the chat when a group becomes a supergroup.
func TestChatSettings(t *testing.T) {
	s, _ := openTemp(t)
	set := Settings{Version: 3, Options: map[string]map[string]string{"wizard": {"short_game": "5"}},
		Level: "strong", TurnTimeout: ptr(time.Duration(0)), AIDelay: ptr(time.Second)}
	update(t, s, func(tx Tx) error {
		if err := tx.PutChat(Chat{ID: -1, Lang: "ru", Settings: set}); err != nil {
			return err
		}
		return tx.PutChat(Chat{ID: -2})
	})
	view(t, s, func(tx Tx) error {
		if c, err := tx.Chat(-1); err != nil || !reflect.DeepEqual(c.Settings, set) || c.Lang != "ru" {
			t.Errorf("Chat(-1) = %+v, %v", c, err)
		}
		if c, err := tx.Chat(-2); err != nil || !reflect.DeepEqual(c.Settings, Settings{}) {
			t.Errorf("Chat(-2) = %+v, %v", c, err)
		}
		return nil
	})
	update(t, s, func(tx Tx) error { return tx.MoveChat(-1, -100) })
	view(t, s, func(tx Tx) error {
		if c, err := tx.Chat(-100); err != nil || !reflect.DeepEqual(c.Settings, set) {
			t.Errorf("moved chat = %+v, %v", c, err)
		}
		return nil
	})
}
