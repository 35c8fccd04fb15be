package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/store"
)

// Errors of the apply path; each has its own callback answer.
var (
	errNoTable   = errors.New("no running table")
	errNotPlayer = errors.New("not seated at this table")
	errUnchanged = errors.New("nothing to change") // aborts an update that would write nothing
)

// maxTimeouts is how many turn timeouts in a row make a seat away (issue 3).
const maxTimeouts = 3

// actor is who acts: a user pressing a button, or the agent for a seat (an AI seat, an away
// player, or a player whose turn timer ran out).
type actor struct {
	user    int64 // 0: the agent
	seat    games.Seat
	timeout bool // the agent acts because the turn timer expired
}

// acted is one committed action: the record as committed, the new state and its events.
type acted struct {
	t      store.Table
	st     games.State
	events []games.Event
	seat   games.Seat
	who    actor
}

// act is the one path every action takes, human or agent: one store transaction that loads the
// record, checks it (table, version, seat, turn, legality — design §5 order), applies the action,
// appends it to the log and saves the new state with Version+1 and the next deadline. Nothing is
// sent before it returns.
func (b *Bot) act(ctx context.Context, chat int64, version int, who actor, a games.Action) (acted, error) {
	var res acted
	now := b.now()
	err := b.st.UpdateTable(ctx, chat, func(t *store.Table, ok bool) error {
		if !ok || !t.Started || !t.Finished.IsZero() {
			return errNoTable
		}
		if t.Version != version && !pressStillValid(*t, who, version) {
			return store.ErrConflict
		}
		seat := who.seat
		if who.user != 0 {
			if seat = seatOf(*t, who.user); seat < 0 {
				return errNotPlayer
			}
		}
		r, ok := b.rules[t.Game]
		if !ok {
			return fmt.Errorf("table of unknown game %q", t.Game)
		}
		st, err := r.Unmarshal(t.State)
		if err != nil {
			return fmt.Errorf("unmarshal %s state v%d: %w", t.Game, t.Version, err)
		}
		toAct := st.ToAct()
		if !slices.Contains(toAct, seat) {
			return games.ErrNotYourTurn
		}
		if !slices.Contains(st.Legal(seat), a) {
			return games.ErrIllegal
		}
		ns, evs, err := st.Apply(seat, a)
		if err != nil {
			return fmt.Errorf("apply %s by seat %d: %w", a, seat, err)
		}
		data, err := ns.MarshalBinary()
		if err != nil {
			return fmt.Errorf("marshal %s state: %w", t.Game, err)
		}
		t.Log = append(t.Log, fmt.Sprintf("%d:%s", seat, a))
		t.State = data
		t.Version++
		p := &t.Seats[seat]
		switch {
		case who.user != 0:
			p.Timeouts, p.Away = 0, false
		case who.timeout:
			p.Timeouts++
			if p.Timeouts >= maxTimeouts {
				p.Away = true
			}
		}
		b.stamp(t, toAct, ns, now)
		res = acted{st: ns, events: evs, seat: seat, who: who}
		res.t = *t
		return nil
	})
	if err != nil {
		return acted{}, err
	}
	return res, nil
}

// pressStillValid reports whether a person's button drawn at an older version may still count:
// when several seats act at once (stakes placed together), the others' moves raise the Version
// under a player who has not moved yet, and their buttons must not go stale for that. A press is
// still valid when its seat has taken no action since the button was drawn; whether the action
// is still its turn and legal is checked next, as for any press. A double press is stale because
// the first press is in the log.
func pressStillValid(t store.Table, who actor, version int) bool {
	if who.user == 0 || version < 0 || version > t.Version || version > len(t.Log) {
		return false
	}
	seat := seatOf(t, who.user)
	if seat < 0 {
		return false
	}
	prefix := strconv.Itoa(int(seat)) + ":"
	for _, entry := range t.Log[version:] {
		if strings.HasPrefix(entry, prefix) {
			return false
		}
	}
	return true
}

