package tgtest

import (
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
)

// Document limits of the Bot API: a file the bot uploads, and the caption under it.
const (
	MaxDocumentSize = 50 << 20 // bytes of a file uploaded with sendDocument
	MaxCaptionLen   = 1024     // caption, in UTF-16 code units after entity parsing
)

// Document is a file the bot sent with sendDocument: the message it makes (Message.Text and
// Plain are its caption) and the file's name, type and bytes as uploaded.
type Document struct {
	Message
	FileName string
	MimeType string
	Data     []byte
}

// The keys under which readForm keeps an uploaded file of a multipart form: no form field can
// start with a NUL byte.
const (
	fileData = "\x00file:"
	fileName = "\x00name:"
	fileType = "\x00type:"
)

// addFiles puts a multipart form's files into f under the file keys.
func addFiles(f form, files map[string][]*multipart.FileHeader) error {
	for k, fhs := range files {
		if len(fhs) == 0 {
			continue
		}
		fh := fhs[0]
		r, err := fh.Open()
		if err != nil {
			return err
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return err
		}
		f[fileData+k], f[fileName+k], f[fileType+k] = string(data), fh.Filename, fh.Header.Get("Content-Type")
	}
	return nil
}

// sendDocument accepts only a file uploaded in the request (the bot has no file ids or URLs to
// send): a multipart form whose document field is a non-empty file of at most MaxDocumentSize
// bytes, with an optional caption of at most MaxCaptionLen after entity parsing.
func (s *Server) sendDocument(_ context.Context, f form) reply {
	id, r, good := chatID(f)
	if !good {
		return r
	}
	data, uploaded := f[fileData+"document"]
	switch {
	case !uploaded && f["document"] != "":
		return bad("wrong file identifier/HTTP URL specified")
	case !uploaded:
		return bad("there is no document in the request")
	case len(data) == 0:
		return bad("file must be non-empty")
	}
	var ct content
	if caption := f["caption"]; caption != "" {
		ct, r, good = parseContent(form{"text": caption, "parse_mode": f["parse_mode"]})
		switch {
		case !good:
			return bad(strings.Replace(strings.TrimPrefix(r.desc, "Bad Request: "), "message is too long", "message caption is too long", 1))
		case UTF16Len(ct.plain) > MaxCaptionLen:
			return bad("message caption is too long")
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(data) > s.maxDocument {
		return reply{code: http.StatusRequestEntityTooLarge, desc: "Request Entity Too Large", violation: true,
			note: fmt.Sprintf("%d bytes, at most %d", len(data), s.maxDocument)}
	}
	c, r := s.targetLocked(id)
	if c == nil {
		return r
	}
	to, thread, r, good := replyPlace(c, f)
	if !good {
		return r
	}
	now := s.now()
	if r, good := s.floodLocked(c, now); !good {
		return r
	}
	m := &message{Message: Message{From: BotID, Text: ct.text, Plain: ct.plain, ParseMode: ct.mode, Date: now.Unix(),
		Thread: thread}, entities: ct.entities}
	if to != nil {
		m.ReplyTo = to.ID
	}
	c.addLocked(m)
	c.docs = append(c.docs, Document{Message: m.Message, FileName: f[fileName+"document"],
		MimeType: f[fileType+"document"], Data: []byte(data)})
	return reply{result: s.messageModelLocked(c, m), msgID: m.ID}
}

// Documents lists the files the bot sent to chat with sendDocument, oldest first.
func (s *Server) Documents(chat int64) []Document {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chat]
	if c == nil {
		return nil
	}
	out := make([]Document, len(c.docs))
	for i, d := range c.docs {
		out[i] = d
		out[i].Data = append([]byte(nil), d.Data...)
	}
	return out
}
