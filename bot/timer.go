package bot

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/search"
	"github.com/kozyr-bot/kozyr/store"
)

// fire queues a due table's check behind its other work.
func (b *Bot) fire(id store.TableID) {
	m := b.mem(id)
	if m == nil {
		return
	}
	m.mu.Lock()
	key := queueKey{chat: m.place.Chat, topic: m.place.Topic}
	m.mu.Unlock()
	if !b.queue.Do(key, func() { b.tick(b.work, m) }) {
		b.sched.Set(id, time.Now().Add(time.Second)) // the queue is full: look again soon
	}
}

// tick plays what is due at a table: an agent for an AI or away seat whose delay passed, or the
// agent for a player whose turn timer ran out. One action per tick; the next is scheduled after.
func (b *Bot) tick(ctx context.Context, m *tableMem) {
	snap := m.current()
	if snap == nil || !snap.Rec.Started || snap.Rec.Ending() {
		return
	}
	now := b.now()
	for _, s := range snap.State.ToAct() {
		p := snap.Rec.Seats[s]
		auto := p.AI || p.Away
		if auto && !now.Before(m.changed().Add(b.aiDelay(snap.Rec))) {
			b.agentMove(ctx, m, snap, s, false)
			return
		}
		if !auto && !snap.Rec.Deadline.IsZero() && !now.Before(snap.Rec.Deadline) {
			b.agentMove(ctx, m, snap, s, true)
			return
		}
	}
	b.reschedule(m, snap)
}

// agentStream is the randomness of the agent choosing for seat s at the given table version: the
// table's Agent stream, so the agent's choices are reproducible and apart from every deal's.
func agentStream(seed uint64, version int, s games.Seat) *rand.Rand {
	return cards.Stream(seed, cards.Agent, uint64(version)<<8|uint64(uint8(s)))
}

// agentMove lets the game's agent choose for seat s from its View and Legal only, with randomness
// derived from the table's seed and version (reproducible), outside any transaction, and applies
// it through act, the same version-checked path a pressed button takes.
func (b *Bot) agentMove(ctx context.Context, m *tableMem, snap *render.Snapshot, s games.Seat, timeout bool) {
	st := snap.State
	legal := st.Legal(s)
	if len(legal) == 0 {
		b.log.Error().Uint64("table", uint64(snap.Rec.ID)).Int("seat", int(s)).Msg("seat to act has no legal action")
		return
	}
	select {
	case b.thinking <- struct{}{}:
	case <-ctx.Done():
		return
	}
	a := agentChoice(b.rules[snap.Rec.Game], render.TableLevel(snap.Rec, b.cfg.Level), st, s, snap.Rec.Version, snap.Rec.Seed)
	<-b.thinking
	next, rows, err := b.act(ctx, 0, snap.Rec.ID, snap.Rec.Version, actor{seat: s, timeout: timeout}, a)
	if err != nil {
		if !errors.Is(err, errStale) && !errors.Is(err, errNoTable) {
			b.log.Error().Uint64("table", uint64(snap.Rec.ID)).Err(err).Msg("agent move")
		}
		if cur := m.current(); cur != nil {
			b.reschedule(m, cur)
		}
		return
	}
	b.shown(next, rows)
}

// agentChoice is what the game's computer player at level l does for seat s at this version of a
// table: it knows only what the seat knows (search.Decide reads nothing else of the state), and
// draws from the table's Agent stream, so the same table replays the same choices.
func agentChoice(r games.Rules, l search.Level, st games.State, s games.Seat, version int, seed uint64) games.Action {
	return search.Decide(r, l, st, s, agentStream(seed, version, s))
}

// changed is when the table last changed: agents wait the table's AI delay from there.
func (m *tableMem) changed() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.changedAt.IsZero() {
		m.changedAt = time.Now()
	}
	return m.changedAt
}

// touch notes that the table changed now.
func (m *tableMem) touch() {
	m.mu.Lock()
	m.changedAt = time.Now()
	m.mu.Unlock()
}

// reschedule sets the table's next due time from its committed snapshot.
func (b *Bot) reschedule(m *tableMem, snap *render.Snapshot) {
	if !snap.Rec.Started || snap.Rec.Ending() {
		b.sched.Set(snap.Rec.ID, time.Time{})
		return
	}
	var due time.Time
	toAct := snap.State.ToAct()
	for _, s := range toAct {
		at := snap.Rec.Deadline
		if p := snap.Rec.Seats[s]; p.AI || p.Away {
			at = m.changed().Add(b.aiDelay(snap.Rec))
		}
		if !at.IsZero() && (due.IsZero() || at.Before(due)) {
			due = at
		}
	}
	b.sched.Set(snap.Rec.ID, due)
}

// turnTimeout is how long a player of table rec may think before the agent plays for them (0:
// for ever): the table's own, else the bot's.
func (b *Bot) turnTimeout(rec store.Table) time.Duration {
	if rec.TurnTimeout != nil {
		return *rec.TurnTimeout
	}
	return b.cfg.TurnTimeout
}

// aiDelay is how long the computer players of table rec pause before a move.
func (b *Bot) aiDelay(rec store.Table) time.Duration {
	if rec.AIDelay != nil {
		return *rec.AIDelay
	}
	return b.cfg.AIDelay
}
