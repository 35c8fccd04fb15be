package gametest

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// EachVectorFile runs fn in a subtest for every testdata/vectors/*.json of the calling package
// (design §3). Acceptance checks drop their own files there, so a folder without files, or a file
// that cannot be read, fails the test instead of passing it vacuously.
func EachVectorFile(t *testing.T, fn func(t *testing.T, data []byte)) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "vectors", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vector files in testdata/vectors (%v)", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatalf("read vector file: %v", err)
			}
			fn(t, data)
		})
	}
}

// DecodeStrict decodes one JSON object into v, refusing unknown fields (a section a test does
// not know fails rather than being skipped) and trailing data.
func DecodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}
