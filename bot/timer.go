package bot

import (
	"container/heap"
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/ai"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/store"
)

// scheduler wakes tables up when something is due: an agent's move (an AI seat or an away player,
// AIDelay after the table's last change) or a human's turn deadline (stored in the record, so it
// survives restarts). One goroutine and one timer, set to the earliest due time of a heap.
type scheduler struct {
	mu   sync.Mutex
	due  map[store.TableID]time.Time
	heap dueHeap
	wake chan struct{}
	fire func(id store.TableID)
}

func newScheduler(fire func(store.TableID)) *scheduler {
	return &scheduler{due: map[store.TableID]time.Time{}, wake: make(chan struct{}, 1), fire: fire}
}

// Set makes table id due at at; the zero time removes it.
func (s *scheduler) Set(id store.TableID, at time.Time) {
	s.mu.Lock()
	if at.IsZero() {
		delete(s.due, id)
	} else if cur, ok := s.due[id]; !ok || !cur.Equal(at) {
		s.due[id] = at
		heap.Push(&s.heap, dueAt{id, at})
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// run fires due tables until ctx is done.
func (s *scheduler) run(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		now := time.Now()
		var fire []store.TableID
		wait := time.Hour
		s.mu.Lock()
		for s.heap.Len() > 0 {
			top := s.heap[0]
			if at, ok := s.due[top.id]; !ok || !at.Equal(top.at) {
				heap.Pop(&s.heap) // replaced or removed since it was pushed
				continue
			}
			if top.at.After(now) {
				wait = top.at.Sub(now)
				break
			}
			heap.Pop(&s.heap)
			delete(s.due, top.id)
			fire = append(fire, top.id)
		}
		s.mu.Unlock()
		for _, id := range fire {
			s.fire(id)
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

type dueAt struct {
	id store.TableID
	at time.Time
}

// dueHeap orders due times, earliest first (container/heap).
type dueHeap []dueAt

func (h dueHeap) Len() int           { return len(h) }
func (h dueHeap) Less(i, j int) bool { return h[i].at.Before(h[j].at) }
func (h dueHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *dueHeap) Push(x any)        { *h = append(*h, x.(dueAt)) }
func (h *dueHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

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
		if auto && !now.Before(m.changed().Add(b.cfg.AIDelay)) {
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
	rng := agentStream(snap.Rec.Seed, snap.Rec.Version, s)
	a := b.agent(snap.Rec.Game).Choose(st.View(s), legal, rng)
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

// agent is the computer player of a game: its Rules' own, else the one games/ai still holds.
func (b *Bot) agent(game string) games.Agent {
	if r, ok := b.rules[game].(games.AgentRules); ok {
		return r.Agent()
	}
	return ai.For(game)
}

// changed is when the table last changed: agents wait AIDelay from there.
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
			at = m.changed().Add(b.cfg.AIDelay)
		}
		if !at.IsZero() && (due.IsZero() || at.Before(due)) {
			due = at
		}
	}
	b.sched.Set(snap.Rec.ID, due)
}
