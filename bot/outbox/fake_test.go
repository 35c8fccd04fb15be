package outbox_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	tg "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/kozyr-bot/kozyr/bot/outbox"
	"github.com/kozyr-bot/kozyr/internal/tgtest"
)

// TestAgainstFake drives the real go-telegram client through the Outbox against the strict fake,
// with random 429/5xx faults: every message arrives with its latest edit, and the fake never
// sees a limit exceeded.
func TestAgainstFake(t *testing.T) {
	const scale = 50
	s := tgtest.New(tgtest.Options{RateScale: scale, Faults: 0.2, Seed: 3})
	t.Cleanup(s.Close)
	b, err := tg.New(s.Token(), tg.WithServerURL(s.URL()), tg.WithSkipGetMe())
	if err != nil {
		t.Fatal(err)
	}
	l := outbox.DefaultLimits()
	l.Scale = scale
	o := outbox.New(l, zerolog.Nop())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go o.Run(ctx)

	groups := []int64{-11, -12, -13}
	users := []tgtest.User{{ID: 21, FirstName: "A"}, {ID: 22, FirstName: "B"}}
	for _, g := range groups {
		s.AddGroup(g, "g")
	}
	for _, u := range users {
		s.StartDM(u, "")
	}
	chats := append(append([]int64{}, groups...), 21, 22)

	var mu sync.Mutex
	var failures []error
	ids := map[int64]int{}
	fail := func(err error) {
		if err != nil {
			mu.Lock()
			failures = append(failures, err)
			mu.Unlock()
		}
	}
	// One table message per chat, then many edits of it (coalesced) and a few new messages.
	for _, c := range chats {
		c := c
		o.Submit(outbox.Job{Chat: c, Call: func(ctx context.Context) error {
			m, err := b.SendMessage(ctx, &tg.SendMessageParams{ChatID: c, Text: "<b>table</b> 0", ParseMode: models.ParseModeHTML})
			if err == nil {
				mu.Lock()
				ids[c] = m.ID
				mu.Unlock()
			}
			return err
		}, Done: fail})
	}
	for i := 1; i <= 30; i++ {
		for _, c := range chats {
			c, i := c, i
			o.Submit(outbox.Job{Chat: c, Coalesce: "table", Call: func(ctx context.Context) error {
				mu.Lock()
				id := ids[c]
				mu.Unlock()
				_, err := b.EditMessageText(ctx, &tg.EditMessageTextParams{ChatID: c, MessageID: id,
					Text: fmt.Sprintf("<b>table</b> %d", i), ParseMode: models.ParseModeHTML})
				return err
			}, Done: fail})
			if i%6 == 0 {
				o.Submit(outbox.Job{Chat: c, Call: func(ctx context.Context) error {
					_, err := b.SendMessage(ctx, &tg.SendMessageParams{ChatID: c, Text: fmt.Sprintf("deal %d", i/6)})
					return err
				}, Done: fail})
			}
		}
	}
	fctx, fcancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer fcancel()
	if err := o.Flush(fctx); err != nil {
		t.Fatal(err)
	}
	if len(failures) > 0 {
		t.Fatalf("failed jobs: %v", failures)
	}
	if v := s.Violations(); len(v) > 0 {
		t.Fatalf("violations: %q", v)
	}
	injected := 0
	for _, c := range s.Calls() {
		if c.Injected {
			injected++
		}
	}
	if injected == 0 {
		t.Error("no faults were injected")
	}
	for _, c := range chats {
		ms := s.Messages(c)
		if len(ms) != 6 || ms[0].Plain != "table 30" || ms[5].Plain != "deal 5" {
			t.Errorf("chat %d: %+v", c, ms)
		}
	}
}
