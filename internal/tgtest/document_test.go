package tgtest

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	tg "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// TestSendDocumentThroughClient: a file the client uploads arrives whole, with its name and
// caption, and Documents reads it back.
func TestSendDocumentThroughClient(t *testing.T) {
	s, b, _ := start(t, Options{})
	s.AddGroup(-100, "g")
	data := []byte(`{"format":1}` + "\n")
	m, err := b.SendDocument(context.Background(), &tg.SendDocumentParams{ChatID: -100,
		Document: &models.InputFileUpload{Filename: "match.json", Data: bytes.NewReader(data)},
		Caption:  "<b>the</b> record", ParseMode: models.ParseModeHTML})
	if err != nil {
		t.Fatal(err)
	}
	docs := s.Documents(-100)
	if len(docs) != 1 || docs[0].ID != m.ID || docs[0].FileName != "match.json" || !bytes.Equal(docs[0].Data, data) || docs[0].Plain != "the record" {
		t.Fatalf("documents %+v for message %d", docs, m.ID)
	}
	if len(s.Violations()) != 0 {
		t.Errorf("violations: %v", s.Violations())
	}
}

// TestSendDocumentStrict: what Telegram refuses, the fake refuses, each as a violation.
func TestSendDocumentStrict(t *testing.T) {
	s, _, _ := start(t, Options{})
	s.AddGroup(-100, "g")
	s.mu.Lock()
	s.maxDocument = 100
	s.mu.Unlock()
	file := func(n int) []byte { return bytes.Repeat([]byte("x"), n) }
	for _, c := range []struct {
		name   string
		fields map[string]string
		data   []byte // nil: no file part
		status int
		desc   string
	}{
		{"no chat", map[string]string{}, file(10), 400, "chat_id is empty"},
		{"unknown chat", map[string]string{"chat_id": "-5"}, file(10), 400, "chat not found"},
		{"no file", map[string]string{"chat_id": "-100"}, nil, 400, "there is no document in the request"},
		{"a file id", map[string]string{"chat_id": "-100", "document": "AgADBAAD"}, nil, 400, "wrong file identifier"},
		{"empty file", map[string]string{"chat_id": "-100"}, file(0), 400, "file must be non-empty"},
		{"too large", map[string]string{"chat_id": "-100"}, file(101), 413, "Request Entity Too Large"},
		{"long caption", map[string]string{"chat_id": "-100", "caption": strings.Repeat("я", MaxCaptionLen+1)}, file(10), 400, "message caption is too long"},
		{"bad caption HTML", map[string]string{"chat_id": "-100", "caption": "<b>x", "parse_mode": "HTML"}, file(10), 400, "can't parse entities"},
		{"just fits", map[string]string{"chat_id": "-100", "caption": strings.Repeat("я", MaxCaptionLen)}, file(100), 200, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, body := upload(t, s, c.fields, c.data)
			desc, _ := body["description"].(string)
			if status != c.status || !strings.Contains(desc, c.desc) {
				t.Errorf("status %d %q, want %d %q", status, desc, c.status, c.desc)
			}
		})
	}
	if n := len(s.Documents(-100)); n != 1 {
		t.Errorf("%d documents kept, want the one that fits", n)
	}
	if n := len(s.Violations()); n != 8 {
		t.Errorf("%d violations, want 8: %v", n, s.Violations())
	}
}

// upload posts sendDocument as a multipart form with data as the document's file part.
func upload(t *testing.T, s *Server, fields map[string]string, data []byte) (int, map[string]any) {
	t.Helper()
	return postForm(t, s, "sendDocument", fields, data)
}

// postForm posts a multipart form like go-telegram does, with data as the file part "document"
// unless it is nil, and returns the status and decoded body.
func postForm(t *testing.T, s *Server, method string, fields map[string]string, data []byte) (int, map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if data != nil {
		part, err := w.CreateFormFile("document", "f.json")
		if err == nil {
			_, err = part.Write(data)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	resp, err := http.Post(s.URL()+"/bot"+s.Token()+"/"+method, w.FormDataContentType(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out
}
