package bot

import (
	"strings"
	"sync"
	"time"

	"github.com/kozyr-bot/kozyr/games"
)

// memo is what the bot remembers between updates without persisting it: losing it on a restart
// costs at most a redundant edit, a stale keyboard (fixed on its first press) or the "last move"
// line of the table message.
type memo struct {
	mu       sync.Mutex
	contents map[msgRef]string   // what each message shows now, to skip edits that change nothing
	strips   map[int64][]int     // per DM chat: old hand messages whose keyboards must go
	moves    map[int64]lastMove  // per table chat: the events of the last committed action
	hands    map[seatRef]int     // the newest hand message sent to a user for a table
	fresh    map[seatRef]bool    // /hand asked for a new hand message
	warned   map[seatRef]bool    // the deep link for a closed DM was already posted
	pages    map[seatRef]pageRef // the page a player turned their hand keyboard to
}

type msgRef struct {
	chat int64
	msg  int
}

type seatRef struct {
	chat int64
	user int64
}

// lastMove is what the latest accepted action of a table produced.
type lastMove struct {
	created time.Time
	version int
	events  []games.Event
	timeout games.Seat // the seat the agent played for because its timer ran out, or Nobody
}

// maxContents bounds the edit cache; dropping it only costs redundant edits.
const maxContents = 20000

func newMemo() *memo {
	return &memo{
		contents: map[msgRef]string{},
		strips:   map[int64][]int{},
		moves:    map[int64]lastMove{},
		hands:    map[seatRef]int{},
		fresh:    map[seatRef]bool{},
		warned:   map[seatRef]bool{},
		pages:    map[seatRef]pageRef{},
	}
}

func (m *memo) sent(chat int64, msg int, c content) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.contents) >= maxContents {
		clear(m.contents)
	}
	m.contents[msgRef{chat, msg}] = c.key()
}

func (m *memo) same(chat int64, msg int, c content) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	k, ok := m.contents[msgRef{chat, msg}]
	return ok && k == c.key()
}

// noButtons reports whether the message is known to show no keyboard.
func (m *memo) noButtons(chat int64, msg int) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	k, ok := m.contents[msgRef{chat, msg}]
	return ok && (strings.HasSuffix(k, "\x00null") || strings.HasSuffix(k, "\x00[]"))
}

func (m *memo) hasStrip(chat int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.strips[chat]) > 0
}

func (m *memo) forget(chat int64, msg int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.contents, msgRef{chat, msg})
}

func (m *memo) addStrip(chat int64, msg int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.strips[chat] = append(m.strips[chat], msg)
}

func (m *memo) popStrip(chat int64) (int, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.strips[chat]
	if len(s) == 0 {
		return 0, false
	}
	if len(s) == 1 {
		delete(m.strips, chat)
	} else {
		m.strips[chat] = s[1:]
	}
	return s[0], true
}

func (m *memo) setMove(chat int64, mv lastMove) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.moves[chat] = mv
}

// move returns what the action that produced version of the table created at created did.
func (m *memo) move(chat int64, created time.Time, version int) (lastMove, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	mv, ok := m.moves[chat]
	if !ok || !mv.created.Equal(created) || mv.version != version {
		return lastMove{}, false
	}
	return mv, true
}

func (m *memo) dropTable(chat int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.moves, chat)
	for k := range m.fresh {
		if k.chat == chat {
			delete(m.fresh, k)
		}
	}
	for k := range m.hands {
		if k.chat == chat {
			delete(m.hands, k)
		}
	}
	for k := range m.warned {
		if k.chat == chat {
			delete(m.warned, k)
		}
	}
	for k := range m.pages {
		if k.chat == chat {
			delete(m.pages, k)
		}
	}
}

func (m *memo) setFresh(chat, user int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.fresh[seatRef{chat, user}] = true
}

func (m *memo) takeFresh(chat, user int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := seatRef{chat, user}
	f := m.fresh[k]
	delete(m.fresh, k)
	return f
}

// warnOnce reports whether the deep link for user's closed DM at chat's table is yet to be posted.
func (m *memo) warnOnce(chat, user int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := seatRef{chat, user}
	if m.warned[k] {
		return false
	}
	m.warned[k] = true
	return true
}

func (m *memo) clearWarn(chat, user int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.warned, seatRef{chat, user})
}

// setHand notes the newest hand message of user at chat's table. It is known here before the
// record has it, so a render racing with that write still edits the right message.
func (m *memo) setHand(chat, user int64, msg int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.hands[seatRef{chat, user}] = msg
}

// hand is the newer of the recorded hand message and the one the memo knows (message ids grow).
func (m *memo) hand(chat, user int64, recorded int) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return max(recorded, m.hands[seatRef{chat, user}])
}
