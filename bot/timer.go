package bot

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/ai"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/store"
)

// scheduler wakes tables up when something is due: an agent's move (an AI seat or an away player,
// AIDelay after the last change) or a human's turn deadline (stored in the record, so it survives
// restarts). One goroutine, one timer, set to the earliest due table.
type scheduler struct {
	mu      sync.Mutex
	due     map[int64]time.Time
	changed map[int64]time.Time // when each table last changed: agents wait AIDelay from there
	wake    chan struct{}
	fire    func(chat int64)
}

func newScheduler(fire func(chat int64)) *scheduler {
	return &scheduler{due: map[int64]time.Time{}, changed: map[int64]time.Time{}, wake: make(chan struct{}, 1), fire: fire}
}

// Set makes chat due at at; the zero time removes it.
func (s *scheduler) Set(chat int64, at time.Time) {
	s.mu.Lock()
	if at.IsZero() {
		delete(s.due, chat)
	} else {
		s.due[chat] = at
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// forget drops a table that ended.
func (s *scheduler) forget(chat int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.due, chat)
	delete(s.changed, chat)
}

// touch notes that chat's table changed at now.
func (s *scheduler) touch(chat int64, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.changed[chat] = now
}

// lastChange is when chat's table last changed, or now if the bot has not seen it change (a
// restart), so agents never move without their delay.
func (s *scheduler) lastChange(chat int64, now time.Time) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.changed[chat]; ok {
		return t
	}
	s.changed[chat] = now
	return now
}

// run fires due tables until ctx is done.
func (s *scheduler) run(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		now := time.Now()
		var next time.Time
		var fire []int64
		s.mu.Lock()
		for chat, at := range s.due {
			if !at.After(now) {
				fire = append(fire, chat)
				delete(s.due, chat)
			} else if next.IsZero() || at.Before(next) {
				next = at
			}
		}
		s.mu.Unlock()
		for _, chat := range fire {
			s.fire(chat)
		}
		wait := time.Hour
		if !next.IsZero() {
			wait = next.Sub(now)
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-timer.C:
		}
	}
}

// fire queues a due table's check behind its other work.
func (b *Bot) fire(chat int64) {
	b.serial.Do(chat, func() { b.tick(b.work, chat) })
}

// tick plays what is due at a table: an agent for an AI or away seat whose delay passed, or the
// agent for a player whose turn timer ran out. One action per tick; the next is scheduled after.
func (b *Bot) tick(ctx context.Context, chat int64) {
	t, err := b.st.Table(ctx, chat)
	if err != nil || !t.Started || !t.Finished.IsZero() {
		return
	}
	st, err := b.state(t)
	if err != nil {
		b.log.Error().Err(err).Msg("timer")
		return
	}
	now := b.now()
	for _, s := range st.ToAct() {
		p := t.Seats[s]
		auto := p.AI || p.Away
		if auto && !now.Before(b.sched.lastChange(chat, now).Add(b.cfg.AIDelay)) {
			b.agentMove(ctx, t, st, s, false)
			return
		}
		if !auto && !t.Deadline.IsZero() && !now.Before(t.Deadline) {
			b.agentMove(ctx, t, st, s, true)
			return
		}
	}
	b.reschedule(t)
}

// agentStream is the randomness of the agent choosing for seat s at the given table version: the
// table's Agent stream, so the agent's choices are reproducible and apart from every deal's.
func agentStream(seed uint64, version int, s games.Seat) *rand.Rand {
	return cards.Stream(seed, cards.Agent, uint64(version)<<8|uint64(uint8(s)))
}

// agentMove lets the game's agent choose for seat s from its View and Legal only, with randomness
// derived from the table's seed and version (reproducible), and applies it through act, the same
// version-checked path a pressed button takes.
func (b *Bot) agentMove(ctx context.Context, t store.Table, st games.State, s games.Seat, timeout bool) {
	legal := st.Legal(s)
	if len(legal) == 0 {
		b.log.Error().Int64("chat", t.Chat).Int("seat", int(s)).Msg("seat to act has no legal action")
		return
	}
	rng := agentStream(t.Seed, t.Version, s)
	a := ai.For(t.Game).Choose(st.View(s), legal, rng)
	res, err := b.act(ctx, t.Chat, t.Version, actor{seat: s, timeout: timeout}, a)
	if err != nil {
		if !errors.Is(err, store.ErrConflict) && !errors.Is(err, errNoTable) {
			b.log.Error().Int64("chat", t.Chat).Err(err).Msg("agent move")
		}
		if cur, err := b.st.Table(ctx, t.Chat); err == nil {
			b.reschedule(cur)
		}
		return
	}
	b.afterAct(ctx, res)
}

// reschedule sets the table's next due time from its committed record.
func (b *Bot) reschedule(t store.Table) {
	if !t.Started || !t.Finished.IsZero() {
		b.sched.Set(t.Chat, time.Time{})
		return
	}
	st, err := b.state(t)
	if err != nil {
		b.log.Error().Err(err).Msg("reschedule")
		return
	}
	now := b.now()
	var due time.Time
	for _, s := range st.ToAct() {
		at := t.Deadline
		if p := t.Seats[s]; p.AI || p.Away {
			at = b.sched.lastChange(t.Chat, now).Add(b.cfg.AIDelay)
		}
		if !at.IsZero() && (due.IsZero() || at.Before(due)) {
			due = at
		}
	}
	if len(st.ToAct()) == 0 {
		return
	}
	b.sched.Set(t.Chat, due)
}

// resume picks up every open table after a start: archives matches that ended before a crash
// could archive them, restarts timers, and re-renders what a crash may have left unsent.
func (b *Bot) resume(ctx context.Context) error {
	tables, err := b.st.Tables(ctx)
	if err != nil {
		return err
	}
	for _, t := range tables {
		if !t.Started {
			b.tableLater(t) // a lobby whose message a crash may have left unsent
			continue
		}
		st, err := b.state(t)
		if err != nil {
			b.log.Error().Err(err).Msg("resume")
			continue
		}
		if !t.Finished.IsZero() || len(st.ToAct()) == 0 {
			b.finish(ctx, t, st)
			b.renderAll(t)
			continue
		}
		b.renderAll(t)
		b.reschedule(t)
	}
	return nil
}
