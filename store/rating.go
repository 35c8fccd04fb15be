package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
)

// The Elo ratings of README "Ratings": one per user and game, moved by every finished match.
const (
	// RatingStart is the rating of a user's first rated match in a game.
	RatingStart = 1500.0
	// RatingK is the Elo factor of a whole match. Each of a seat's n−1 pairwise games counts
	// K/(n−1), so one match moves a rating by at most K whatever the size of the table.
	RatingK = 32.0
)

// Current is the rating the user plays their next match of the game at: RatingStart while unrated.
func (s Stat) Current() float64 {
	if s.Rated == 0 {
		return RatingStart
	}
	return s.Rating
}

// Places ranks the n seats of a finished match from its final sheet, 1 for the best; equal seats
// share a place and the next is skipped (1, 1, 3). The sheet's Winners share first place (that is
// the game's own verdict: Joker's match is won by parties, Magister breaks equal results by
// banks); the others follow by their Totals, the highest first, as every game of kozyr ranks
// them; equal totals share a place.
func Places(sh games.Sheet, n int) []int {
	totals := make([]int, n)
	copy(totals, sh.Totals)
	won := make([]bool, n)
	for _, s := range sh.Winners {
		if s >= 0 && int(s) < n {
			won[s] = true
		}
	}
	better := func(a, b int) bool {
		if won[a] != won[b] {
			return won[a]
		}
		return !won[a] && totals[a] > totals[b]
	}
	places := make([]int, n)
	for i := range n {
		places[i] = 1
		for j := range n {
			if better(j, i) {
				places[i]++
			}
		}
	}
	return places
}

// Elo is the rating of every seat after one match, from the ratings before it and the places the
// seats finished in: each pair of seats is one game that the better placed wins (1 : 0), equal
// places draw (½ : ½), and a seat's rating moves by k/(n−1) times the sum over its n−1 opponents
// of its score minus its expected score 1/(1+10^((R_opponent−R_seat)/400)). All seats are
// rated from the ratings before the match, so the order of the seats does not matter.
func Elo(before []float64, places []int, k float64) []float64 {
	n := len(before)
	after := slices.Clone(before)
	if n < 2 || len(places) != n {
		return after
	}
	per := k / float64(n-1)
	for i := range n {
		sum := 0.0
		for j := range n {
			if i == j {
				continue
			}
			score := 0.5
			switch {
			case places[i] < places[j]:
				score = 1
			case places[i] > places[j]:
				score = 0
			}
			sum += score - 1/(1+math.Pow(10, (before[j]-before[i])/400))
		}
		after[i] = before[i] + per*sum
	}
	return after
}

// RateMatch rates the people of a finished match in its game, in the transaction that archives
// it: each user seat is listed among the players of the match's chat (AddChatPlayer), and when
// the match has its final sheet every user's rating moves by Elo from the places of Places, their
// Rated count grows by one and their name becomes the one they sat down under (the leaderboard
// shows it). Computer seats are opponents at the fixed rating ai and are never rated themselves.
// A match without a sheet (archived by schema 1) only lists its players.
func RateMatch(tx Tx, m Match, ai float64) error {
	first := map[int64]int{} // the seat each user is rated at: their first
	users := map[int64]User{}
	for i, p := range m.Seats {
		if !person(p) {
			continue
		}
		if err := tx.AddChatPlayer(m.Place.Chat, m.Game, p.UserID); err != nil {
			return err
		}
		if _, ok := first[p.UserID]; ok {
			continue
		}
		u, err := tx.User(p.UserID)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return fmt.Errorf("store: rate table %d: %w", m.Table, err)
		}
		first[p.UserID], users[p.UserID] = i, u
	}
	n := len(m.Seats)
	if m.Sheet == nil || n < 2 {
		return nil
	}
	before := make([]float64, n)
	for i, p := range m.Seats {
		before[i] = ai
		if person(p) {
			before[i] = users[p.UserID].Stats[m.Game].Current()
		}
	}
	after := Elo(before, Places(*m.Sheet, n), RatingK)
	for i, p := range m.Seats {
		if !person(p) || first[p.UserID] != i {
			continue
		}
		u := users[p.UserID]
		if u.Stats == nil {
			u.Stats = map[string]Stat{}
		}
		s := u.Stats[m.Game]
		s.Rating, s.Rated = after[i], s.Rated+1
		u.Stats[m.Game] = s
		if p.Name != "" {
			u.Name = p.Name
		}
		if err := tx.PutUser(u); err != nil {
			return err
		}
	}
	return nil
}

// person reports whether an archived seat was a user's (and not a computer player's).
func person(p MatchSeat) bool { return !p.AI && p.UserID != 0 }

// playersPrefix is the key prefix of the players of game in chat.
func playersPrefix(chat int64, game string) []byte {
	return append(append(u64(uint64(chat)), game...), 0)
}

func (t *boltTx) AddChatPlayer(chat int64, game string, user int64) error {
	k := binary.BigEndian.AppendUint64(playersPrefix(chat, game), uint64(user))
	b := t.bucket(bucketPlayers)
	if b.Get(k) != nil {
		return nil
	}
	if err := t.putRaw(b, k, []byte{}); err != nil {
		return fmt.Errorf("store: list player %d of %s in %d: %w", user, game, chat, err)
	}
	return nil
}

func (t *boltTx) ChatPlayers(chat int64, game string) ([]int64, error) {
	var out []int64
	prefix := playersPrefix(chat, game)
	c := t.bucket(bucketPlayers).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if len(k) != len(prefix)+8 {
			return nil, fmt.Errorf("store: players of %s in %d: corrupt key %x", game, chat, k)
		}
		out = append(out, int64(binary.BigEndian.Uint64(k[len(prefix):])))
	}
	return out, nil
}

// movePlayers moves the players index of chat from to chat to; it reports whether there was any.
func (t *boltTx) movePlayers(from, to int64) (bool, error) {
	b := t.bucket(bucketPlayers)
	prefix := u64(uint64(from))
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	for _, k := range keys {
		if err := t.putRaw(b, append(u64(uint64(to)), k[8:]...), []byte{}); err != nil {
			return false, err
		}
		if err := t.del(b, k); err != nil {
			return false, err
		}
	}
	return len(keys) > 0, nil
}
