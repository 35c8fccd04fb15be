package store

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// LastMatchAt walks the chat's archive from its newest match back to the newest one played at p:
// in a forum group each topic has its own last match, and a chat keeps at most the archive's
// keep limit of them, so the walk is short.
func (t *boltTx) LastMatchAt(p Place) (Match, error) {
	prefix := u64(uint64(p.Chat))
	c := t.bucket(bucketArchive).Cursor()
	k, v := c.Seek(append(bytes.Clone(prefix), bytes.Repeat([]byte{0xff}, 16)...))
	if k == nil || !bytes.HasPrefix(k, prefix) {
		k, v = c.Prev()
	}
	for ; k != nil && bytes.HasPrefix(k, prefix); k, v = c.Prev() {
		var at struct {
			Place Place `json:"place"`
		}
		if err := json.Unmarshal(v, &at); err != nil {
			return Match{}, fmt.Errorf("store: decode archive %x: %w", k, err)
		}
		if at.Place != p {
			continue
		}
		var m Match
		if err := json.Unmarshal(v, &m); err != nil {
			return Match{}, fmt.Errorf("store: decode archive %x: %w", k, err)
		}
		return m, nil
	}
	return Match{}, fmt.Errorf("store: last match at %d/%d: %w", p.Chat, p.Topic, ErrNotFound)
}