// stamp records transport bookkeeping that follows a new state in the same transaction: when each
// seat's turn began (so its hand message is sent fresh once), the turn deadline, the end.
func (b *Bot) stamp(t *store.Table, before []games.Seat, st games.State, now time.Time) {
	toAct := st.ToAct()
	if t.Extra == nil {
		t.Extra = map[string]string{}
	}
	for s := range t.Seats {
		seat := games.Seat(s)
		switch {
		case !slices.Contains(toAct, seat):
			delete(t.Extra, turnKey(seat))
		case before == nil || !slices.Contains(before, seat):
			t.Extra[turnKey(seat)] = strconv.Itoa(t.Version)
		}
	}
	// The turn timer restarts when a seat starts to act; while the same seats (or some of them)
	// are still deciding — simultaneous stakes, two discards in a row — their deadline stands.
	same := before != nil && !t.Deadline.IsZero() &&
		!slices.ContainsFunc(toAct, func(s games.Seat) bool { return !slices.Contains(before, s) })
	if !same {
		t.Deadline = time.Time{}
		if b.cfg.TurnTimeout > 0 {
			for _, s := range toAct {
				if p := t.Seats[s]; !p.AI && !p.Away {
					t.Deadline = now.Add(b.cfg.TurnTimeout)
					break
				}
			}
		}
	}
	if len(toAct) == 0 {
		t.Finished = now
		t.Deadline = time.Time{}
	}
}

func turnKey(s games.Seat) string { return "turn." + strconv.Itoa(int(s)) }
func sentKey(s games.Seat) string { return "sent." + strconv.Itoa(int(s)) }

// extraInt reads a number the bot keeps in Table.Extra; -1 when absent.
func extraInt(t store.Table, key string) int {
	v, ok := t.Extra[key]
	if !ok {
		return -1
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return -1
	}
	return n
}

// seatOf is the seat of a user at a table, or Nobody.
func seatOf(t store.Table, user int64) games.Seat {
	if user == 0 {
		return games.Nobody
	}
	for i, p := range t.Seats {
		if p.UserID == user {
			return games.Seat(i)
		}
	}
	return games.Nobody
}

// afterAct shows a committed action: the table message, the hands, deal and match results; it
// archives a finished match and sets the next timer.
func (b *Bot) afterAct(ctx context.Context, res acted) {
	t := res.t
	b.memo.setMove(t.Chat, lastMove{created: t.Created, version: t.Version, events: res.events, timeout: timeoutSeat(res)})
	b.sched.touch(t.Chat, b.now())
	if !t.Finished.IsZero() {
		b.finish(ctx, t, res.st)
	}
	b.renderAll(t)
	b.postEvents(ctx, t, res.st, res.events)
	b.reschedule(t)
}

func timeoutSeat(res acted) games.Seat {
	if res.who.timeout {
		return res.seat
	}
	return games.Nobody
}

// finish archives a finished match and adds it to every seated user's stats (matches, wins, the
// sum of the sheet's Totals, which a games.Rater turns into an overall rating), in one store
// transaction.
func (b *Bot) finish(ctx context.Context, t store.Table, st games.State) {
	sh := st.Score()
	err := b.st.Finish(ctx, t.Chat, func(t store.Table, u *store.User) {
		for i, p := range t.Seats {
			if p.AI || p.UserID != u.ID {
				continue
			}
			if u.Stats == nil {
				u.Stats = map[string]store.Stat{}
			}
			s := u.Stats[t.Game]
			s.Played++
			if slices.Contains(sh.Winners, games.Seat(i)) {
				s.Won++
			}
			if i < len(sh.Totals) {
				s.Points += sh.Totals[i]
			}
			u.Stats[t.Game] = s
		}
	})
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		b.log.Error().Int64("chat", t.Chat).Err(err).Msg("archive finished match")
	}
	b.sched.forget(t.Chat)
}
